import type { SandboxLimits, SandboxRunResult } from './types.ts';

// Messages between the page (or orchestrator worker) and the QuickJS Web Worker.

export interface RunRequest {
  type: 'run';
  id: number;
  code: string;
  /** JSON text handed to the guest as `args`; absent: no `args`. */
  inputJson?: string;
  limits: SandboxLimits;
}

/** Sent once the wasm is compiled and the worker accepts run requests. */
export interface ReadyMessage {
  type: 'ready';
}

/** Sent when the wasm could not be loaded; the worker is useless afterwards. */
export interface LoadFailedMessage {
  type: 'load-failed';
  error: string;
}

export interface RunResultMessage {
  type: 'result';
  id: number;
  result: SandboxRunResult;
}

export type WorkerToHostMessage = ReadyMessage | LoadFailedMessage | RunResultMessage;

export function isWorkerToHostMessage(value: unknown): value is WorkerToHostMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'ready' || type === 'load-failed' || type === 'result';
}

export function isRunRequest(value: unknown): value is RunRequest {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<RunRequest>;
  return (
    message.type === 'run' &&
    typeof message.id === 'number' &&
    typeof message.code === 'string' &&
    (message.inputJson === undefined || typeof message.inputJson === 'string') &&
    typeof message.limits === 'object' &&
    message.limits !== null
  );
}
