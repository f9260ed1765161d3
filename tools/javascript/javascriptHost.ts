// The JavaScript sandbox's runner, for both environments, on the sandboxes' worker host
// (tools/sandbox/): QuickJS in a warm worker. QuickJS stops runaway code itself at the deadline;
// if the worker still has not answered a grace period later (code stuck in one long native call),
// it is ended and the next run gets a fresh one. browserJavaScriptRunner.ts and
// nodeJavaScriptRunner.ts say how to start the worker.
import { formatSeconds } from '../../workers/engine/format.ts';
import { createWorkerHost, type CallOutcome, type StartWorker } from '../sandbox/workerHost.ts';
import type { JavaScriptCalls } from './workerMessages.ts';
import { DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_MAX_RESULT_CHARS, DEFAULT_MAX_STACK_BYTES, DEFAULT_MEMORY_BYTES, type SandboxLimits, type SandboxRunResult } from './types.ts';
import { type JavaScriptRunner, type JsRunOptions, type JsRunResult } from '../../workers/engine/ports.ts';

export interface JavaScriptRunnerOptions {
  /** Cap on captured console output, in characters. */
  maxOutputChars?: number;
  /** Cap on the result's JSON text, in characters. */
  maxResultChars?: number;
  maxStackBytes?: number;
  /** How long past its deadline a run may take to answer before its worker is terminated. */
  backstopGraceMs?: number;
  /** How long the worker may take to load QuickJS before runs report that it could not start. */
  startTimeoutMs?: number;
}

export const DEFAULT_BACKSTOP_GRACE_MS = 1_000;
const DEFAULT_START_TIMEOUT_MS = 30_000;
const MIN_MEMORY_BYTES = 1024 * 1024;
const MAX_MEMORY_BYTES = 1024 * 1024 * 1024;

function toRunResult(outcome: CallOutcome<SandboxRunResult>, limits: SandboxLimits): JsRunResult {
  const empty = emptyResult(outcome.durationMs);
  switch (outcome.kind) {
    case 'answer': {
      const { crashed: _crashed, ...result } = outcome.response;
      return { ...result, aborted: false };
    }
    case 'crash':
      return { ...empty, error: `The JavaScript sandbox stopped: ${outcome.reason}` };
    case 'not-started':
      return { ...empty, error: outcome.reason };
    case 'timeout':
      return {
        ...empty,
        timedOut: true,
        error:
          `Stopped: the code ran longer than ${formatSeconds(limits.timeoutMs)} inside a single operation that ` +
          'could not be interrupted, so the sandbox was restarted; its console output was lost.',
      };
    case 'aborted':
      return { ...empty, aborted: true };
  }
}

function emptyResult(durationMs: number): JsRunResult {
  return { value: undefined, logs: '', error: null, timedOut: false, aborted: false, durationMs, truncated: false };
}

function checkOptions(options: JsRunOptions): string | null {
  if (!(options.timeoutMs > 0)) return `timeoutMs must be positive, got ${options.timeoutMs}`;
  const memory = options.memoryBytes;
  if (memory !== undefined && !(memory >= MIN_MEMORY_BYTES && memory <= MAX_MEMORY_BYTES)) {
    return `memoryBytes must be between ${MIN_MEMORY_BYTES} and ${MAX_MEMORY_BYTES}, got ${memory}`;
  }
  return null;
}

/** The input as JSON text, or an error in words when it is not JSON data. */
function encodeInput(input: unknown): { inputJson?: string } | { error: string } {
  if (input === undefined) return {};
  try {
    const inputJson = JSON.stringify(input);
    if (inputJson === undefined) return { error: 'The input is not JSON data.' };
    return { inputJson };
  } catch (error) {
    return { error: `The input is not JSON data: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * A JavaScript runner over workers `start` creates. The worker starts on the first run and stays
 * warm; a run that must be cut off (abort, a stuck native call) ends it and the next run starts a
 * fresh one. Runs queue and execute one at a time; the time limit counts from the moment a run
 * starts executing. Every run gets a fresh QuickJS instance: nothing carries over.
 */
export function createJavaScriptRunner(start: StartWorker, options: JavaScriptRunnerOptions = {}): JavaScriptRunner {
  const backstopGraceMs = options.backstopGraceMs ?? DEFAULT_BACKSTOP_GRACE_MS;
  const host = createWorkerHost<JavaScriptCalls>({ start, runtime: 'QuickJS', startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS });

  return {
    async run(code, runOptions) {
      const problem = checkOptions(runOptions);
      if (problem) throw new RangeError(problem);
      const { signal, timeoutMs } = runOptions;
      if (signal?.aborted) return { ...emptyResult(0), aborted: true };
      const input = encodeInput(runOptions.input);
      if ('error' in input) return { ...emptyResult(0), error: input.error };
      const limits: SandboxLimits = {
        timeoutMs,
        memoryBytes: runOptions.memoryBytes ?? DEFAULT_MEMORY_BYTES,
        maxStackBytes: options.maxStackBytes ?? DEFAULT_MAX_STACK_BYTES,
        maxOutputChars: options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
        maxResultChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
      };
      // QuickJS stops the code at timeoutMs itself; the host's deadline is the backstop.
      const outcome = await host.call('run', { code, limits, ...input }, { deadlineMs: timeoutMs + backstopGraceMs, ...(signal ? { signal } : {}) });
      return toRunResult(outcome, limits);
    },
    dispose() {
      void host.dispose();
    },
  };
}
