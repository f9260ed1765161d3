import type { SessionRunResult } from './types.ts';

// What the Python sandbox's host and its Pyodide worker (a Web Worker in the browser, a worker
// thread under Node) exchange, inside the sandboxes' common messages (tools/sandbox/workerMessages.ts).

export interface RunRequest {
  code: string;
  /** Cap per stream (stdout, stderr), in UTF-8 bytes. */
  maxOutputBytes: number;
}

export type PythonCalls = { run: { request: RunRequest; response: SessionRunResult } };

export function isRunRequest(value: unknown): value is RunRequest {
  if (typeof value !== 'object' || value === null) return false;
  const request = value as Partial<RunRequest>;
  return typeof request.code === 'string' && typeof request.maxOutputBytes === 'number';
}

/**
 * The host's first message to a Pyodide worker; the browser's loads Pyodide on receiving it.
 * `interruptBuffer` is shared memory the host writes SIGINT (2) into to interrupt running code;
 * null where shared memory is unavailable (a page that is not cross-origin isolated, and Node,
 * whose worker ignores it).
 */
export interface SandboxInitMessage {
  type: 'init';
  interruptBuffer: SharedArrayBuffer | null;
}

export function isSandboxInitMessage(value: unknown): value is SandboxInitMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<SandboxInitMessage>;
  return (
    message.type === 'init' &&
    (message.interruptBuffer === null ||
      (typeof SharedArrayBuffer === 'function' && message.interruptBuffer instanceof SharedArrayBuffer))
  );
}
