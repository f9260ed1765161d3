/** Runs self-contained Python code with a hard time limit; behind the `enhance_reasoning` tool. */
export interface PythonRunner {
  run(code: string, options: PythonRunOptions): Promise<PythonRunResult>;
  /** Stops the interpreter; a later `run` starts a fresh one. */
  dispose(): Promise<void>;
}

export interface PythonRunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PythonRunResult {
  stdout: string;
  stderr: string;
  /** The last lines of the Python traceback, or null when the code finished without an exception. */
  error: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** How long the code ran (from when the interpreter took it). */
  durationMs: number;
  /** How long this run first waited for the interpreter to start (Pyodide takes seconds);
   * 0 or absent when it was already running. Not part of `durationMs`. */
  startupMs?: number;
  /** True when stdout or stderr went past the output cap and was cut. */
  truncated: boolean;
}

/** What one interpreter session reports; the host adds `timedOut` and `aborted`. */
export type SessionRunResult = Omit<PythonRunResult, 'timedOut' | 'aborted'>;

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
