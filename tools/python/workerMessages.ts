import type { SessionRunResult } from './types.ts';

// Messages between a host and a Pyodide worker. The Node worker_threads host and the browser
// Web Worker host both speak this; nothing here depends on either environment.

export interface RunRequest {
  type: 'run';
  id: number;
  code: string;
  /** Cap per stream (stdout, stderr), in UTF-8 bytes. */
  maxOutputBytes: number;
}

export type HostToWorkerMessage = RunRequest;

/** Sent once Pyodide has loaded and the worker accepts run requests. */
export interface ReadyMessage {
  type: 'ready';
}

/** Sent when Pyodide could not be loaded; the worker is useless afterwards. */
export interface LoadFailedMessage {
  type: 'load-failed';
  error: string;
}

export interface RunResultMessage {
  type: 'result';
  id: number;
  result: SessionRunResult;
  /** The interpreter is broken after this run: the host must not send it another. */
  fatal?: boolean;
}

export type WorkerToHostMessage = ReadyMessage | LoadFailedMessage | RunResultMessage;

export function isWorkerToHostMessage(value: unknown): value is WorkerToHostMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'ready' || type === 'load-failed' || type === 'result';
}

export function isHostToWorkerMessage(value: unknown): value is HostToWorkerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<RunRequest>;
  return (
    message.type === 'run' &&
    typeof message.id === 'number' &&
    typeof message.code === 'string' &&
    typeof message.maxOutputBytes === 'number'
  );
}

/**
 * The browser host's first message to its Pyodide worker, which loads Pyodide on receiving it.
 * `interruptBuffer` is shared memory the host writes SIGINT (2) into to interrupt running code;
 * null where the page is not cross-origin isolated and shared memory is unavailable.
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
