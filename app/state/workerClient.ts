// The page's way to the orchestrator worker, as the stores and flows see it: what they ask of it
// (WorkerClient) and what it tells them (WorkerEvents). app/worker/orchestratorClient.ts is the
// real one (browserPlatform.ts plugs it in); tests plug in e2e/fixtures/doubles/fakeWorkerClient.ts.
// Named here, in one place, so the client can change underneath: a new client only has to keep
// this shape (or an adapter in browserPlatform.ts does). A new request of the worker needs no new
// method here: `request(name, body)` asks any of workers/hosts/messages.ts's OrchestratorRequests
// and resolves with its reply; `tell(name, body)` sends a command nobody waits for.

import type { OrchestratorClient, OrchestratorHandlers } from '../worker/orchestratorClient.ts';

export type WorkerClient = Pick<OrchestratorClient, 'request' | 'tell' | 'started' | 'loadModel' | 'loadGgufModel' | 'restart'>;

/** What the worker tells the page unasked: runs' events, models, evaluations, its own loss. */
export type WorkerEvents = OrchestratorHandlers;

/** Makes the client; it starts its worker on first use. */
export type ConnectWorker = (events: WorkerEvents) => WorkerClient;
