// The sandboxes' worker host under Node, with real worker threads (e2e/fixtures/doubles/scriptedSandboxWorker.mjs).
import { afterEach, describe, expect, it } from 'vitest';
import { startNodeWorker } from './nodeWorker.ts';
import { createWorkerHost, type CallOutcome, type WorkerHost, type WorkerHostOptions } from './workerHost.ts';

interface Request {
  op: 'echo' | 'timed' | 'spin' | 'fatal' | 'exit' | 'throw';
  value?: string;
  stray?: boolean;
  delayMs?: number;
  ms?: number;
  code?: number;
  message?: string;
}
interface Response {
  threadId: number;
  served: number;
  value?: string;
  startedAt?: number;
  endedAt?: number;
  interrupted?: boolean;
}
type TestCalls = { do: { request: Request; response: Response } };

const WORKER = new URL('../../e2e/fixtures/doubles/scriptedSandboxWorker.mjs', import.meta.url);
const hosts: Array<WorkerHost<TestCalls>> = [];

function host(load: 'ready' | 'fail' | 'never', options: Partial<WorkerHostOptions> = {}): WorkerHost<TestCalls> {
  const created = createWorkerHost<TestCalls>({ start: startNodeWorker(WORKER, { workerData: { load } }), runtime: 'TestRuntime', startTimeoutMs: 20_000, ...options });
  hosts.push(created);
  return created;
}

function answerOf(outcome: CallOutcome<Response>): Response {
  if (outcome.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(outcome)}`);
  return outcome.response;
}

const CALL = { deadlineMs: 10_000 };

afterEach(async () => {
  for (const created of hosts.splice(0)) await created.dispose();
});

describe('createWorkerHost', () => {
  it('reports a runtime that fails to load, and one that does not load in time', async () => {
    const failing = await host('fail').call('do', { op: 'echo', value: 'x' }, CALL);
    expect(failing).toMatchObject({ kind: 'not-started', reason: 'TestRuntime failed to load: the runtime is missing', durationMs: 0 });
    const silent = await host('never', { startTimeoutMs: 300 }).call('do', { op: 'echo', value: 'x' }, CALL);
    expect(silent).toMatchObject({ kind: 'not-started', reason: 'TestRuntime did not load within 0.3 s' });
    expect(silent.startupMs).toBeGreaterThanOrEqual(250);
    await expect(host('fail').warmUp()).rejects.toThrow('TestRuntime failed to load: the runtime is missing');
  });

  it('matches answers to their calls by id, ignoring strays and noise, and queues calls made together', async () => {
    const tested = host('ready');
    const [slow, fast, third] = await Promise.all([
      tested.call('do', { op: 'timed', delayMs: 300 }, CALL),
      tested.call('do', { op: 'echo', value: 'second', stray: true }, CALL),
      tested.call('do', { op: 'timed', delayMs: 50 }, CALL),
    ]);
    expect(answerOf(fast).value).toBe('second');
    // One at a time, in the order asked, on the one warm worker.
    expect([answerOf(slow).served, answerOf(fast).served, answerOf(third).served]).toEqual([1, 2, 3]);
    expect(answerOf(third).startedAt).toBeGreaterThanOrEqual(answerOf(slow).endedAt ?? Infinity);
    expect(new Set([slow, fast, third].map((outcome) => answerOf(outcome).threadId)).size).toBe(1);
  });

  it('lets a queued call be aborted while it waits, without it ever reaching the worker', async () => {
    const tested = host('ready');
    const controller = new AbortController();
    const first = tested.call('do', { op: 'timed', delayMs: 300 }, CALL);
    const queued = tested.call('do', { op: 'echo', value: 'never sent' }, { ...CALL, signal: controller.signal });
    controller.abort();
    expect(await queued).toMatchObject({ kind: 'aborted', durationMs: 0 });
    expect(answerOf(await first).served).toBe(1);
    expect(answerOf(await tested.call('do', { op: 'echo', value: 'next' }, CALL)).served).toBe(2);
  });

  it('ends a call at its deadline by ending its worker, and the next call gets a fresh one', async () => {
    const tested = host('ready');
    const before = answerOf(await tested.call('do', { op: 'echo' }, CALL)).threadId;
    const started = performance.now();
    const stuck = await tested.call('do', { op: 'spin', ms: 20_000 }, { deadlineMs: 300 });
    expect(stuck.kind).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(5_000);
    const after = answerOf(await tested.call('do', { op: 'echo', value: 'again' }, CALL));
    expect(after.value).toBe('again');
    expect(after.threadId).not.toBe(before);
  });

  it('ends a call the moment its signal aborts, and the next call gets a fresh worker', async () => {
    const tested = host('ready');
    const before = answerOf(await tested.call('do', { op: 'echo' }, CALL)).threadId;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const stopped = await tested.call('do', { op: 'spin', ms: 20_000 }, { ...CALL, signal: controller.signal });
    expect(stopped.kind).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(answerOf(await tested.call('do', { op: 'echo' }, CALL)).threadId).not.toBe(before);
  });

  it('reports a worker that crashes or exits mid-call, and replaces it', async () => {
    const tested = host('ready');
    expect(await tested.call('do', { op: 'exit', code: 7 }, CALL)).toMatchObject({ kind: 'crash', reason: 'its worker exited (code 7)' });
    expect(await tested.call('do', { op: 'throw', message: 'boom' }, CALL)).toMatchObject({ kind: 'crash', reason: 'boom' });
    expect(answerOf(await tested.call('do', { op: 'echo', value: 'alive' }, CALL)).value).toBe('alive');
  });

  it('does not send another call to a worker that said it is broken', async () => {
    const tested = host('ready');
    const broken = answerOf(await tested.call('do', { op: 'fatal' }, CALL));
    expect(broken.value).toBe('broken');
    expect(answerOf(await tested.call('do', { op: 'echo' }, CALL)).threadId).not.toBe(broken.threadId);
  });

  it('interrupts code gently where the worker can be, keeping what it answers in its grace', async () => {
    const tested = host('ready', {
      setUp: (post) => {
        const memory = new SharedArrayBuffer(4);
        post({ type: 'init', interruptBuffer: memory });
        return () => Atomics.store(new Int32Array(memory), 0, 2);
      },
    });
    const stopped = await tested.call('do', { op: 'spin', ms: 20_000 }, { deadlineMs: 200, graceMs: 5_000 });
    expect(stopped).toMatchObject({ kind: 'timeout', partial: { interrupted: true } });
  });

  it('gives each call a fresh worker when asked, with a spare booted after each call', async () => {
    const tested = host('ready', { oneCallPerWorker: true });
    await tested.warmUp();
    const first = await tested.call('do', { op: 'echo' }, CALL);
    // The spare boots after the call; give it a moment, then it is ready for the next.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const second = await tested.call('do', { op: 'echo' }, CALL);
    expect(answerOf(second).threadId).not.toBe(answerOf(first).threadId);
    expect([answerOf(first).served, answerOf(second).served]).toEqual([1, 1]);
    expect(second.startupMs).toBeLessThan(100);
  });

  it('reports a call in progress as aborted when the host is disposed, and starts afresh after', async () => {
    const tested = host('ready');
    // Started first, so the call below is in progress however long a loaded machine takes to start a thread.
    expect(answerOf(await tested.call('do', { op: 'echo', value: 'warm' }, CALL)).value).toBe('warm');
    const running = tested.call('do', { op: 'timed', delayMs: 5_000 }, CALL);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await tested.dispose();
    expect((await running).kind).toBe('aborted');
    expect(answerOf(await tested.call('do', { op: 'echo', value: 'fresh' }, CALL)).value).toBe('fresh');
  });
});
