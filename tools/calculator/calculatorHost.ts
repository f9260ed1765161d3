// The calculator's runner, for both environments, on the sandboxes' worker host
// (tools/sandbox/): mathjs in a warm worker that takes one expression at a time and is ended
// when an expression outlives its deadline (mathjs cannot be interrupted) or its call is aborted;
// the next call starts a fresh one. The caller's thread never runs mathjs, so a Stop or a deadline
// costs a calculator worker and nothing else — in the browser, never the orchestrator worker and
// the keys it holds. browserCalculatorRunner.ts and nodeCalculatorRunner.ts say how to start it.

import { formatSeconds } from '../../workers/engine/format.ts';
import { createWorkerHost, type CallOutcome, type StartWorker } from '../sandbox/workerHost.ts';
import type { CalculationOutcome, CalculatorCalls } from './workerMessages.ts';
import type { CalculatorRunResult, CalculatorRunner } from './types.ts';

const DEFAULT_START_TIMEOUT_MS = 30_000;

export interface CalculatorRunnerOptions {
  /** How long mathjs may take to load before calls report that the calculator could not start. */
  startTimeoutMs?: number;
}

function toRunResult(outcome: CallOutcome<CalculationOutcome>, timeoutMs: number): CalculatorRunResult {
  const empty: CalculatorRunResult = { calculation: null, error: null, timedOut: false, aborted: false, durationMs: outcome.durationMs };
  switch (outcome.kind) {
    case 'answer':
      return 'calculation' in outcome.response ? { ...empty, calculation: outcome.response.calculation } : { ...empty, error: outcome.response.error };
    case 'timeout':
      return { ...empty, timedOut: true, error: `it ran longer than ${formatSeconds(timeoutMs)}, so it was stopped; work it out in smaller steps` };
    case 'aborted':
      return { ...empty, aborted: true };
    case 'crash':
      return { ...empty, error: `the calculator stopped: ${outcome.reason}` };
    case 'not-started':
      return { ...empty, error: `the calculator could not start: ${outcome.reason}` };
  }
}

/** A calculator runner over workers `start` creates: one at a time, started on the first call and
 * kept warm; calls queue, and each one's deadline counts from the moment it starts executing. */
export function createCalculatorRunner(start: StartWorker, options: CalculatorRunnerOptions = {}): CalculatorRunner {
  const host = createWorkerHost<CalculatorCalls>({ start, runtime: 'mathjs', startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS });
  return {
    async calculate(expression, { timeoutMs, signal }) {
      if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
      return toRunResult(await host.call('calculate', { expression }, { deadlineMs: timeoutMs, ...(signal ? { signal } : {}) }), timeoutMs);
    },
    dispose() {
      void host.dispose();
    },
  };
}
