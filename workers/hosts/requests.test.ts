// The page↔worker requests over a real MessageChannel, with commands that exist only in this test:
// adding a request is its entry in a request map, its handler, and its caller. For the orchestrator
// worker that is workers/hosts/messages.ts (OrchestratorRequests), orchestratorHost.ts (its
// handler) and the page code that calls `request(name, body)`: three files, no switch to mirror.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRequester, DeadlineError, replyPoster, serveRequests, type ReplyMessage, type RequestHandlers, type RequestMessage } from './requests.ts';

/** The test-only commands: the whole of what adding them took. */
type TestRequests = {
  /** Answers with the text shouted. */
  shout: { body: { text: string }; reply: string };
  /** Answers later, with how many bytes the port it was handed carried. */
  measure: { body: { port: MessagePort }; reply: number };
  /** A handler that fails. */
  fail: { body: { why: string }; reply: void };
  /** A command nobody waits for: it counts. */
  count: { body: Record<string, never>; reply: void };
  /** Answers only when the page stops waiting: with why its signal aborted. */
  wait: { body: Record<string, never>; reply: string };
};

let counted = 0;
const handlers: RequestHandlers<TestRequests> = {
  shout: ({ text }) => `${text.toUpperCase()}!`,
  measure: ({ port }) =>
    new Promise((resolve) => {
      port.onmessage = (event: MessageEvent<string>) => {
        resolve(event.data.length);
        port.close();
      };
    }),
  fail: async ({ why }) => {
    throw new Error(why);
  },
  count: () => {
    counted += 1;
  },
  wait: (_body, { signal }) =>
    new Promise((resolve) => {
      signal.addEventListener('abort', () => {
        aborted.push((signal.reason as Error).name);
        resolve('aborted');
      });
    }),
};
/** The names of the reasons the worker's handlers saw their signal abort with. */
const aborted: string[] = [];

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

/** A worker (port1, answering with `handlers`) and the page's requester (port2). */
function connected() {
  const channel = new MessageChannel();
  channels.push(channel);
  const worker = channel.port1;
  const serve = serveRequests(handlers, (reply) => worker.postMessage(reply));
  worker.onmessage = (event: MessageEvent<RequestMessage<TestRequests>>) => serve(event.data);
  const page = channel.port2;
  const requester = createRequester<TestRequests>((message, transfer) => page.postMessage(message, transfer));
  page.onmessage = (event: MessageEvent<ReplyMessage>) => requester.settle(event.data);
  return requester;
}

describe('requests between a page and a worker', () => {
  it('answers a request with its handler’s reply, each request with its own', async () => {
    const requester = connected();
    const [a, b] = await Promise.all([requester.request('shout', { text: 'one' }), requester.request('shout', { text: 'two' })]);
    expect([a, b]).toEqual(['ONE!', 'TWO!']);
  });

  it('carries a transferred port and waits for a reply that comes later', async () => {
    const requester = connected();
    const side = new MessageChannel();
    channels.push(side);
    const measured = requester.request('measure', { port: side.port1 }, { transfer: [side.port1] });
    side.port2.postMessage('twelve bytes');
    expect(await measured).toBe(12);
  });

  it('rejects with what the handler threw', async () => {
    const requester = connected();
    await expect(requester.request('fail', { why: 'the suite is empty' })).rejects.toThrow('the suite is empty');
  });

  it('sends a command nobody waits for, and its reply is dropped', async () => {
    const requester = connected();
    counted = 0;
    requester.tell('count', {});
    requester.tell('count', {});
    expect(await requester.request('shout', { text: 'after' })).toBe('AFTER!');
    expect(counted).toBe(2);
  });

  it('rejects every waiting request when the worker is lost, and ignores a late reply', async () => {
    const requester = createRequester<TestRequests>(() => {});
    const waiting = requester.request('shout', { text: 'lost' });
    requester.rejectAll(new Error('the worker was lost'));
    await expect(waiting).rejects.toThrow('the worker was lost');
    expect(() => requester.settle({ type: 'reply', id: 1, ok: true, value: 'late' })).not.toThrow();
  });

  it('stops waiting at the deadline, and the worker’s handler sees its signal abort', async () => {
    const requester = connected();
    aborted.length = 0;
    const waited = requester.request('wait', {}, { deadlineMs: 50 });
    await expect(waited).rejects.toBeInstanceOf(DeadlineError);
    await vi.waitFor(() => expect(aborted).toEqual(['AbortError']));
    // The worker's late reply settles nothing, and the next request is answered as usual.
    expect(await requester.request('shout', { text: 'next' })).toBe('NEXT!');
  });

  it('stops waiting when the page aborts, with the page’s reason, before or after sending', async () => {
    const requester = connected();
    aborted.length = 0;
    const controller = new AbortController();
    const waited = requester.request('wait', {}, { signal: controller.signal });
    controller.abort(new Error('the person closed the tab'));
    await expect(waited).rejects.toThrow('the person closed the tab');
    await vi.waitFor(() => expect(aborted).toEqual(['AbortError']));
    await expect(requester.request('shout', { text: 'x' }, { signal: controller.signal })).rejects.toThrow('the person closed the tab');
  });

  it('answers a reply that cannot be posted with what the worker says instead', () => {
    const posted: ReplyMessage[] = [];
    const post = replyPoster(
      (reply) => {
        if (reply.ok && typeof reply.value === 'function') throw new Error('could not be cloned');
        posted.push(reply);
      },
      (error) => ({ ok: false, problem: error.message }),
    );
    post({ type: 'reply', id: 7, ok: true, value: () => 1 });
    expect(posted).toEqual([{ type: 'reply', id: 7, ok: true, value: { ok: false, problem: 'could not be cloned' } }]);
  });

  it('is typed by the map: an unknown request or a wrong body does not compile', () => {
    const requester = createRequester<TestRequests>(() => {});
    // @ts-expect-error: no such request
    void requester.request('whisper', { text: 'x' }).catch(() => {});
    // @ts-expect-error: shout takes a text
    void requester.request('shout', { words: 'x' }).catch(() => {});
    const reply: Promise<string> = requester.request('shout', { text: 'x' });
    void reply.catch(() => {});
    requester.rejectAll(new Error('done'));
  });
});
