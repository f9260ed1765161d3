// Starting a sandbox's worker under Node (the CLI, unit tests): a worker thread, so a deadline can
// end runaway code without ending the process.

import { Worker } from 'node:worker_threads';
import type { StartWorker } from './workerHost.ts';

export interface NodeWorkerOptions {
  /** Caps the thread's heap: code that outgrows it ends the thread, not the process. */
  heapLimitMb?: number;
  /** Handed to the thread as `workerData`. */
  workerData?: unknown;
}

/** `url`: a plain JavaScript entry; a TypeScript worker is loaded from one through tsx's API
 * (Node 20 does not apply `--import tsx` inside worker threads). */
export function startNodeWorker(url: URL, { heapLimitMb, workerData }: NodeWorkerOptions = {}): StartWorker {
  return (events) => {
    // An empty environment: the CLI's API keys are never in the thread that runs untrusted code.
    const worker = new Worker(url, {
      env: {},
      workerData,
      ...(heapLimitMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapLimitMb } }),
    });
    // An idle warm worker must not keep the Node process alive.
    worker.unref();
    worker.on('message', (message: unknown) => events.message(message));
    worker.on('error', (error) =>
      events.failed((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it ran out of memory (${heapLimitMb} MB)` : error.message),
    );
    worker.on('exit', (code) => events.failed(`its worker exited (code ${code})`));
    return {
      post: (message) => worker.postMessage(message),
      terminate: async () => {
        await worker.terminate();
      },
    };
  };
}
