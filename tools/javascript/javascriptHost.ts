// Browser host of the JavaScript sandbox: QuickJS in its own module worker (javascript.worker.ts).
// QuickJS stops runaway code itself at the deadline; if the worker still has not answered a grace
// period later (code stuck in one long native call), it is terminated and the next run gets a
// fresh one. Works from a page and from another worker.
import { formatSeconds } from '../../workers/engine/format.ts';
import { isWorkerToHostMessage, type RunRequest } from './protocol.ts';
import {
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_MAX_STACK_BYTES,
  DEFAULT_MEMORY_BYTES,
  type JavaScriptRunner,
  type JsRunOptions,
  type JsRunResult,
  type SandboxLimits,
  type SandboxRunResult,
} from './types.ts';
import { settledOrAborted } from '../../workers/engine/abort.ts';

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

type Outcome =
  | { kind: 'result'; result: SandboxRunResult }
  | { kind: 'backstop' | 'aborted' }
  | { kind: 'crash'; message: string };

interface CurrentRun {
  id: number;
  settle(outcome: Outcome): void;
}

class SandboxWorker {
  private readonly worker = new Worker(new URL('./javascript.worker.ts', import.meta.url), {
    type: 'module',
    name: 'javascript-sandbox',
  });
  private current: CurrentRun | null = null;
  private nextId = 1;
  /** Resolves once QuickJS has loaded; rejects with the reason it could not. */
  readonly ready: Promise<void>;
  stopped = false;

  constructor(startTimeoutMs: number) {
    this.ready = new Promise<void>((resolve, reject) => {
      const fail = (reason: string) => {
        clearTimeout(startTimer);
        this.terminate();
        reject(new Error(reason));
        this.current?.settle({ kind: 'crash', message: `The JavaScript sandbox stopped: ${reason}` });
      };
      const startTimer = setTimeout(
        () => fail(`QuickJS did not load within ${formatSeconds(startTimeoutMs)}`),
        startTimeoutMs,
      );
      this.worker.addEventListener('message', (event: MessageEvent<unknown>) => {
        const message = event.data;
        if (!isWorkerToHostMessage(message)) return;
        if (message.type === 'ready') {
          clearTimeout(startTimer);
          resolve();
        } else if (message.type === 'load-failed') {
          fail(`QuickJS failed to load: ${message.error}`);
        } else if (message.id === this.current?.id) {
          this.current.settle({ kind: 'result', result: message.result });
        }
      });
      this.worker.addEventListener('error', (event: ErrorEvent) => {
        // Handled here: the page should not also report it as uncaught.
        event.preventDefault();
        fail(event.message || 'the worker script could not be loaded');
      });
      this.worker.addEventListener('messageerror', () => fail('a message from the worker could not be read'));
    });
    // Nobody may be waiting when a worker fails to load.
    this.ready.catch(() => undefined);
  }

  run(request: Omit<RunRequest, 'type' | 'id'>, backstopMs: number, signal?: AbortSignal): Promise<JsRunResult> {
    const id = this.nextId++;
    const startedAt = performance.now();
    return new Promise<JsRunResult>((resolve) => {
      const settle = (outcome: Outcome) => {
        if (this.current?.id !== id) return;
        this.current = null;
        clearTimeout(backstop);
        signal?.removeEventListener('abort', onAbort);
        if (outcome.kind !== 'result') this.terminate();
        resolve(toRunResult(outcome, request.limits, performance.now() - startedAt));
      };
      const onAbort = () => settle({ kind: 'aborted' });
      const backstop = setTimeout(() => settle({ kind: 'backstop' }), backstopMs);
      this.current = { id, settle };
      signal?.addEventListener('abort', onAbort, { once: true });
      const message: RunRequest = { type: 'run', id, ...request };
      this.worker.postMessage(message);
    });
  }

  /** Ends the worker now; the run in progress, if any, reports as aborted. */
  dispose(): void {
    this.current?.settle({ kind: 'aborted' });
    this.terminate();
  }

  private terminate(): void {
    this.stopped = true;
    this.worker.terminate();
  }
}

function toRunResult(outcome: Outcome, limits: SandboxLimits, elapsedMs: number): JsRunResult {
  switch (outcome.kind) {
    case 'result': {
      const { crashed: _crashed, ...result } = outcome.result;
      return { ...result, aborted: false };
    }
    case 'crash':
      return { ...emptyResult(elapsedMs), error: outcome.message };
    case 'backstop':
      return {
        ...emptyResult(elapsedMs),
        timedOut: true,
        error:
          `Stopped: the code ran longer than ${formatSeconds(limits.timeoutMs)} inside a single operation that ` +
          'could not be interrupted, so the sandbox was restarted; its console output was lost.',
      };
    case 'aborted':
      return { ...emptyResult(elapsedMs), aborted: true };
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
 * A JavaScript runner backed by QuickJS in a Web Worker. The worker starts on the first run and
 * stays warm; a run that must be cut off (abort, a stuck native call) terminates it and the next
 * run starts a fresh one. Runs queue and execute one at a time; the time limit counts from the
 * moment a run starts executing. Every run gets a fresh QuickJS instance: nothing carries over.
 */
export function createJavaScriptRunner(options: JavaScriptRunnerOptions = {}): JavaScriptRunner {
  const backstopGraceMs = options.backstopGraceMs ?? DEFAULT_BACKSTOP_GRACE_MS;
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  let worker: SandboxWorker | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function execute(code: string, runOptions: JsRunOptions): Promise<JsRunResult> {
    const { signal } = runOptions;
    if (signal?.aborted) return { ...emptyResult(0), aborted: true };
    const input = encodeInput(runOptions.input);
    if ('error' in input) return { ...emptyResult(0), error: input.error };
    if (!worker || worker.stopped) worker = new SandboxWorker(startTimeoutMs);
    const target = worker;
    try {
      if (await settledOrAborted(target.ready, signal)) return { ...emptyResult(0), aborted: true };
    } catch (error) {
      if (worker === target) worker = null;
      return { ...emptyResult(0), error: error instanceof Error ? error.message : String(error) };
    }
    const limits: SandboxLimits = {
      timeoutMs: runOptions.timeoutMs,
      memoryBytes: runOptions.memoryBytes ?? DEFAULT_MEMORY_BYTES,
      maxStackBytes: options.maxStackBytes ?? DEFAULT_MAX_STACK_BYTES,
      maxOutputChars: options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
      maxResultChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    };
    return target.run({ code, limits, ...input }, runOptions.timeoutMs + backstopGraceMs, signal);
  }

  return {
    run(code, runOptions) {
      const problem = checkOptions(runOptions);
      if (problem) return Promise.reject(new RangeError(problem));
      const previous = queue;
      const result = settledOrAborted(previous.catch(() => undefined), runOptions.signal).then((aborted) =>
        aborted ? { ...emptyResult(0), aborted: true } : execute(code, runOptions),
      );
      // The next run waits for this one and for everything queued before it.
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
