// The page's one worker client, over a real MessageChannel. Node has no Web Worker, so the worker
// is a stand-in with the members the client uses (postMessage, terminate, onmessage, onerror,
// onmessageerror), its far end answering with the same serveRequests a worker script runs; the
// browser specs run the real workers through this client.

import { afterEach, describe, expect, it } from 'vitest';
import { serveRequests, type RequestHandlers, type RequestMessage } from '../../workers/hosts/requests.ts';
import { askOnce } from './askOnce.ts';
import { createRequestClient, type WorkerLoss } from './requestClient.ts';

type Requests = {
  echo: { body: { text: string }; reply: string };
  never: { body: Record<string, never>; reply: void };
};

const handlers: RequestHandlers<Requests> = {
  echo: ({ text }) => text,
  never: () => new Promise(() => {}),
};

/** A worker on a MessageChannel: the page's end is this object, the worker's runs `handlers` and
 * may push messages of its own. */
class ChannelWorker {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: ((event: MessageEvent) => void) | null = null;
  terminated = false;
  private readonly channel = new MessageChannel();
  readonly push: (message: unknown) => void;

  constructor() {
    const workerSide = this.channel.port2;
    const serve = serveRequests(handlers, (reply) => workerSide.postMessage(reply));
    workerSide.onmessage = (event: MessageEvent<RequestMessage<Requests>>) => serve(event.data);
    this.channel.port1.onmessage = (event) => this.onmessage?.(event);
    this.push = (message) => workerSide.postMessage(message);
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    if (this.terminated) throw new Error('posted to an ended worker');
    this.channel.port1.postMessage(message, transfer);
  }

  terminate(): void {
    this.terminated = true;
    this.channel.port1.close();
    this.channel.port2.close();
  }

  /** The worker's error event (its script failed, or it threw). */
  fail(message: string): void {
    let prevented = false;
    this.onerror?.({ message, preventDefault: () => (prevented = true) } as unknown as ErrorEvent);
    if (!prevented) throw new Error('the client let the error through to the console');
  }
}

const made: ChannelWorker[] = [];
const create = () => {
  const worker = new ChannelWorker();
  made.push(worker);
  return worker as unknown as Worker;
};
afterEach(() => {
  for (const worker of made.splice(0)) worker.terminate();
});

describe('the page’s worker client', () => {
  it('starts its worker on the first request, answers each request with its reply, and hands on what the worker pushes', async () => {
    const pushed: unknown[] = [];
    const client = createRequestClient<Requests, { type: 'news' }>({ create, onPush: (message) => pushed.push(message) });
    expect(client.started()).toBe(false);
    expect(made).toHaveLength(0);
    expect(await Promise.all([client.request('echo', { text: 'a' }), client.request('echo', { text: 'b' })])).toEqual(['a', 'b']);
    expect(made).toHaveLength(1);
    made[0]!.push({ type: 'news' });
    await expect.poll(() => pushed).toEqual([{ type: 'news' }]);
  });

  it('ends a worker that fails, rejects what waited on it, says how it was lost, and starts a fresh one next', async () => {
    const losses: WorkerLoss[] = [];
    const client = createRequestClient<Requests>({ create, onLost: (loss) => losses.push(loss) });
    const waiting = client.request('never', {});
    made[0]!.fail('Uncaught SyntaxError');
    await expect(waiting).rejects.toThrow('Uncaught SyntaxError');
    expect(losses).toEqual([{ kind: 'error', message: 'Uncaught SyntaxError' }]);
    expect(made[0]!.terminated).toBe(true);
    expect(client.started()).toBe(false);
    expect(await client.request('echo', { text: 'again' })).toBe('again');
    expect(made).toHaveLength(2);
    // A late error of the ended worker says nothing of the new one.
    made[0]!.fail('late');
    expect(losses).toHaveLength(1);
  });

  it('terminate ends the worker and rejects what waited with the reason given', async () => {
    const client = createRequestClient<Requests>({ create });
    const waiting = client.request('never', {});
    client.terminate(new Error('the run did not stop'));
    await expect(waiting).rejects.toThrow('the run did not stop');
    expect(made[0]!.terminated).toBe(true);
  });
});

describe('asking a short-lived worker once', () => {
  const failed = (why: string) => `failed: ${why}`;

  it('returns its reply and ends it', async () => {
    expect(await askOnce<Requests, 'echo'>(create, 'echo', { text: 'read' }, failed, { deadlineMs: 1000, doing: 'reading it' })).toBe('read');
    expect(made[0]!.terminated).toBe(true);
  });

  it('gives up at the deadline, saying what took too long, and ends it', async () => {
    const words: string[] = [];
    await askOnce<Requests, 'never'>(create, 'never', {}, (why) => void words.push(why), { deadlineMs: 1500, doing: 'writing it' });
    expect(words).toEqual(['writing it took over 2 seconds, so it was stopped']);
    expect(made[0]!.terminated).toBe(true);
  });

  it('answers in words when the reader fails', async () => {
    const asked = askOnce<Requests, 'never'>(create, 'never', {}, failed, { deadlineMs: 5000, doing: 'reading it' });
    await expect.poll(() => made.length).toBe(1);
    made[0]!.fail('');
    expect(await asked).toBe('failed: the reader stopped');
  });
});
