// The calculator's port is the engine's (workers/engine/ports.ts), as Python's and JavaScript's are;
// the hosts import it from here.
export type { CalculateOptions, CalculatorRunner, CalculatorRunResult } from '../../workers/engine/ports.ts';

/** How long one expression may take: every expression within the caps takes well under a second
 * (docs/benchmarks.md); past this its worker is ended. */
export const CALCULATOR_TIMEOUT_MS = 10_000;
