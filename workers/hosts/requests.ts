// Requests from a page to a worker, each answered by one reply: a request map names every request
// type with its body and its reply type; the worker answers with one handler per type, keyed by
// the map (no switch), and the page asks with a typed request() that resolves with the reply.
// What the worker tells the page unasked (a run's events, model and evaluation progress) stays a
// stream of its own messages beside the replies. The page may give a request a deadline or an
// AbortSignal: it stops waiting, and the worker's handler sees its own signal abort.

/** Each request type's body (what the page sends) and reply (what its handler returns). */
export type RequestMap = { [name: string]: { body: unknown; reply: unknown } };

/** A request on the wire, or the page's word that it no longer waits for request `id`. */
export type RequestMessage<M extends RequestMap> =
  | {
      [K in keyof M & string]: { type: 'request'; id: number; name: K; body: M[K]['body'] };
    }[keyof M & string]
  | { type: 'abort'; id: number };

/** The reply to request `id` on the wire: its handler's value, or what the handler threw. */
export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; message: string };

/** What a handler has besides its body: a signal that aborts when the page stops waiting. */
export interface RequestContext {
  signal: AbortSignal;
}

/** The worker's answer to each request type. */
export type RequestHandlers<M extends RequestMap> = {
  [K in keyof M]: (body: M[K]['body'], context: RequestContext) => M[K]['reply'] | Promise<M[K]['reply']>;
};

/** The worker's side: each request runs its handler, and its reply is posted once it settles. A
 * handler that throws at once throws here too (the worker's error, as a message handler's would
 * be); one that rejects is the page's rejection, with its message. */
export function serveRequests<M extends RequestMap>(handlers: RequestHandlers<M>, post: (reply: ReplyMessage) => void): (message: RequestMessage<M>) => void {
  const running = new Map<number, AbortController>();
  return (message) => {
    if (message.type === 'abort') {
      running.get(message.id)?.abort(new DOMException('The page stopped waiting for this request.', 'AbortError'));
      return;
    }
    const controller = new AbortController();
    running.set(message.id, controller);
    const handler = handlers[message.name] as (body: unknown, context: RequestContext) => unknown;
    let result: unknown;
    try {
      result = handler(message.body, { signal: controller.signal });
    } catch (error) {
      running.delete(message.id);
      throw error;
    }
    Promise.resolve(result)
      .then(
        (value): ReplyMessage => ({ type: 'reply', id: message.id, ok: true, value }),
        (error: unknown): ReplyMessage => ({ type: 'reply', id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
      )
      .then((reply) => {
        running.delete(message.id);
        post(reply);
      });
  };
}

/** How long and under what signal the page waits for one reply. */
export interface RequestOptions {
  /** Passed on with the message (a MessagePort, an ArrayBuffer). */
  transfer?: Transferable[];
  /** Aborting it rejects the request with the signal's reason and tells the worker. */
  signal?: AbortSignal;
  /** Past this many milliseconds the request is rejected with a DeadlineError (the worker is told
   * as for an abort). */
  deadlineMs?: number;
}

/** A request's reply did not come within its deadline. */
export class DeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`no reply came within ${Math.round(deadlineMs / 1000)} seconds`);
    this.name = 'DeadlineError';
  }
}

/** The page's side of one worker's requests. */
export interface Requester<M extends RequestMap> {
  /** Sends a request and resolves with its reply. */
  request<K extends keyof M & string>(name: K, body: M[K]['body'], options?: RequestOptions): Promise<M[K]['reply']>;
  /** Sends a request whose reply nobody waits for (a command: its effects come in the stream). */
  tell<K extends keyof M & string>(name: K, body: M[K]['body'], options?: Pick<RequestOptions, 'transfer'>): void;
  /** Settles the request a reply answers. */
  settle(reply: ReplyMessage): void;
  /** Rejects every request still waiting (the worker was lost). */
  rejectAll(error: Error): void;
}

export function createRequester<M extends RequestMap>(send: (message: RequestMessage<M>, transfer: Transferable[]) => void): Requester<M> {
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  let nextId = 1;

  /** Stops waiting for request `id`: rejected with `reason`, and the worker told. */
  const giveUp = (id: number, reason: unknown) => {
    const pending = waiting.get(id);
    if (!pending) return;
    waiting.delete(id);
    pending.reject(reason);
    send({ type: 'abort', id }, []);
  };

  return {
    request(name, body, { transfer = [], signal, deadlineMs } = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const onAbort = () => giveUp(id, signal?.reason);
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        waiting.set(id, {
          resolve: (value) => {
            done();
            resolve(value as M[typeof name]['reply']);
          },
          reject: (error) => {
            done();
            reject(error);
          },
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        if (deadlineMs !== undefined) timer = setTimeout(() => giveUp(id, new DeadlineError(deadlineMs)), deadlineMs);
        send({ type: 'request', id, name, body } as RequestMessage<M>, transfer);
      });
    },
    tell(name, body, { transfer = [] } = {}) {
      send({ type: 'request', id: nextId++, name, body } as RequestMessage<M>, transfer);
    },
    settle(reply) {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.value);
      else pending?.reject(new Error(reply.message));
    },
    rejectAll(error) {
      const all = [...waiting.values()];
      waiting.clear();
      for (const pending of all) pending.reject(error);
    },
  };
}

/** A worker's way to post its replies: a reply that cannot be posted (it would not clone) is
 * answered with `unsendable(error)` instead, so the page hears why rather than waiting. */
export function replyPoster(postMessage: (reply: ReplyMessage) => void, unsendable: (error: Error) => unknown): (reply: ReplyMessage) => void {
  return (reply) => {
    try {
      postMessage(reply);
    } catch (error) {
      postMessage({ type: 'reply', id: reply.id, ok: true, value: unsendable(error as Error) });
    }
  };
}
