/// <reference lib="webworker" />
// The model worker: web-llm's own engine handler, which owns the GPU and one model. The page
// starts one per model and sends it one end of a MessageChannel; the orchestrator worker's
// WebWorkerMLCEngine holds the other end (workers/hosts/models/localModels.ts).
// web-llm comes through loadWebLlm, as in the orchestrator worker, so the browser downloads it once.

import { loadWebLlm } from '../../backends/webllm/loadWebLlm.ts';
import type { ModelWorkerRequests } from './modelMessages.ts';
import { serveRequests } from '../requests.ts';
import { connectHandler } from './connectHandler.ts';

declare const self: DedicatedWorkerGlobalScope;

const handler = loadWebLlm().then(({ WebWorkerMLCEngineHandler }) => new WebWorkerMLCEngineHandler());
// A chunk that fails to load must fail the worker, as a failed static import did: the page
// reports the worker's error event (orchestratorClient.ts).
handler.catch((error: unknown) => {
  setTimeout(() => {
    throw error;
  });
});

const serve = serveRequests<ModelWorkerRequests>(
  { connect: ({ port }) => void handler.then((ready) => connectHandler(ready, port)).catch(() => undefined) },
  (reply) => self.postMessage(reply),
);
self.onmessage = (event) => serve(event.data);
