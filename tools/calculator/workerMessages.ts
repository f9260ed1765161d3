import { CalculatorError, type Calculation, type Calculator } from './calculator.ts';

// Messages between a calculator host and its worker (a Web Worker in the browser, a worker thread
// under Node); nothing here depends on either environment.

export interface CalculateRequest {
  type: 'calculate';
  id: number;
  expression: string;
}

export type CalculationOutcome = { calculation: Calculation } | { error: string };

export type WorkerToHostMessage =
  /** mathjs has loaded; the worker takes requests. */
  | { type: 'ready' }
  /** mathjs could not be loaded; the worker is useless. */
  | { type: 'load-failed'; error: string }
  | { type: 'result'; id: number; outcome: CalculationOutcome };

export function isCalculateRequest(value: unknown): value is CalculateRequest {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Partial<CalculateRequest>;
  return message.type === 'calculate' && typeof message.id === 'number' && typeof message.expression === 'string';
}

export function isWorkerToHostMessage(value: unknown): value is WorkerToHostMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'ready' || type === 'load-failed' || type === 'result';
}

/** What a worker answers a request with: the calculation, or the refusal or failure in words. */
export function answer(calculator: Calculator, request: CalculateRequest): WorkerToHostMessage {
  let outcome: CalculationOutcome;
  try {
    outcome = { calculation: calculator.calculate(request.expression) };
  } catch (error) {
    // A CalculatorError's message is written for the model; anything else is mathjs failing.
    outcome = { error: error instanceof CalculatorError ? error.message : `the calculator failed: ${messageOf(error)}` };
  }
  return { type: 'result', id: request.id, outcome };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
