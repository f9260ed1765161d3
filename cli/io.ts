// What a command may touch of the process: its output streams, environment and stop signal.

export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: NodeJS.ProcessEnv;
  /** Aborts on Ctrl-C. */
  signal: AbortSignal;
  /** Standard input, for `--input -`. */
  readStdin(): Promise<string>;
}
