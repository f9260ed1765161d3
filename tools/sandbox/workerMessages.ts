// The messages between a sandbox host (workerHost.ts) and its worker, whatever the sandbox: the
// worker says it is ready or could not load, the host sends calls by id and the worker answers
// each with its id. A sandbox names its calls and their shapes in a CallMap (its own
// workerMessages.ts); nothing here depends on the browser or Node.

/** One kind of call a worker answers: what the host sends and what the worker answers. */
export interface Exchange {
  request: unknown;
  response: unknown;
}

/** A sandbox's calls, by name: `{ run: { request: RunRequest; response: RunResult } }`. */
export type CallMap<M> = { [Name in keyof M]: Exchange };

export interface CallMessage<Name extends string = string, Request = unknown> {
  type: 'call';
  id: number;
  name: Name;
  request: Request;
}

export type WorkerReply<Response = unknown> =
  /** The worker has loaded its runtime and takes calls. */
  | { type: 'ready' }
  /** The runtime could not be loaded; the worker is useless. */
  | { type: 'load-failed'; error: string }
  /** The answer to call `id`. `fatal`: the worker is broken after it and must not get another. */
  | { type: 'answer'; id: number; response: Response; fatal?: boolean };

export function isWorkerReply(value: unknown): value is WorkerReply {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; id?: unknown; error?: unknown };
  switch (message.type) {
    case 'ready':
      return true;
    case 'load-failed':
      return typeof message.error === 'string';
    case 'answer':
      return typeof message.id === 'number';
    default:
      return false;
  }
}

/** `value` as a call named `name` whose request passes `isRequest`, or null. */
export function callOf<Name extends string, Request>(
  value: unknown,
  name: Name,
  isRequest: (request: unknown) => request is Request,
): CallMessage<Name, Request> | null {
  if (typeof value !== 'object' || value === null) return null;
  const message = value as Partial<CallMessage>;
  if (message.type !== 'call' || message.name !== name || typeof message.id !== 'number') return null;
  return isRequest(message.request) ? (message as CallMessage<Name, Request>) : null;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
