// Node-only host: runs Pyodide in a worker thread so a time limit can really stop runaway code.
import { Worker } from 'node:worker_threads';
import { isWorkerToHostMessage, type RunRequest } from './protocol.ts';
import type { PythonRunOptions, PythonRunResult, PythonRunner } from '../../workers/engine/ports.ts';
import { DEFAULT_MAX_OUTPUT_BYTES, type SessionRunResult } from './types.ts';
import { settledOrAborted } from '../../workers/engine/abort.ts';

export interface NodePythonRunnerOptions {
  /** Cap per stream (stdout, stderr), in UTF-8 bytes. */
  maxOutputBytes?: number;
}

const WORKER_URL = new URL('./nodePyodideWorkerEntry.mjs', import.meta.url);

type Outcome =
  | { kind: 'result'; result: SessionRunResult }
  | { kind: 'timeout' | 'aborted' }
  | { kind: 'crash'; message: string };

interface CurrentRun {
  id: number;
  settle(outcome: Outcome): void;
}

class PyodideWorker {
  // An empty environment: the CLI's API keys live in its own, and never reach the code's thread.
  private readonly worker = new Worker(WORKER_URL, { env: {} });
  private current: CurrentRun | null = null;
  private nextId = 1;
  /** Resolves once Pyodide has loaded; rejects if it cannot load. */
  readonly ready: Promise<void>;
  stopped = false;

  constructor() {
    // An idle warm worker must not keep the Node process alive.
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: unknown) => {
        if (!isWorkerToHostMessage(message)) return;
        if (message.type === 'ready') resolve();
        else if (message.type === 'load-failed') reject(new Error(`Pyodide failed to load: ${message.error}`));
        else if (message.id === this.current?.id) {
          // Stop first, so a run queued behind this one goes to a fresh worker.
          if (message.fatal) this.stop();
          this.current.settle({ kind: 'result', result: message.result });
        }
      });
      this.worker.on('error', (error) => {
        this.stopped = true;
        reject(error);
        this.current?.settle({ kind: 'crash', message: `Python worker failed: ${error.message}` });
      });
      this.worker.on('exit', (code) => {
        this.stopped = true;
        reject(new Error(`Python worker exited with code ${code} before Pyodide loaded`));
        this.current?.settle({ kind: 'crash', message: `Python worker stopped unexpectedly (exit code ${code})` });
      });
    });
    // Nobody may be waiting when a worker stopped during loading fails to load.
    this.ready.catch(() => undefined);
  }

  run(code: string, maxOutputBytes: number, timeoutMs: number, signal?: AbortSignal): Promise<PythonRunResult> {
    const id = this.nextId++;
    const startedAt = performance.now();
    return new Promise<PythonRunResult>((resolve) => {
      const settle = (outcome: Outcome) => {
        if (this.current?.id !== id) return;
        this.current = null;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome.kind === 'timeout' || outcome.kind === 'aborted') this.stop();
        resolve(toRunResult(outcome, performance.now() - startedAt));
      };
      const onAbort = () => settle({ kind: 'aborted' });
      const timer = setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
      this.current = { id, settle };
      signal?.addEventListener('abort', onAbort, { once: true });
      const request: RunRequest = { type: 'run', id, code, maxOutputBytes };
      this.worker.postMessage(request);
    });
  }

  /** Ends the worker now; the run in progress, if any, reports as aborted. */
  async dispose(): Promise<void> {
    this.current?.settle({ kind: 'aborted' });
    this.stopped = true;
    await this.worker.terminate();
  }

  private stop(): void {
    this.stopped = true;
    void this.worker.terminate();
  }
}

function toRunResult(outcome: Outcome, elapsedMs: number): PythonRunResult {
  switch (outcome.kind) {
    case 'result':
      return { ...outcome.result, timedOut: false, aborted: false };
    case 'crash':
      return { ...emptyResult(elapsedMs), error: outcome.message };
    case 'timeout':
      return { ...emptyResult(elapsedMs), timedOut: true };
    case 'aborted':
      return { ...emptyResult(elapsedMs), aborted: true };
  }
}

function emptyResult(durationMs: number): PythonRunResult {
  return { stdout: '', stderr: '', error: null, timedOut: false, aborted: false, durationMs, truncated: false };
}


/**
 * A Python runner backed by Pyodide in a worker thread. The worker starts on the first run and
 * stays warm; a timeout or abort terminates it and the next run starts a fresh one. Runs queue
 * and execute one at a time; the time limit counts from the moment a run starts executing.
 */
export function createNodePythonRunner(options: NodePythonRunnerOptions = {}): PythonRunner {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  let worker: PyodideWorker | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function execute(code: string, { timeoutMs, signal }: PythonRunOptions): Promise<PythonRunResult> {
    if (signal?.aborted) return { ...emptyResult(0), aborted: true };
    if (!worker || worker.stopped) worker = new PyodideWorker();
    const target = worker;
    const waitedFrom = performance.now();
    const startupMs = () => Math.round(performance.now() - waitedFrom);
    try {
      if (await settledOrAborted(target.ready, signal)) return { ...emptyResult(0), aborted: true, startupMs: startupMs() };
    } catch (error) {
      if (worker === target) worker = null;
      await target.dispose();
      throw error;
    }
    const waited = startupMs();
    return { ...(await target.run(code, maxOutputBytes, timeoutMs, signal)), startupMs: waited };
  }

  return {
    run(code, runOptions) {
      if (!(runOptions.timeoutMs > 0)) {
        return Promise.reject(new RangeError(`timeoutMs must be positive, got ${runOptions.timeoutMs}`));
      }
      const previous = queue;
      const result = settledOrAborted(previous.catch(() => undefined), runOptions.signal).then(() =>
        execute(code, runOptions),
      );
      // The next run waits for this one and for everything queued before it.
      queue = Promise.allSettled([previous, result]);
      return result;
    },
    async dispose() {
      const target = worker;
      worker = null;
      await target?.dispose();
    },
  };
}
