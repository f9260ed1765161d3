// The models loaded in this browser, as the orchestrator worker holds them. Each model has its
// own web-llm engine in its own model worker (workers/models/webllm.worker.ts): the page starts
// that worker and hands this module one end of a MessageChannel, whose other end web-llm's
// engine handler answers. Here the end is driven by web-llm's own WebWorkerMLCEngine, so tokens
// travel between the two workers without passing the page's thread.
//
// One engine per model (rather than one engine reloaded with a list of ids): web-llm's reload()
// always unloads everything first, so adding an expert would reload the orchestrator, and
// interruptGenerate() is engine-wide, so stopping one model's call would stop the other's.

import { BackendError, toErrorInfo } from '../engine/errors.ts';
import {
  customOrchestrator8bRecord,
  findLocalModel,
  type CustomOrchestratorOptions,
  type LocalModel,
} from '../backends/webllm/catalogue.ts';
import { loadWebLlmModel } from '../backends/webllm/loadModel.ts';
import { loadWebLlm } from '../backends/webllm/loadWebLlm.ts';
import type { LoadProgress } from '../backends/webllm/loadProgress.ts';
import { deleteModelFromCache, isModelCached } from '../backends/webllm/modelCache.ts';
import { createWebLlmModel, type WebLlmEngine } from '../backends/webllm/webllmModel.ts';
import { PROVIDER } from '../backends/webllm/webllmErrors.ts';
import type { ChatModel } from '../engine/types.ts';
import type { LocalChatModel } from '../prepareRun.ts';
import type { GgufRuntime } from '../messages.ts';

/** Which model to load: a catalogue id, or a custom id with where its converted weights are. */
export interface LocalModelRequest {
  id: string;
  custom?: Omit<CustomOrchestratorOptions, 'modelId' | 'label'>;
}

export interface LoadedLocalModel {
  id: string;
  label: string;
  contextWindow: number;
  fromCache: boolean;
  /** How long the load took. */
  seconds: number;
  /** A GGUF model (llama.cpp): where it runs, and why on the CPU when it does (ggufModels.ts). */
  gguf?: GgufRuntime;
}

export interface LocalModelFailure {
  modelId: string;
  code: string;
  message: string;
}

/** Plain data: it crosses postMessage to the page. */
export interface LocalModelsState {
  loaded: LoadedLocalModel[];
  loading: string[];
  /** The last load or model that failed, when the latest change was a failure. */
  failure?: LocalModelFailure;
}

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

interface Entry {
  model: LocalModel;
  port: MessagePort;
  engine?: WebLlmEngine;
  controller?: AbortController;
  loaded?: LoadedLocalModel;
}

export function createLocalModels(options: LocalModelsOptions): LocalModels {
  const entries = new Map<string, Entry>();
  let failure: LocalModelFailure | undefined;

  const snapshot = (): LocalModelsState => {
    const state: LocalModelsState = {
      loaded: [...entries.values()].flatMap((entry) => (entry.loaded ? [entry.loaded] : [])),
      loading: [...entries.values()].filter((entry) => !entry.loaded).map((entry) => entry.model.id),
    };
    if (failure) state.failure = failure;
    return state;
  };
  const changed = (next?: LocalModelFailure) => {
    failure = next;
    options.onChange(snapshot());
  };
  const forget = (modelId: string) => {
    const entry = entries.get(modelId);
    if (!entry) return;
    entries.delete(modelId);
    entry.port.close();
  };

  /** A failure that leaves the model unusable (the GPU gave up) unloads it, so the page says so. */
  const watched = (modelId: string, chat: ChatModel): ChatModel => ({
    model: chat.model,
    label: chat.label,
    supportsServerTools: chat.supportsServerTools,
    complete: async (request, onDelta) => {
      try {
        return await chat.complete(request, onDelta);
      } catch (error) {
        if (error instanceof BackendError && (error.code === 'out_of_memory' || error.code === 'webgpu') && entries.has(modelId)) {
          forget(modelId);
          changed({ modelId, code: error.code, message: error.description });
        }
        throw error;
      }
    },
  });

  return {
    get state() {
      return snapshot();
    },

    async load(request, contextWindow, port) {
      let model: LocalModel;
      try {
        model = resolveLocalModel(request);
      } catch (error) {
        port.close();
        changed({ modelId: request.id, code: 'bad_request', message: (error as Error).message });
        return;
      }
      if (entries.has(model.id)) {
        port.close();
        changed({ modelId: model.id, code: 'bad_request', message: `${model.label} is already loaded or loading: unload it first.` });
        return;
      }
      const controller = new AbortController();
      const entry: Entry = { model, port, controller };
      entries.set(model.id, entry);
      changed();
      try {
        const [{ WebWorkerMLCEngine }, { buildAppConfig }] = await Promise.all([
          loadWebLlm(),
          import('../backends/webllm/appConfig.ts'),
        ]);
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
          signal: controller.signal,
        });
        if (entries.get(model.id) !== entry) return;
        delete entry.controller;
        entry.loaded = { id: model.id, label: model.label, contextWindow: loaded.contextWindow, fromCache: loaded.fromCache, seconds: loaded.seconds };
        changed();
      } catch (error) {
        if (entries.get(model.id) !== entry) return;
        forget(model.id);
        const info = toErrorInfo(error);
        changed(info.code === 'aborted' ? undefined : { modelId: model.id, code: info.code, message: info.message });
      }
    },

    cancel(modelId) {
      entries.get(modelId)?.controller?.abort();
    },

    unload(modelId) {
      const entry = entries.get(modelId);
      if (!entry) return;
      if (entry.controller) {
        entry.controller.abort();
        return;
      }
      // The page terminates the model worker once the state says the model is gone, which frees
      // its GPU memory for certain (web-llm's own unload() could hang on a broken GPU).
      forget(modelId);
      changed();
    },

    chatModel(modelId, { providerName, constrainToolCalls }) {
      const entry = entries.get(modelId);
      if (!entry?.loaded || !entry.engine) {
        const known = findLocalModel(modelId);
        throw new Error(
          entry
            ? `${entry.model.label} is still loading: wait for it to finish, then run again.`
            : known
              ? `${known.label} (provider "${providerName}") is not loaded in this browser. Load it in Models in this browser, then run again.`
              : `"${modelId}" (provider "${providerName}") is not loaded in this browser. Load it in Models in this browser, then run again.`,
        );
      }
      const chat = createWebLlmModel({
        engine: entry.engine,
        modelId,
        label: `${PROVIDER}:${modelId}`,
        ...(constrainToolCalls === undefined ? {} : { constrainToolCalls }),
      });
      return { model: watched(modelId, chat), contextWindow: entry.loaded.contextWindow };
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
      if (entries.has(model.id)) throw new Error(`${model.label} is loaded: unload it before deleting its files.`);
      // web-llm's delete fetches the shard list from the network when it is not cached.
      if (await isModelCached(model)) await deleteModelFromCache(model);
    },
  };
}
