// The page's one way to talk to a worker: every worker the page starts (the orchestrator worker,
// the model workers, the documents worker, the short-lived file readers) goes through this. The
// worker starts on the first message, so the first screen does not pay for its chunk; requests
// are typed by the worker's request map (workers/hosts/requests.ts) and resolve with their reply,
// or reject at their deadline or abort; what the worker says unasked goes to `onPush`. A worker
// that fails (its script did not load, it threw, or it sent what cannot be read) is ended, every
// request waiting on it is rejected, and the next message starts a fresh one.

import { createRequester, type ReplyMessage, type RequestMap, type RequestMessage, type RequestOptions, type Requester } from '../../workers/hosts/requests.ts';

/** How a worker was lost: its error event (with the browser's message, if any), or a message
 * that could not be read. */
export type WorkerLoss = { kind: 'error'; message: string | undefined } | { kind: 'unreadable' };

export interface RequestClientOptions<Push> {
  /** Makes the worker: a literal `new Worker(new URL(…, import.meta.url))`, which Vite bundles. */
  create(): Worker;
  /** What the worker says unasked (anything but a reply). */
  onPush?(message: Push): void;
  /** The worker failed and was ended: `loss` says how. */
  onLost?(loss: WorkerLoss): void;
}

export interface RequestClient<M extends RequestMap> extends Pick<Requester<M>, 'request' | 'tell'> {
  /** Whether a worker is running now (started and not ended since). */
  started(): boolean;
  /** Ends the worker now; every request waiting on it is rejected with `error`. The next message
   * starts a fresh one. */
  terminate(error: Error): void;
}

/** The words a request waiting on a lost worker is rejected with. */
export function lossMessage(loss: WorkerLoss, failed: string, unreadable: string): string {
  return loss.kind === 'error' ? loss.message || failed : unreadable;
}

export function createRequestClient<M extends RequestMap, Push = never>(options: RequestClientOptions<Push>): RequestClient<M> {
  let worker: Worker | null = null;
  const requester = createRequester<M>((message: RequestMessage<M>, transfer) => connect().postMessage(message, transfer));

  const end = (error: Error) => {
    worker?.terminate();
    worker = null;
    requester.rejectAll(error);
  };

  const lose = (loss: WorkerLoss) => {
    end(new Error(lossMessage(loss, 'the worker stopped', 'what the worker sent could not be read')));
    options.onLost?.(loss);
  };

  const connect = (): Worker => {
    if (worker) return worker;
    const created = options.create();
    created.onmessage = (event: MessageEvent<Push | ReplyMessage>) => {
      const data = event.data;
      if (isReply(data)) requester.settle(data);
      else options.onPush?.(data);
    };
    created.onerror = (event) => {
      event.preventDefault();
      // An error of a worker already replaced says nothing of the one running now.
      if (worker === created) lose({ kind: 'error', message: event.message || undefined });
    };
    created.onmessageerror = () => {
      if (worker === created) lose({ kind: 'unreadable' });
    };
    worker = created;
    return created;
  };

  return {
    request: (name, body, requestOptions?: RequestOptions) => requester.request(name, body, requestOptions),
    tell: (name, body, tellOptions) => requester.tell(name, body, tellOptions),
    started: () => worker !== null,
    terminate: end,
  };
}

function isReply(data: unknown): data is ReplyMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'reply';
}
