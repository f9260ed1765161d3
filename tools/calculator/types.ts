import type { Calculation } from './calculator.ts';

/** Evaluates calculator expressions away from the caller's thread, with a hard deadline: mathjs
 * runs synchronously and cannot be interrupted, so a call past its deadline ends its worker. */
export interface CalculatorRunner {
  calculate(expression: string, options: CalculateOptions): Promise<CalculatorRunResult>;
  /** Stops the worker; a later call starts a fresh one. */
  dispose(): void;
}

export interface CalculateOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface CalculatorRunResult {
  /** The result, or null when there is none (then `error` or a stop says why). */
  calculation: Calculation | null;
  /** Why the expression was refused or failed, in words for the model, or null. */
  error: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/** How long one expression may take: every expression within the caps takes well under a second
 * (docs/benchmarks.md); past this its worker is ended. */
export const CALCULATOR_TIMEOUT_MS = 10_000;
