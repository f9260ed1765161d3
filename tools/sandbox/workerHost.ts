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
   * worker. Spares boot in the background after each call (and at warmUp), so the next call
   * finds one ready. Otherwise one worker stays warm and takes call after call.
   */
  oneCallPerWorker?: boolean;
  /** With oneCallPerWorker: how many spares to keep booted (default 1), so that calls asked for
   * together (several runs of a batch) find one each. They boot one after another, never two at
   * once. Each is a whole runtime in memory: keep this small. */
  spares?: number;
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
  loaded = false;
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
          this.loaded = true;
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
  return new QueuedWorkerHost<M>(options);
}

/** Calls one at a time, each on the warm worker or (one call per worker) on a fresh spare. */
class QueuedWorkerHost<M extends CallMap<M>> implements WorkerHost<M> {
  /** The warm worker, or (one call per worker) the spares: booting or booted, never given a call yet. */
  private idle: HostedWorker[] = [];
  /** The worker running a call now, if any. */
  private busy: HostedWorker | null = null;
  /** Calls queued or running. */
  private calls = 0;
  /** The last call's worker could not start: no spare is booted after it (it would likely fail too). */
  private startFailed = false;
  /** Moves on at each dispose, so a call that ends after it does not boot a new spare. */
  private generation = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly oneCall: boolean;
  private readonly spares: number;

  constructor(private readonly options: WorkerHostOptions) {
    this.oneCall = options.oneCallPerWorker === true;
    this.spares = this.oneCall ? Math.max(1, Math.floor(options.spares ?? 1)) : 1;
  }

  call<Name extends keyof M & string>(name: Name, request: M[Name]['request'], callOptions: CallOptions): Promise<CallOutcome<M[Name]['response']>> {
    const previous = this.queue;
    const startedIn = this.generation;
    this.calls += 1;
    const result = settledOrAborted(previous.catch(() => undefined), callOptions.signal)
      .then((aborted) => (aborted ? { kind: 'aborted' as const, durationMs: 0, startupMs: 0 } : this.execute(name, request, callOptions)))
      .finally(() => {
        this.calls -= 1;
        // Spares boot once the calls are done, not during them.
        if (this.generation === startedIn) this.refill();
      });
    // The next call waits for this one and for everything queued before it.
    this.queue = Promise.allSettled([previous, result]);
    return result as Promise<CallOutcome<M[Name]['response']>>;
  }

  async warmUp(): Promise<void> {
    await this.boot().ready;
  }

  async dispose(): Promise<void> {
    this.generation++;
    const targets = new Set([...this.idle, this.busy]);
    this.idle = [];
    this.busy = null;
    for (const target of targets) await target?.dispose();
  }

  /** A worker for the next call: the warm one or the first spare, booting one if there is none. */
  private boot(): HostedWorker {
    this.idle = this.idle.filter((worker) => !worker.stopped);
    if (this.idle.length === 0) this.spawn();
    return this.idle[0]!;
  }

  /** More spares in the background, one at a time (the next once the last has loaded), and only
   * while no call runs or waits, so a boot never takes CPU from code under its time limit. */
  private refill(): void {
    this.idle = this.idle.filter((worker) => !worker.stopped);
    if (!this.oneCall || this.calls > 0 || this.startFailed || this.idle.length >= this.spares || !this.idle.every((worker) => worker.loaded)) return;
    this.spawn();
  }

  private spawn(): void {
    const worker = new HostedWorker(this.options);
    this.idle.push(worker);
    const bootedIn = this.generation;
    // Once loaded, the next spare (refill checks the rest); a worker that could not load boots no other.
    worker.ready.then(
      () => {
        if (this.generation === bootedIn) this.refill();
      },
      () => undefined,
    );
  }

  private async execute(name: string, request: unknown, callOptions: CallOptions): Promise<CallOutcome<unknown>> {
    const { signal } = callOptions;
    if (signal?.aborted) return { kind: 'aborted', durationMs: 0, startupMs: 0 };
    const target = this.boot();
    if (this.oneCall) this.idle = this.idle.filter((worker) => worker !== target);
    this.busy = target;
    this.startFailed = false;
    const waitedFrom = performance.now();
    const startupMs = () => Math.round(performance.now() - waitedFrom);
    try {
      try {
        if (await settledOrAborted(target.ready, signal)) return { kind: 'aborted', durationMs: 0, startupMs: startupMs() };
      } catch (error) {
        this.startFailed = true;
        this.idle = this.idle.filter((worker) => worker !== target);
        await target.terminate();
        return { kind: 'not-started', reason: messageOf(error), durationMs: 0, startupMs: startupMs() };
      }
      const waited = startupMs();
      const outcome = await target.call(name, request, callOptions);
      return { ...outcome, startupMs: waited };
    } finally {
      if (this.oneCall) void target.terminate();
      if (this.busy === target) this.busy = null;
    }
  }
}
