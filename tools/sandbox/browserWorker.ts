// Starting a sandbox's worker in the browser (from a page or from another worker): the runner
// constructs the module worker itself, `new Worker(new URL('./x.worker.ts', import.meta.url), …)`,
// because that is the form the bundler finds worker scripts by.

import type { StartWorker } from './workerHost.ts';

export function startBrowserWorker(construct: () => Worker): StartWorker {
  return (events) => {
    const worker = construct();
    worker.addEventListener('message', (event: MessageEvent<unknown>) => events.message(event.data));
    worker.addEventListener('error', (event: ErrorEvent) => {
      // Handled here: the page should not also report it as uncaught.
      event.preventDefault();
      events.failed(event.message || 'the worker script could not be loaded');
    });
    worker.addEventListener('messageerror', () => events.failed('a message from the worker could not be read'));
    return { post: (message) => worker.postMessage(message), terminate: () => worker.terminate() };
  };
}
