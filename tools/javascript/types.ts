import type { JsRunResult } from '../../workers/engine/ports.ts';

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
