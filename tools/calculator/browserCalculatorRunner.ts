// Browser host of the calculator: mathjs in its own module worker (calculator.worker.ts). Works
// from a page and from another worker (the orchestrator worker uses it).

import { startBrowserWorker } from '../sandbox/browserWorker.ts';
import { createCalculatorRunner } from './calculatorHost.ts';
import type { CalculatorRunner } from './types.ts';

export function createBrowserCalculatorRunner(): CalculatorRunner {
  return createCalculatorRunner(
    startBrowserWorker(() => new Worker(new URL('./calculator.worker.ts', import.meta.url), { type: 'module', name: 'calculator' })),
  );
}
