/** A value JSON can carry: what the sandbox returns and what guest code receives as `args`. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Runs untrusted JavaScript in QuickJS with hard limits; behind the `run_javascript` tool and
 * user-written tools (which read their call's `input` as `args` and return a value). */
export interface JavaScriptRunner {
  run(code: string, options: JsRunOptions): Promise<JsRunResult>;
  /** Stops the sandbox; a later `run` starts a fresh one. */
  dispose(): void;
}

export interface JsRunOptions {
  timeoutMs: number;
  /** The guest's heap, in bytes; DEFAULT_MEMORY_BYTES when omitted. */
  memoryBytes?: number;
  /** Handed to the guest code as the global `args` (a deep copy through JSON). */
  input?: JsonValue;
  signal?: AbortSignal;
}

export interface JsRunResult {
  /** The value of the last expression or of an explicit `return`; undefined when there was none
   * or it could not be turned into JSON (then `error` says why). */
  value: JsonValue | undefined;
  /** Captured console output, one line per call; `console.warn`/`error` lines are prefixed. */
  logs: string;
  /** What went wrong, in words (thrown error with its stack, limit hit, non-JSON result), or null. */
  error: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** True when the console output went past its cap and was cut. */
  truncated: boolean;
}

/** The limits one evaluation runs under. */
export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  maxStackBytes: number;
  /** Cap on captured console output, in characters. */
  maxOutputChars: number;
  /** Cap on the result's JSON text, in characters. */
  maxResultChars: number;
}

/** What one evaluation in QuickJS reports; the host adds `aborted`. */
export interface SandboxRunResult extends Omit<JsRunResult, 'aborted'> {
  /** QuickJS itself failed (not the guest code): its module must not be used again. */
  crashed: boolean;
}

export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;
/** QuickJS's own stack check counts the wasm's C stack, but what overflows first is the host
 * engine's stack, which those frames also use. Measured in Chromium's workers: plain recursion
 * crashed the host at 256 KiB and a toString recursion at 160 KiB; 128 KiB lets QuickJS stop
 * both itself (about 680 plain frames). Deep native recursion (parsing deeply nested data) can
 * still exhaust the host's stack first; the sandbox reports that too (see quickjsSandbox.ts). */
export const DEFAULT_MAX_STACK_BYTES = 128 * 1024;
export const DEFAULT_MAX_OUTPUT_CHARS = 64 * 1024;
export const DEFAULT_MAX_RESULT_CHARS = 64 * 1024;
