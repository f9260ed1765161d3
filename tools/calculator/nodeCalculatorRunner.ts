// Node host of the calculator (the CLI): mathjs in a worker thread (nodeCalculatorWorker.ts), so a
// deadline can end a runaway expression without ending the process. Its heap is capped, so an
// expression that outgrows it ends the thread, not the CLI.

import { startNodeWorker } from '../sandbox/nodeWorker.ts';
import { createCalculatorRunner } from './calculatorHost.ts';
import type { CalculatorRunner } from './types.ts';

export function createNodeCalculatorRunner(): CalculatorRunner {
  return createCalculatorRunner(startNodeWorker(new URL('./nodeCalculatorWorkerEntry.mjs', import.meta.url), { heapLimitMb: 512 }));
}
