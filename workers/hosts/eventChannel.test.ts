// A batch of events the channel to the page refuses (issue 31, item 8): a real MessageChannel,
// whose structured clone overflows on a value nested 200,000 deep, as the worker's postMessage
// does. The run's other events still go, the one that cannot is replaced by its error, and the
// host is told once, so the run ends in History with that error.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../engine/events.ts';
import { sendEventsSafely } from './eventChannel.ts';
import { syntheticRun } from '../../e2e/fixtures/syntheticRun.ts';

let ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports) port.close();
  ports = [];
});

/** A real channel: what it is sent arrives on the other side, cloned. */
function channel(): { send: (events: RunEvent[]) => void; received: () => Promise<RunEvent[][]> } {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const got: RunEvent[][] = [];
  port2.on('message', (events: RunEvent[]) => got.push(events));
  return {
    send: (events) => port1.postMessage(events),
    received: () => new Promise((resolve) => setTimeout(() => resolve(got), 50)),
  };
}

function deep(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('sendEventsSafely', () => {
  it('sends a batch the channel takes as it is', async () => {
    const { send, received } = channel();
    const lost: string[] = [];
    const events = syntheticRun('r1', 1, 2) as RunEvent[];
    sendEventsSafely(send, (runId) => lost.push(runId))(events);
    expect(await received()).toEqual([events]);
    expect(lost).toEqual([]);
  });

  it('sends the rest of a refused batch, the refused event as its error, and tells the host once', async () => {
    const { send, received } = channel();
    const lost: Array<[string, string]> = [];
    const [started, ...rest] = syntheticRun('r1', 1, 2) as RunEvent[];
    const call: RunEvent = { runId: 'r1', t: 5, type: 'tool_call', step: 1, callId: 'c1', name: 'lookup', arguments: { a: deep(200_000) }, offered: ['lookup'] };
    const batch = [started!, call, call, ...rest];
    sendEventsSafely(send, (runId, message) => lost.push([runId, message]))(batch);

    const sent = (await received()).flat();
    const message = 'An event of this run (tool_call lookup of step 1) could not be sent to the page, so the run was ended here.';
    expect(lost).toEqual([['r1', message]]);
    expect(sent[0]).toEqual(started);
    expect(sent.slice(1, 3)).toEqual([
      { runId: 'r1', t: 5, type: 'error', step: 1, code: 'channel', message, fatal: true },
      { runId: 'r1', t: 5, type: 'error', step: 1, code: 'channel', message, fatal: true },
    ]);
    expect(sent.slice(3)).toEqual(rest);
  });

  it('ends the run as an error when its end itself cannot be sent', async () => {
    const { send, received } = channel();
    const events = syntheticRun('r1', 1, 1) as RunEvent[];
    const finished = events.at(-1) as Extract<RunEvent, { type: 'run_finished' }>;
    const unsendable = { ...finished, answer: deep(200_000) as unknown as string };
    sendEventsSafely(send, () => {})([...events.slice(0, -1), unsendable]);
    const sent = (await received()).flat();
    expect(sent.at(-2)).toMatchObject({ type: 'error', code: 'channel', fatal: true });
    expect(sent.at(-1)).toMatchObject({ type: 'run_finished', stopReason: 'error', answer: null, totals: { costUsd: finished.totals.costUsd } });
  });
});
