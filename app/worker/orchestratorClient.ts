// The page's side of the orchestrator worker (workers/messages.ts is the boundary). The worker
// starts on first use, so the first screen does not pay for the engine's chunk.

import type { RunEvent } from '../../workers/engine/events.ts';
import type { FromWorker, ToWorker } from '../../workers/messages.ts';

export interface OrchestratorHandlers {
  onEvents(events: RunEvent[]): void;
  onRejected(runId: string, problems: string[]): void;
  onKeys(providers: string[]): void;
  /** The worker failed to load or threw outside a run. */
  onCrash(message: string): void;
}

export interface OrchestratorClient {
  setKey(provider: string, key: string | null): void;
  start(runId: string, config: unknown, task: string): void;
  stop(runId: string): void;
  dispose(): void;
}

export function createOrchestratorClient(handlers: OrchestratorHandlers): OrchestratorClient {
  let worker: Worker | null = null;

  const connect = (): Worker => {
    if (worker) return worker;
    const created = new Worker(new URL('../../workers/orchestrator.worker.ts', import.meta.url), {
      type: 'module',
      name: 'orchestrator',
    });
    created.onmessage = (message: MessageEvent<FromWorker>) => {
      const data = message.data;
      switch (data.type) {
        case 'events':
          handlers.onEvents(data.events);
          break;
        case 'run_rejected':
          handlers.onRejected(data.runId, data.problems);
          break;
        case 'run_failed':
          handlers.onCrash(data.message);
          break;
        case 'keys':
          handlers.onKeys(data.providers);
          break;
      }
    };
    created.onerror = (event) => {
      event.preventDefault();
      handlers.onCrash(event.message || 'The orchestrator worker failed to start.');
    };
    created.onmessageerror = () => handlers.onCrash('A message from the orchestrator worker could not be read.');
    worker = created;
    return created;
  };

  const send = (message: ToWorker) => connect().postMessage(message);

  return {
    setKey: (provider, key) => send({ type: 'set_key', provider, key }),
    start: (runId, config, task) => send({ type: 'start', runId, config, task }),
    stop: (runId) => send({ type: 'stop', runId }),
    dispose: () => {
      worker?.terminate();
      worker = null;
    },
  };
}
