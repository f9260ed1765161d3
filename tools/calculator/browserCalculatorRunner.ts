// Browser host of the calculator: mathjs in its own module worker (calculator.worker.ts). Works
// from a page and from another worker (the orchestrator worker uses it).

import { createCalculatorRunner } from './calculatorHost.ts';
import type { CalculatorRunner } from './types.ts';

export function createBrowserCalculatorRunner(): CalculatorRunner {
  return createCalculatorRunner((events) => {
    const worker = new Worker(new URL('./calculator.worker.ts', import.meta.url), { type: 'module', name: 'calculator' });
    worker.addEventListener('message', (event: MessageEvent<unknown>) => events.message(event.data));
    worker.addEventListener('error', (event: ErrorEvent) => {
      // Handled here: the page should not also report it as uncaught.
      event.preventDefault();
      events.failed(event.message || 'the worker script could not be loaded');
    });
    worker.addEventListener('messageerror', () => events.failed('a message from the worker could not be read'));
    return { post: (message) => worker.postMessage(message), terminate: () => worker.terminate() };
  });
}
