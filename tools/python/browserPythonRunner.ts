// Browser host of the Python sandbox: runs Pyodide in its own module worker (python.worker.ts)
// so a time limit can really stop runaway code. Works from a page and from another worker.
import { isWorkerToHostMessage, type RunRequest, type SandboxInitMessage } from './protocol.ts';
import type { PythonRunOptions, PythonRunResult, PythonRunner } from '../../workers/engine/ports.ts';
import { DEFAULT_MAX_OUTPUT_BYTES, type SessionRunResult } from './types.ts';
import { settledOrAborted } from '../../workers/engine/abort.ts';

export interface BrowserPythonRunnerOptions {
  /** Cap per stream (stdout, stderr), in UTF-8 bytes. */
  maxOutputBytes?: number;
  /** How long Pyodide may take to load before runs report that Python could not start. */
  startTimeoutMs?: number;
}

export type WarmUpResult = { ready: true } | { ready: false; error: string };

export interface BrowserPythonRunner extends PythonRunner {
  /** Starts Pyodide now so the first run need not wait for it; never rejects. */
  warmUp(): Promise<WarmUpResult>;
}

const DEFAULT_START_TIMEOUT_MS = 60_000;
/** How long interrupted code gets to unwind before its worker is terminated. */
export const INTERRUPT_GRACE_MS = 500;
const SIGINT = 2;

type Outcome =
  | { kind: 'result'; result: SessionRunResult }
  | { kind: 'timeout' | 'aborted'; partial?: SessionRunResult }
  | { kind: 'crash'; message: string };

interface CurrentRun {
  id: number;
  onResult(result: SessionRunResult): void;
  onCrash(message: string): void;
  onDispose(): void;
}

class SandboxWorker {
  private readonly worker = new Worker(new URL('./python.worker.ts', import.meta.url), {
    type: 'module',
    name: 'python-sandbox',
  });
  /** Shared with the worker where the page is cross-origin isolated; SIGINT written here interrupts Python. */
  private readonly interrupt: Int32Array | null;
  private current: CurrentRun | null = null;
  private nextId = 1;
  /** Resolves once Pyodide has loaded; rejects with the reason it could not. */
  readonly ready: Promise<void>;
  stopped = false;

  constructor(startTimeoutMs: number) {
    const sharedMemory = globalThis.crossOriginIsolated === true ? new SharedArrayBuffer(4) : null;
    this.interrupt = sharedMemory ? new Int32Array(sharedMemory) : null;
    this.ready = new Promise<void>((resolve, reject) => {
      const fail = (reason: string) => {
        this.terminate();
        reject(new Error(reason));
        this.current?.onCrash(`Python worker stopped: ${reason}`);
      };
      const startTimer = setTimeout(
        () => fail(`Pyodide did not load within ${Math.round(startTimeoutMs / 1000)} s`),
        startTimeoutMs,
      );
      this.worker.addEventListener('message', (event: MessageEvent<unknown>) => {
        const message = event.data;
        if (!isWorkerToHostMessage(message)) return;
        if (message.type === 'ready') {
          clearTimeout(startTimer);
          resolve();
        } else if (message.type === 'load-failed') {
          clearTimeout(startTimer);
          fail(`Pyodide failed to load: ${message.error}`);
        } else if (message.id === this.current?.id) {
          // A worker takes one run: it closes itself after answering, and is ended here as well.
          this.terminate();
          this.current.onResult(message.result);
        }
      });
      this.worker.addEventListener('error', (event: ErrorEvent) => {
        // Handled here: the page should not also report it as uncaught.
        event.preventDefault();
        clearTimeout(startTimer);
        fail(event.message || 'the worker script could not be loaded');
      });
      this.worker.addEventListener('messageerror', () => fail('a message from the worker could not be read'));
    });
    // Nobody may be waiting when a worker fails to load.
    this.ready.catch(() => undefined);
    const init: SandboxInitMessage = { type: 'init', interruptBuffer: sharedMemory };
    this.worker.postMessage(init);
  }

  run(code: string, maxOutputBytes: number, timeoutMs: number, signal?: AbortSignal): Promise<PythonRunResult> {
    const id = this.nextId++;
    const startedAt = performance.now();
    return new Promise<PythonRunResult>((resolve) => {
      let stopping: 'timeout' | 'aborted' | null = null;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const settle = (outcome: Outcome) => {
        if (this.current?.id !== id) return;
        this.current = null;
        clearTimeout(deadline);
        clearTimeout(graceTimer);
        signal?.removeEventListener('abort', onAbort);
        resolve(toRunResult(outcome, performance.now() - startedAt));
      };
      // Interrupt gracefully where shared memory allows (the worker stays warm), else terminate.
      const stop = (kind: 'timeout' | 'aborted') => {
        if (stopping) return;
        stopping = kind;
        clearTimeout(deadline);
        if (this.interrupt) {
          Atomics.store(this.interrupt, 0, SIGINT);
          graceTimer = setTimeout(() => {
            this.terminate();
            settle({ kind });
          }, INTERRUPT_GRACE_MS);
        } else {
          this.terminate();
          settle({ kind });
        }
      };
      const onAbort = () => stop('aborted');
      const deadline = setTimeout(() => stop('timeout'), timeoutMs);
      this.current = {
        id,
        onResult: (result) => settle(stopping ? { kind: stopping, partial: result } : { kind: 'result', result }),
        onCrash: (message) => settle(stopping ? { kind: stopping } : { kind: 'crash', message }),
        onDispose: () => settle({ kind: 'aborted' }),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const request: RunRequest = { type: 'run', id, code, maxOutputBytes };
      this.worker.postMessage(request);
    });
  }

  /** Ends the worker now; the run in progress, if any, reports as aborted. */
  dispose(): void {
    this.terminate();
    this.current?.onDispose();
  }

  terminate(): void {
    this.stopped = true;
    this.worker.terminate();
  }
}

function toRunResult(outcome: Outcome, elapsedMs: number): PythonRunResult {
  switch (outcome.kind) {
    case 'result':
      return { ...outcome.result, timedOut: false, aborted: false };
    case 'crash':
      return { ...emptyResult(elapsedMs), error: outcome.message };
    case 'timeout':
    case 'aborted': {
      // Output printed before the stop is kept; the KeyboardInterrupt it ended with is not an error.
      const partial = outcome.partial;
      const kept = partial ? { stdout: partial.stdout, stderr: partial.stderr, truncated: partial.truncated } : {};
      return { ...emptyResult(elapsedMs), ...kept, timedOut: outcome.kind === 'timeout', aborted: outcome.kind === 'aborted' };
    }
  }
}

function emptyResult(durationMs: number): PythonRunResult {
  return { stdout: '', stderr: '', error: null, timedOut: false, aborted: false, durationMs, truncated: false };
}


function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A Python runner backed by Pyodide in module workers, one fresh worker per run: whatever a run
 * leaves behind (a timer, a callback, a changed module, a bloated heap) ends with its worker, so
 * nothing it plants reads or changes a later run. Booting Pyodide takes seconds, so a spare worker
 * boots in the background (at warmUp, and again after each run) and the next run finds it ready.
 * A timeout or abort interrupts the code where the page is cross-origin isolated (its output so far
 * is kept) and terminates the worker if that does not stop it in time (or at once elsewhere). Runs
 * queue and execute one at a time; the time limit counts from the moment a run starts executing.
 */
export function createBrowserPythonRunner(options: BrowserPythonRunnerOptions = {}): BrowserPythonRunner {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  /** Booting or booted, and never given code yet. */
  let spare: SandboxWorker | null = null;
  /** The worker running code now, if any. */
  let busy: SandboxWorker | null = null;
  /** Moves on at each dispose, so a run that ends after it does not start a new spare. */
  let generation = 0;
  let queue: Promise<unknown> = Promise.resolve();

  function bootSpare(): SandboxWorker {
    if (!spare || spare.stopped) spare = new SandboxWorker(startTimeoutMs);
    return spare;
  }

  function takeWorker(): SandboxWorker {
    const worker = bootSpare();
    spare = null;
    return worker;
  }

  async function execute(code: string, { timeoutMs, signal }: PythonRunOptions): Promise<PythonRunResult> {
    if (signal?.aborted) return { ...emptyResult(0), aborted: true };
    const startedIn = generation;
    const target = takeWorker();
    busy = target;
    const waitedFrom = performance.now();
    const startupMs = () => Math.round(performance.now() - waitedFrom);
    try {
      try {
        if (await settledOrAborted(target.ready, signal)) return { ...emptyResult(0), aborted: true, startupMs: startupMs() };
      } catch (error) {
        return { ...emptyResult(0), error: `Python could not start: ${describe(error)}`, startupMs: startupMs() };
      }
      const waited = startupMs();
      const result = await target.run(code, maxOutputBytes, timeoutMs, signal);
      // Booted after the run, not during it, so the boot never competes with the code for CPU.
      // Not after a failed start: a worker that could not load would likely fail again.
      if (generation === startedIn) bootSpare();
      return { ...result, startupMs: waited };
    } finally {
      target.terminate();
      if (busy === target) busy = null;
    }
  }

  return {
    run(code, runOptions) {
      if (!(runOptions.timeoutMs > 0)) {
        return Promise.reject(new RangeError(`timeoutMs must be positive, got ${runOptions.timeoutMs}`));
      }
      const previous = queue;
      const result = settledOrAborted(previous.catch(() => undefined), runOptions.signal).then((aborted) =>
        aborted ? { ...emptyResult(0), aborted: true } : execute(code, runOptions),
      );
      // The next run waits for this one and for everything queued before it.
      queue = Promise.allSettled([previous, result]);
      return result;
    },
    async warmUp() {
      try {
        await bootSpare().ready;
        return { ready: true };
      } catch (error) {
        return { ready: false, error: `Python could not start: ${describe(error)}` };
      }
    },
    async dispose() {
      generation++;
      const targets = [spare, busy];
      spare = null;
      busy = null;
      for (const target of targets) target?.dispose();
    },
  };
}
