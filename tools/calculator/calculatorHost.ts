// The host side of the calculator sandbox, for both environments: a worker that loads mathjs, takes
// one expression at a time and is ended when an expression outlives its deadline (mathjs cannot be
// interrupted) or its call is aborted; the next call starts a fresh one. The caller's thread never
// runs mathjs, so a Stop or a deadline costs a calculator worker and nothing else — in the browser,
// never the orchestrator worker and the keys it holds. browserCalculatorRunner.ts and
// nodeCalculatorRunner.ts say how to start the worker.

import { formatSeconds } from '../../workers/engine/format.ts';
import { settledOrAborted } from '../../workers/engine/abort.ts';
import { isWorkerToHostMessage, messageOf, type CalculateRequest, type CalculationOutcome } from './protocol.ts';
import type { CalculateOptions, CalculatorRunResult, CalculatorRunner } from './types.ts';

/** What a host needs of a started worker. */
export interface WorkerHandle {
  post(message: CalculateRequest): void;
  terminate(): void;
}

/** What a worker reports to its host. */
export interface WorkerEvents {
  message(value: unknown): void;
  /** The worker died or could not start; `reason` in words. */
  failed(reason: string): void;
}

export type StartWorker = (events: WorkerEvents) => WorkerHandle;

const DEFAULT_START_TIMEOUT_MS = 30_000;

type Outcome = { kind: 'result'; outcome: CalculationOutcome } | { kind: 'timeout' | 'aborted' } | { kind: 'crash'; message: string };

class CalculatorWorker {
  private readonly handle: WorkerHandle;
  private current: { id: number; settle(outcome: Outcome): void } | null = null;
  private nextId = 1;
  /** Resolves once mathjs has loaded; rejects with the reason it could not. */
  readonly ready: Promise<void>;
  stopped = false;

  constructor(start: StartWorker, startTimeoutMs: number) {
    let onReady = () => {};
    let onFailure = (_reason: string) => {};
    this.ready = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onFailure = (reason) => reject(new Error(reason));
    });
    // Nobody may be waiting when a worker fails to load.
    this.ready.catch(() => undefined);
    const fail = (reason: string) => {
      clearTimeout(startTimer);
      this.terminate();
      onFailure(reason);
      this.current?.settle({ kind: 'crash', message: reason });
    };
    const startTimer = setTimeout(() => fail(`mathjs did not load within ${formatSeconds(startTimeoutMs)}`), startTimeoutMs);
    this.handle = start({
      message: (message) => {
        if (!isWorkerToHostMessage(message)) return;
        if (message.type === 'ready') {
          clearTimeout(startTimer);
          onReady();
        } else if (message.type === 'load-failed') fail(`mathjs could not be loaded: ${message.error}`);
        else if (message.id === this.current?.id) this.current.settle({ kind: 'result', outcome: message.outcome });
      },
      failed: fail,
    });
  }

  calculate(expression: string, timeoutMs: number, signal?: AbortSignal): Promise<CalculatorRunResult> {
    const id = this.nextId++;
    const startedAt = performance.now();
    return new Promise<CalculatorRunResult>((resolve) => {
      const settle = (outcome: Outcome) => {
        if (this.current?.id !== id) return;
        this.current = null;
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onAbort);
        if (outcome.kind !== 'result') this.terminate();
        resolve(toRunResult(outcome, timeoutMs, performance.now() - startedAt));
      };
      const onAbort = () => settle({ kind: 'aborted' });
      const deadline = setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
      this.current = { id, settle };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.handle.post({ type: 'calculate', id, expression });
    });
  }

  /** Ends the worker now; the call in progress, if any, reports as aborted. */
  dispose(): void {
    this.current?.settle({ kind: 'aborted' });
    this.terminate();
  }

  private terminate(): void {
    this.stopped = true;
    this.handle.terminate();
  }
}

function toRunResult(outcome: Outcome, timeoutMs: number, durationMs: number): CalculatorRunResult {
  const empty: CalculatorRunResult = { calculation: null, error: null, timedOut: false, aborted: false, durationMs };
  switch (outcome.kind) {
    case 'result':
      return 'calculation' in outcome.outcome ? { ...empty, calculation: outcome.outcome.calculation } : { ...empty, error: outcome.outcome.error };
    case 'timeout':
      return { ...empty, timedOut: true, error: `it ran longer than ${formatSeconds(timeoutMs)}, so it was stopped; work it out in smaller steps` };
    case 'aborted':
      return { ...empty, aborted: true };
    case 'crash':
      return { ...empty, error: `the calculator stopped: ${outcome.message}` };
  }
}

export interface CalculatorRunnerOptions {
  /** How long mathjs may take to load before calls report that the calculator could not start. */
  startTimeoutMs?: number;
}

/** A calculator runner over workers `start` creates: one at a time, started on the first call and
 * kept warm; calls queue, and each one's deadline counts from the moment it starts executing. */
export function createCalculatorRunner(start: StartWorker, options: CalculatorRunnerOptions = {}): CalculatorRunner {
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  let worker: CalculatorWorker | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const stoppedBeforeStart = (): CalculatorRunResult => ({ calculation: null, error: null, timedOut: false, aborted: true, durationMs: 0 });

  async function execute(expression: string, { timeoutMs, signal }: CalculateOptions): Promise<CalculatorRunResult> {
    if (signal?.aborted) return stoppedBeforeStart();
    if (!worker || worker.stopped) worker = new CalculatorWorker(start, startTimeoutMs);
    const target = worker;
    try {
      if (await settledOrAborted(target.ready, signal)) return stoppedBeforeStart();
    } catch (error) {
      if (worker === target) worker = null;
      return { ...stoppedBeforeStart(), aborted: false, error: `the calculator could not start: ${messageOf(error)}` };
    }
    return target.calculate(expression, timeoutMs, signal);
  }

  return {
    calculate(expression, runOptions) {
      if (!(runOptions.timeoutMs > 0)) return Promise.reject(new RangeError(`timeoutMs must be positive, got ${runOptions.timeoutMs}`));
      const previous = queue;
      const result = settledOrAborted(previous.catch(() => undefined), runOptions.signal).then((aborted) =>
        aborted ? stoppedBeforeStart() : execute(expression, runOptions),
      );
      // The next call waits for this one and for everything queued before it.
      queue = Promise.allSettled([previous, result]);
      return result;
    },
    dispose() {
      const target = worker;
      worker = null;
      target?.dispose();
    },
  };
}
