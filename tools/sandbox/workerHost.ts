// The one host of the sandboxes' workers (Python, JavaScript, the calculator), in the browser and
// under Node alike: a worker is started, says it is ready or could not load (or misses its start
// time limit), takes calls matched by id, and is ended when a call outlives its deadline (after a
// grace period where its code can be interrupted), is aborted, or the worker crashes; the next call
// gets a fresh one. Calls queue and execute one at a time, each deadline counting from the moment
// its call starts executing. What differs between the browser and Node is only how a worker is
// started (`StartWorker`: browserWorker.ts, nodeWorker.ts); what differs between sandboxes is what
// they send and how they word the outcome.

import { settledOrAborted } from '../../workers/engine/abort.ts';
import { formatSeconds } from '../../workers/engine/format.ts';
import { isWorkerReply, messageOf, type CallMap, type CallMessage } from './workerMessages.ts';

/** What a host needs of a started worker. */
export interface WorkerHandle {
  post(message: unknown): void;
  terminate(): void | Promise<void>;
}

/** What a started worker reports to its host. */
export interface WorkerEvents {
  message(value: unknown): void;
  /** The worker died or could not start; `reason` in words. */
  failed(reason: string): void;
}

/** Starts one worker: the only part the browser and Node twins do not share. */
export type StartWorker = (events: WorkerEvents) => WorkerHandle;

export interface WorkerHostOptions {
  start: StartWorker;
  /** What the worker loads, for messages: "Pyodide did not load within 60 s". */
  runtime: string;
  /** How long the runtime may take to load; no limit when omitted. */
  startTimeoutMs?: number;
  /**
   * Each worker takes one call and is ended after it: whatever a call leaves behind ends with its
   * worker. A spare boots in the background after each call (and at warmUp), so the next call
   * finds it ready. Otherwise one worker stays warm and takes call after call.
   */
  oneCallPerWorker?: boolean;
  /** Run once per started worker, before any call: may post it a first message, and returns how
   * to interrupt its running code gently (Python's SIGINT through shared memory), or null. */
  setUp?: (post: (message: unknown) => void) => (() => void) | null;
}

export interface CallOptions {
  /** When the host stops the call (interrupting it where it can, else ending its worker). */
  deadlineMs: number;
  /** How long interrupted code may take to answer before its worker is ended. */
  graceMs?: number;
  signal?: AbortSignal;
}

/** How a call ended. */
export type CallEnd<Response> =
  | { kind: 'answer'; response: Response }
  /** Stopped by its deadline or its signal; `partial`: what interrupted code answered in its grace. */
  | { kind: 'timeout' | 'aborted'; partial?: Response }
  /** The worker died during the call. */
  | { kind: 'crash'; reason: string }
  /** The worker could not start (its runtime failed to load, or not in time). */
  | { kind: 'not-started'; reason: string };

export type CallOutcome<Response> = CallEnd<Response> & {
  /** From the moment the call was sent; 0 when it never was. */
  durationMs: number;
  /** How long the call waited for its worker to start. */
  startupMs: number;
};

export interface WorkerHost<M extends CallMap<M>> {
  call<Name extends keyof M & string>(name: Name, request: M[Name]['request'], options: CallOptions): Promise<CallOutcome<M[Name]['response']>>;
  /** Starts a worker now so the first call need not wait for it; rejects with the reason it could not start. */
  warmUp(): Promise<void>;
  /** Ends the workers now; a call in progress reports as aborted, and a later call starts a fresh worker. */
  dispose(): Promise<void>;
}

type Stopped = 'timeout' | 'aborted';

interface PendingCall {
  answered(response: unknown): void;
  crashed(reason: string): void;
  disposed(): void;
}

class HostedWorker {
  private readonly handle: WorkerHandle | undefined;
  private readonly interrupt: (() => void) | null = null;
  private readonly calls = new Map<number, PendingCall>();
  private nextId = 1;
  /** Resolves once the runtime has loaded; rejects with the reason it could not. */
  readonly ready: Promise<void>;
  stopped = false;

  constructor(private readonly options: WorkerHostOptions) {
    let onReady = () => {};
    let onFailure = (_reason: string) => {};
    this.ready = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onFailure = (reason) => reject(new Error(reason));
    });
    // Nobody may be waiting when a worker fails to load.
    this.ready.catch(() => undefined);
    const { runtime, startTimeoutMs } = options;
    const startTimer =
      startTimeoutMs === undefined ? undefined : setTimeout(() => fail(`${runtime} did not load within ${formatSeconds(startTimeoutMs)}`), startTimeoutMs);
    const fail = (reason: string) => {
      clearTimeout(startTimer);
      this.terminate();
      onFailure(reason);
      for (const call of [...this.calls.values()]) call.crashed(reason);
    };
    this.handle = options.start({
      message: (message) => {
        if (!isWorkerReply(message)) return;
        if (message.type === 'ready') {
          clearTimeout(startTimer);
          onReady();
        } else if (message.type === 'load-failed') fail(`${runtime} failed to load: ${message.error}`);
        else {
          // Ended first, so a call queued behind this one goes to a fresh worker.
          if (message.fatal || options.oneCallPerWorker) this.terminate();
          this.calls.get(message.id)?.answered(message.response);
        }
      },
      failed: fail,
    });
    this.interrupt = options.setUp?.((message) => this.handle?.post(message)) ?? null;
  }

  call(name: string, request: unknown, { deadlineMs, graceMs = 0, signal }: CallOptions): Promise<CallOutcome<unknown>> {
    const id = this.nextId++;
    const startedAt = performance.now();
    return new Promise((resolve) => {
      let stopping: Stopped | null = null;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const settle = (outcome: CallEnd<unknown>) => {
        if (!this.calls.delete(id)) return;
        clearTimeout(deadline);
        clearTimeout(graceTimer);
        signal?.removeEventListener('abort', onAbort);
        resolve({ ...outcome, durationMs: performance.now() - startedAt, startupMs: 0 });
      };
      // Interrupted gently where the worker can be (it may answer with what it has so), else ended.
      const stop = (kind: Stopped) => {
        if (stopping) return;
        stopping = kind;
        clearTimeout(deadline);
        if (this.interrupt && !this.stopped) {
          this.interrupt();
          graceTimer = setTimeout(() => {
            this.terminate();
            settle({ kind });
          }, graceMs);
        } else {
          this.terminate();
          settle({ kind });
        }
      };
      const onAbort = () => stop('aborted');
      const deadline = setTimeout(() => stop('timeout'), deadlineMs);
      this.calls.set(id, {
        answered: (response) => settle(stopping ? { kind: stopping, partial: response } : { kind: 'answer', response }),
        crashed: (reason) => settle(stopping ? { kind: stopping } : { kind: 'crash', reason }),
        disposed: () => settle({ kind: 'aborted' }),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      const message: CallMessage = { type: 'call', id, name, request };
      this.handle?.post(message);
    });
  }

  /** Ends the worker now; the calls in progress report as aborted. */
  async dispose(): Promise<void> {
    for (const call of [...this.calls.values()]) call.disposed();
    await this.terminate();
  }

  terminate(): void | Promise<void> {
    this.stopped = true;
    return this.handle?.terminate();
  }
}

/** A host of workers `options.start` creates; see the top of this file. */
export function createWorkerHost<M extends CallMap<M>>(options: WorkerHostOptions): WorkerHost<M> {
  /** The warm worker, or (one call per worker) the spare: booting or booted, never given a call yet. */
  let idle: HostedWorker | null = null;
  /** The worker running a call now, if any. */
  let busy: HostedWorker | null = null;
  /** Moves on at each dispose, so a call that ends after it does not boot a new spare. */
  let generation = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const oneCall = options.oneCallPerWorker === true;

  function boot(): HostedWorker {
    if (!idle || idle.stopped) idle = new HostedWorker(options);
    return idle;
  }

  async function execute(name: string, request: unknown, callOptions: CallOptions): Promise<CallOutcome<unknown>> {
    const { signal } = callOptions;
    if (signal?.aborted) return { kind: 'aborted', durationMs: 0, startupMs: 0 };
    const startedIn = generation;
    const target = boot();
    if (oneCall) idle = null;
    busy = target;
    const waitedFrom = performance.now();
    const startupMs = () => Math.round(performance.now() - waitedFrom);
    try {
      try {
        if (await settledOrAborted(target.ready, signal)) return { kind: 'aborted', durationMs: 0, startupMs: startupMs() };
      } catch (error) {
        if (idle === target) idle = null;
        await target.terminate();
        return { kind: 'not-started', reason: messageOf(error), durationMs: 0, startupMs: startupMs() };
      }
      const waited = startupMs();
      const outcome = await target.call(name, request, callOptions);
      // Booted after the call, not during it, so the boot never competes with the code for CPU.
      // Not after a failed start (above): a worker that could not load would likely fail again.
      if (oneCall && generation === startedIn) boot();
      return { ...outcome, startupMs: waited };
    } finally {
      if (oneCall) void target.terminate();
      if (busy === target) busy = null;
    }
  }

  return {
    call(name, request, callOptions) {
      const previous = queue;
      const result = settledOrAborted(previous.catch(() => undefined), callOptions.signal).then((aborted) =>
        aborted ? { kind: 'aborted' as const, durationMs: 0, startupMs: 0 } : execute(name, request, callOptions),
      );
      // The next call waits for this one and for everything queued before it.
      queue = Promise.allSettled([previous, result]);
      return result as Promise<CallOutcome<M[typeof name]['response']>>;
    },
    async warmUp() {
      await boot().ready;
    },
    async dispose() {
      generation++;
      const targets = new Set([idle, busy]);
      idle = null;
      busy = null;
      for (const target of targets) await target?.dispose();
    },
  };
}
