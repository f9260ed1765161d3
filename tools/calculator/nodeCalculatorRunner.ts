// Node host of the calculator (the CLI): mathjs in a worker thread (nodeCalculatorWorker.ts), so a
// deadline can end a runaway expression without ending the process. Its heap is capped, so an
// expression that outgrows it ends the thread, not the CLI.

import { Worker } from 'node:worker_threads';
import { createCalculatorRunner } from './calculatorHost.ts';
import type { CalculatorRunner } from './types.ts';

const WORKER_URL = new URL('./nodeCalculatorWorkerEntry.mjs', import.meta.url);
const HEAP_LIMIT_MB = 512;

export function createNodeCalculatorRunner(): CalculatorRunner {
  return createCalculatorRunner((events) => {
    // An empty environment: the CLI's API keys are never in the thread that evaluates expressions.
    const worker = new Worker(WORKER_URL, { env: {}, resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB } });
    // An idle warm worker must not keep the Node process alive.
    worker.unref();
    worker.on('message', (message: unknown) => events.message(message));
    worker.on('error', (error) =>
      events.failed((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it ran out of memory (${HEAP_LIMIT_MB} MB)` : error.message),
    );
    worker.on('exit', (code) => events.failed(`its worker exited (code ${code})`));
    return { post: (message) => worker.postMessage(message), terminate: () => void worker.terminate() };
  });
}
