/// <reference lib="webworker" />
// Browser tests' stand-in for the model worker (workers/hosts/models/webllm.worker.ts), the one
// boundary these machines cannot reach: a GPU with a model on it. It takes the same `connect`
// message from the page and answers web-llm's worker protocol on that port with the fake engine,
// so the page, the orchestrator worker and web-llm's own WebWorkerMLCEngine run as they do for
// real. Like web-llm with its default cache backend, a load leaves the model's shard list and
// shards (and its model library) in the browser's Cache Storage, so web-llm's own cache check and
// delete see them, and tests see which addresses a load used.
// e2e/support/fakeWebllm.ts bundles it with the engine's script and serves it in place of the
// model worker's script.

import { resolvedWeightsUrl } from '../../workers/backends/webllm/catalogue.ts';
import { serveFakeEngine } from '../fixtures/doubles/fakeEngineWorker.ts';
import { FakeWebLlmEngine, type FakeEngineScript } from '../fixtures/doubles/fakeWebLlmEngine.ts';
import type { ModelWorkerRequests } from '../../workers/hosts/models/modelMessages.ts';
import { serveRequests } from '../../workers/hosts/requests.ts';

declare const self: DedicatedWorkerGlobalScope & { fakeEngineScript?: FakeEngineScript };

const engine = new FakeWebLlmEngine(self.fakeEngineScript ?? {});

/** What web-llm's "cache" backend keeps of a model: `tensor-cache.json` and the shards it lists,
 * in the Cache Storage named "webllm/model", keyed by URL. */
async function storeLikeWebLlm(modelId: string): Promise<void> {
  const record = engine.appConfig?.model_list.find((entry) => entry.model_id === modelId);
  if (!record) return;
  const base = resolvedWeightsUrl(record.model);
  const shards = ['params_shard_0.bin', 'params_shard_1.bin'];
  const cache = await caches.open('webllm/model');
  await cache.put(new URL('tensor-cache.json', base).href, Response.json({ records: shards.map((dataPath) => ({ dataPath })) }));
  for (const shard of shards) await cache.put(new URL(shard, base).href, new Response(new Uint8Array(1024)));
  // web-llm keeps the model library it ran in its own cache, by URL.
  await (await caches.open('webllm/wasm')).put(record.model_lib, new Response(new Uint8Array(64)));
}

const reload = engine.reload;
engine.reload = async (modelId, chatOpts) => {
  await reload(modelId, chatOpts);
  if (engine.loadedModelId !== undefined) await storeLikeWebLlm(engine.loadedModelId);
};

// The same `connect` request the real model worker answers (workers/hosts/models/modelMessages.ts).
const serve = serveRequests<ModelWorkerRequests>(
  {
    connect: ({ port }) => {
      const answer = serveFakeEngine(engine, (response) => port.postMessage(response));
      port.onmessage = (message) => answer(message.data);
    },
  },
  (reply) => self.postMessage(reply),
);
self.onmessage = (event) => serve(event.data);
