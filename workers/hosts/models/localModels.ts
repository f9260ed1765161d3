// The models loaded in this browser, as the orchestrator worker holds them. Each model has its
// own web-llm engine in its own model worker (workers/hosts/models/webllm.worker.ts): the page starts
// that worker and hands this module one end of a MessageChannel, whose other end web-llm's
// engine handler answers. Here the end is driven by web-llm's own WebWorkerMLCEngine, so tokens
// travel between the two workers without passing the page's thread.
//
// One engine per model (rather than one engine reloaded with a list of ids): web-llm's reload()
// always unloads everything first, so adding an expert would reload the orchestrator, and
// interruptGenerate() is engine-wide, so stopping one model's call would stop the other's.

import { BackendError } from '../../engine/errors.ts';
import {
  customOrchestrator8bRecord,
  findLocalModel,
  type LocalModel,
} from '../../backends/webllm/catalogue.ts';
import { loadWebLlmModel } from '../../backends/webllm/loadModel.ts';
import { loadWebLlm } from '../../backends/webllm/loadWebLlm.ts';
import type { LoadProgress } from '../../backends/webllm/loadProgress.ts';
import { deleteModelFromCache, isModelCached } from '../../backends/webllm/modelCache.ts';
import { createWebLlmModel, type WebLlmEngine } from '../../backends/webllm/webllmModel.ts';
import { PROVIDER } from '../../backends/webllm/webllmErrors.ts';
import type { ChatModel } from '../../engine/types.ts';
import type { LocalChatModel } from '../../engine/backendKind.ts';
import { createModelRegistry, type ModelRegistry } from './modelRegistry.ts';
import type { LocalModelRequest, LocalModelsState } from './modelState.ts';





export interface LocalModelsOptions {
  onProgress(modelId: string, progress: LoadProgress): void;
  onChange(state: LocalModelsState): void;
}

export interface LocalModels {
  /** Loads a model through a model worker's port. Resolves when it is loaded, cancelled or failed
   * (the outcome arrives through onChange); never rejects. */
  load(request: LocalModelRequest, contextWindow: number, port: MessagePort): Promise<void>;
  cancel(modelId: string): void;
  /** Gives the model up; the page then terminates its model worker. */
  unload(modelId: string): void;
  /** The ChatModel of a loaded model, for a run. Throws an error that says what to load. */
  chatModel(modelId: string, options: { providerName: string; constrainToolCalls?: boolean }): LocalChatModel;
  /** Which models' files are all in the browser cache. */
  cached(requests: readonly LocalModelRequest[]): Promise<Record<string, boolean>>;
  deleteCached(request: LocalModelRequest): Promise<void>;
  readonly state: LocalModelsState;
}

/** The catalogue record of a request: a prebuilt Qwen3, or a user's converted 8B weights. */
export function resolveLocalModel(request: LocalModelRequest): LocalModel {
  const prebuilt = findLocalModel(request.id);
  if (prebuilt) return prebuilt;
  if (!request.custom) {
    throw new Error(
      `"${request.id}" is not a model in the catalogue. Pick one in Models in this browser, or give the URL of your converted weights.`,
    );
  }
  return customOrchestrator8bRecord({ ...request.custom, modelId: request.id });
}

/** A model whose failure leaves it unusable (the GPU gave up) is unloaded, so the page says so. */
function watchedForGpuLoss(registry: ModelRegistry<WebLlmEngine>, modelId: string, chat: ChatModel): ChatModel {
  return {
    model: chat.model,
    label: chat.label,
    supportsServerTools: chat.supportsServerTools,
    complete: async (request, onDelta) => {
      try {
        return await chat.complete(request, onDelta);
      } catch (error) {
        if (error instanceof BackendError && (error.code === 'out_of_memory' || error.code === 'webgpu')) {
          registry.fail({ modelId, code: error.code, message: error.description }, { drop: true });
        }
        throw error;
      }
    },
  };
}

export function createLocalModels(options: LocalModelsOptions): LocalModels {
  const registry = createModelRegistry<WebLlmEngine>(options.onChange);

  return {
    get state() {
      return registry.state;
    },

    async load(request, contextWindow, port) {
      let model: LocalModel;
      try {
        model = resolveLocalModel(request);
      } catch (error) {
        port.close();
        registry.fail({ modelId: request.id, code: 'bad_request', message: (error as Error).message });
        return;
      }
      await registry.load({ id: model.id, label: model.label }, () => port.close(), async (entry, signal) => {
        const [{ WebWorkerMLCEngine }, { buildAppConfig }] = await Promise.all([loadWebLlm(), import('../../backends/webllm/appConfig.ts')]);
        const engine = new WebWorkerMLCEngine(port);
        entry.engine = engine;
        const cached = await isModelCached(model).catch(() => undefined);
        const loaded = await loadWebLlmModel({
          engine,
          appConfig: buildAppConfig([model]),
          model,
          contextWindow,
          ...(cached === undefined ? {} : { cached }),
          onProgress: (progress) => options.onProgress(model.id, progress),
          signal,
        });
        return { contextWindow: loaded.contextWindow, fromCache: loaded.fromCache, seconds: loaded.seconds };
      });
    },

    cancel: (modelId) => registry.cancel(modelId),
    unload: (modelId) => registry.unload(modelId),

    chatModel(modelId, { providerName, constrainToolCalls }) {
      const entry = registry.ready(modelId, () => {
        const known = findLocalModel(modelId);
        return `${known ? known.label : `"${modelId}"`} (provider "${providerName}") is not loaded in this browser. Load it in Models in this browser, then run again.`;
      });
      const chat = createWebLlmModel({
        engine: entry.engine,
        modelId,
        label: `${PROVIDER}:${modelId}`,
        ...(constrainToolCalls === undefined ? {} : { constrainToolCalls }),
      });
      return { model: watchedForGpuLoss(registry, modelId, chat), contextWindow: entry.loaded.contextWindow };
    },

    async cached(requests) {
      const found: Record<string, boolean> = {};
      for (const request of requests) {
        found[request.id] = await isModelCached(resolveLocalModel(request));
      }
      return found;
    },

    async deleteCached(request) {
      const model = resolveLocalModel(request);
      if (registry.has(model.id)) throw new Error(`${model.label} is loaded: unload it before deleting its files.`);
      // web-llm's delete fetches the shard list from the network when it is not cached.
      if (await isModelCached(model)) await deleteModelFromCache(model);
    },
  };
}
