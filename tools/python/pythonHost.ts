// The Python sandbox's runner, for both environments, on the sandboxes' worker host
// (tools/sandbox/): Pyodide in a worker, so a time limit can really stop runaway code.
// browserPythonRunner.ts and nodePythonRunner.ts say how to start the worker; both give every run
// a worker of its own.
import type { PythonRunOptions, PythonRunResult, PythonRunner } from '../../workers/engine/ports.ts';
import { createWorkerHost, type CallOutcome, type StartWorker } from '../sandbox/workerHost.ts';
import type { PythonCalls, SandboxInitMessage } from './workerMessages.ts';
import { DEFAULT_MAX_OUTPUT_BYTES, type SessionRunResult } from './types.ts';

export interface PythonRunnerOptions {
  /** Cap per stream (stdout, stderr), in UTF-8 bytes. */
  maxOutputBytes?: number;
  /** How long Pyodide may take to load before runs report that Python could not start; no limit when omitted. */
  startTimeoutMs?: number;
  /** With one run per worker: how many spare interpreters to keep booted (default 1), so runs
   * asked for back to back (rollouts run at once) each find one ready. Each holds a whole Pyodide. */
  spares?: number;
}

export type WarmUpResult = { ready: true } | { ready: false; error: string };

export interface WarmablePythonRunner extends PythonRunner {
  /** Starts Pyodide now so the first run need not wait for it; never rejects. */
  warmUp(): Promise<WarmUpResult>;
}

/** How long interrupted code gets to unwind before its worker is terminated. */
export const INTERRUPT_GRACE_MS = 500;
const SIGINT = 2;

function toRunResult(outcome: CallOutcome<SessionRunResult>): PythonRunResult {
  const empty: PythonRunResult = { ...emptyResult(outcome.durationMs), startupMs: outcome.startupMs };
  switch (outcome.kind) {
    case 'answer':
      return { ...outcome.response, timedOut: false, aborted: false, startupMs: outcome.startupMs };
    case 'crash':
      return { ...empty, error: `Python worker stopped: ${outcome.reason}` };
    case 'not-started':
      return { ...empty, error: `Python could not start: ${outcome.reason}` };
    case 'timeout':
    case 'aborted': {
      // Output printed before the stop is kept; the KeyboardInterrupt it ended with is not an error.
      const partial = outcome.partial;
      const kept = partial ? { stdout: partial.stdout, stderr: partial.stderr, truncated: partial.truncated } : {};
      return { ...empty, ...kept, timedOut: outcome.kind === 'timeout', aborted: outcome.kind === 'aborted' };
    }
  }
}

function emptyResult(durationMs: number): PythonRunResult {
  return { stdout: '', stderr: '', error: null, timedOut: false, aborted: false, durationMs, truncated: false };
}

/** Hands each worker shared memory to interrupt its code through, where there is any (a
 * cross-origin isolated page); returns how to interrupt it. */
function setUpInterrupt(post: (message: unknown) => void): (() => void) | null {
  const sharedMemory = globalThis.crossOriginIsolated === true ? new SharedArrayBuffer(4) : null;
  const init: SandboxInitMessage = { type: 'init', interruptBuffer: sharedMemory };
  post(init);
  if (!sharedMemory) return null;
  const interrupt = new Int32Array(sharedMemory);
  return () => Atomics.store(interrupt, 0, SIGINT);
}

/**
 * A Python runner over workers `start` creates. Each run gets a fresh worker: whatever a run leaves
 * behind (a timer, a callback, a changed module, a builtin, a file, a bloated heap) ends with its
 * worker, so nothing it plants reads or changes a later run; booting Pyodide takes seconds, so
 * spare workers boot in the background (at warmUp, and again once the runs are done) and the next
 * run finds one ready. A timeout or abort interrupts the code where shared memory allows (its
 * output so far is kept) and ends the worker if that does not stop it in time (or at once
 * elsewhere). Runs queue and execute one at a time; the time limit counts from the moment a run
 * starts executing.
 */
export function createPythonRunner(start: StartWorker, options: PythonRunnerOptions): WarmablePythonRunner {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const host = createWorkerHost<PythonCalls>({
    start,
    runtime: 'Pyodide',
    ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    oneCallPerWorker: true,
    ...(options.spares === undefined ? {} : { spares: options.spares }),
    setUp: setUpInterrupt,
  });

  return {
    async run(code, { timeoutMs, signal }: PythonRunOptions) {
      if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
      const outcome = await host.call('run', { code, maxOutputBytes }, { deadlineMs: timeoutMs, graceMs: INTERRUPT_GRACE_MS, ...(signal ? { signal } : {}) });
      return toRunResult(outcome);
    },
    async warmUp() {
      try {
        await host.warmUp();
        return { ready: true };
      } catch (error) {
        return { ready: false, error: `Python could not start: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
    dispose: () => host.dispose(),
  };
}
