/// <reference lib="webworker" />
// The orchestrator worker: runs the engine off the page's thread. All it does is orchestratorHost.ts,
// with this browser's parts plugged in (workerHostPlatform.ts); the page asks through
// app/worker/orchestratorClient.ts.

import type { ToWorker } from './messages.ts';
import { createOrchestratorHost } from './orchestratorHost.ts';
import { serveRequests } from './requests.ts';
import { workerHostPlatform } from './workerHostPlatform.ts';

declare const self: DedicatedWorkerGlobalScope;

const serve = serveRequests(createOrchestratorHost(workerHostPlatform((message) => self.postMessage(message))), (reply) => self.postMessage(reply));
self.onmessage = (message: MessageEvent<ToWorker>) => serve(message.data);
