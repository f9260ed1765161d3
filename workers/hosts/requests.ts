// Requests from a page to a worker, each answered by one reply: a request map names every request
// type with its body and its reply type; the worker answers with one handler per type, keyed by
// the map (no switch), and the page asks with a typed request() that resolves with the reply.
// What the worker tells the page unasked (a run's events, model and evaluation progress) stays a
// stream of its own messages beside the replies.

/** Each request type's body (what the page sends) and reply (what its handler returns). */
export type RequestMap = { [name: string]: { body: unknown; reply: unknown } };

/** A request on the wire. */
export type RequestMessage<M extends RequestMap> = {
  [K in keyof M & string]: { type: 'request'; id: number; name: K; body: M[K]['body'] };
}[keyof M & string];

/** The reply to request `id` on the wire: its handler's value, or what the handler threw. */
export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; message: string };

/** The worker's answer to each request type. */
export type RequestHandlers<M extends RequestMap> = {
  [K in keyof M]: (body: M[K]['body']) => M[K]['reply'] | Promise<M[K]['reply']>;
};

/** The worker's side: runs the request's handler and posts its reply once it settles. A handler
 * that throws at once throws here too (the worker's error, as a message handler's would be). */
export function answerRequest<M extends RequestMap>(handlers: RequestHandlers<M>, message: RequestMessage<M>, post: (reply: ReplyMessage) => void): void {
  const handler = handlers[message.name] as (body: unknown) => unknown;
  const result = handler(message.body);
  Promise.resolve(result).then(
    (value) => post({ type: 'reply', id: message.id, ok: true, value }),
    (error: unknown) => post({ type: 'reply', id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
}

/** The page's side of one worker's requests. */
export interface Requester<M extends RequestMap> {
  /** Sends a request (with `transfer`, e.g. a MessagePort) and resolves with its reply. */
  request<K extends keyof M & string>(name: K, body: M[K]['body'], transfer?: Transferable[]): Promise<M[K]['reply']>;
  /** Sends a request whose reply nobody waits for (a command: its effects come in the stream). */
  tell<K extends keyof M & string>(name: K, body: M[K]['body'], transfer?: Transferable[]): void;
  /** Settles the request a reply answers. */
  settle(reply: ReplyMessage): void;
  /** Rejects every request still waiting (the worker was lost). */
  rejectAll(error: Error): void;
}

export function createRequester<M extends RequestMap>(send: (message: RequestMessage<M>, transfer: Transferable[]) => void): Requester<M> {
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  return {
    request(name, body, transfer = []) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        send({ type: 'request', id, name, body } as RequestMessage<M>, transfer);
      });
    },
    tell(name, body, transfer = []) {
      send({ type: 'request', id: nextId++, name, body } as RequestMessage<M>, transfer);
    },
    settle(reply) {
      const pending = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) pending?.resolve(reply.value);
      else pending?.reject(new Error(reply.message));
    },
    rejectAll(error) {
      for (const pending of waiting.values()) pending.reject(error);
      waiting.clear();
    },
  };
}
