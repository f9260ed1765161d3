// Harness of the calculator's browser runner (mathjs in its own worker) for the sandbox benchmarks
// (bench/sandbox.bench.ts): puts the runner on `window`.
import { createBrowserCalculatorRunner } from '../../tools/calculator/browserCalculatorRunner.ts';
import type { CalculatorRunResult } from '../../tools/calculator/types.ts';

export interface CalculatorHarness {
  calculate(expression: string, timeoutMs: number): Promise<CalculatorRunResult>;
}

declare global {
  interface Window {
    calculatorHarness: CalculatorHarness;
  }
}

const runner = createBrowserCalculatorRunner();
window.calculatorHarness = { calculate: (expression, timeoutMs) => runner.calculate(expression, { timeoutMs }) };
const status = document.getElementById('status');
if (status) status.textContent = 'ready';
