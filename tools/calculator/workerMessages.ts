import { CalculatorError, type Calculation, type Calculator } from './calculator.ts';
import { messageOf } from '../sandbox/workerMessages.ts';

// What the calculator's host and its worker (a Web Worker in the browser, a worker thread under
// Node) exchange, inside the sandboxes' common messages (tools/sandbox/workerMessages.ts).

export interface CalculateRequest {
  expression: string;
}

export type CalculationOutcome = { calculation: Calculation } | { error: string };

export type CalculatorCalls = { calculate: { request: CalculateRequest; response: CalculationOutcome } };

export function isCalculateRequest(value: unknown): value is CalculateRequest {
  return typeof value === 'object' && value !== null && typeof (value as Partial<CalculateRequest>).expression === 'string';
}

/** What a worker answers a request with: the calculation, or the refusal or failure in words. */
export function answer(calculator: Calculator, request: CalculateRequest): CalculationOutcome {
  try {
    return { calculation: calculator.calculate(request.expression) };
  } catch (error) {
    // A CalculatorError's message is written for the model; anything else is mathjs failing.
    return { error: error instanceof CalculatorError ? error.message : `the calculator failed: ${messageOf(error)}` };
  }
}
