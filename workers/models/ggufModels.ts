// The GGUF models loaded in this browser, as the orchestrator worker holds them: each in its own
// GGUF model worker (gguf.worker.ts), which the page starts and connects with a MessageChannel,
// as for web-llm (localModels.ts). The orchestrator worker merges this state with web-llm's into
// the one `model_state` the page shows.

import { toErrorInfo } from '../engine/errors.ts';
import { createGgufModel, GGUF_PROVIDER } from '../backends/gguf/ggufModel.ts';
import type { LoadProgress } from '../backends/webllm/loadProgress.ts';
import type { GgufRuntime, GgufSource } from '../messages.ts';
import type { LocalChatModel } from '../prepareRun.ts';
import { connectGgufEngine, type GgufPortEngine } from './ggufEngine.ts';
import type { LoadedLocalModel, LocalModelFailure } from './localModels.ts';

/** A GGUF model to load: the id runs name it by (a gguf provider's `model`). */
export interface GgufModelRequest {
  id: string;
  label: string;
  source: GgufSource;
  contextWindow: number;
  threads: number;
  gpuLayers: number;
}

export interface GgufModelsState {
  loaded: LoadedLocalModel[];
  loading: string[];
  failure?: LocalModelFailure;
}

interface Entry {
  request: GgufModelRequest;
  engine: GgufPortEngine;
  controller?: AbortController;
  loaded?: LoadedLocalModel;
}

export interface GgufModels {
  load(request: GgufModelRequest, port: MessagePort): Promise<void>;
  /** Whether the id is a GGUF model here (loading or loaded). */
  has(modelId: string): boolean;
  cancel(modelId: string): void;
  unload(modelId: string): void;
  chatModel(modelId: string, options: { providerName: string; constrainToolCalls?: boolean }): LocalChatModel;
  readonly state: GgufModelsState;
}

/** One bar for a GGUF load: the download (when there is one), then llama.cpp reading the file.
 * A host that sends no Content-Length gives no total: the bar then shows bytes only. */
function downloadProgress(loaded: number, total: number): LoadProgress {
  const fraction = total > 0 ? Math.min(1, loaded / total) : 0;
  const progress: LoadProgress = { phase: 'downloading', fraction: fraction * 0.95, phaseFraction: fraction, bytesLoaded: loaded, fromCache: false, text: '' };
  if (total > 0) progress.bytesTotal = total;
  return progress;
}

export function createGgufModels(options: {
  onProgress(modelId: string, progress: LoadProgress): void;
  onChange(state: GgufModelsState): void;
}): GgufModels {
  const entries = new Map<string, Entry>();
  let failure: LocalModelFailure | undefined;
  const snapshot = (): GgufModelsState => ({
    loaded: [...entries.values()].flatMap((entry) => (entry.loaded ? [entry.loaded] : [])),
    loading: [...entries.values()].filter((entry) => !entry.loaded).map((entry) => entry.request.id),
    ...(failure ? { failure } : {}),
  });
  const changed = (next?: LocalModelFailure) => {
    failure = next;
    options.onChange(snapshot());
  };
  const forget = (modelId: string) => {
    const entry = entries.get(modelId);
    if (!entry) return;
    entries.delete(modelId);
    entry.engine.close();
  };

  return {
    get state() {
      return snapshot();
    },
    has: (modelId) => entries.has(modelId),

    async load(request, port) {
      if (entries.has(request.id)) {
        port.close();
        changed({ modelId: request.id, code: 'bad_request', message: `${request.label} is already loaded or loading: unload it first.` });
        return;
      }
      const controller = new AbortController();
      const entry: Entry = { request, engine: connectGgufEngine(port, request.id), controller };
      entries.set(request.id, entry);
      changed();
      try {
        const runtime: GgufRuntime = await entry.engine.load(
          { source: request.source, contextWindow: request.contextWindow, threads: request.threads, gpuLayers: request.gpuLayers },
          (loaded, total) => options.onProgress(request.id, downloadProgress(loaded, total)),
          controller.signal,
        );
        if (entries.get(request.id) !== entry) return;
        delete entry.controller;
        entry.loaded = {
          id: request.id,
          label: request.label,
          contextWindow: runtime.contextWindow,
          fromCache: runtime.fromCache,
          seconds: runtime.seconds,
          gguf: runtime,
        };
        changed();
      } catch (error) {
        if (entries.get(request.id) !== entry) return;
        forget(request.id);
        const info = toErrorInfo(error);
        changed(info.code === 'aborted' ? undefined : { modelId: request.id, code: info.code, message: info.message });
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
      // The page terminates the model worker once the state says the model is gone.
      forget(modelId);
      changed();
    },

    chatModel(modelId, { providerName, constrainToolCalls }) {
      const entry = entries.get(modelId);
      if (!entry?.loaded) {
        throw new Error(
          entry
            ? `${entry.request.label} is still loading: wait for it to finish, then run again.`
            : `"${modelId}" (provider "${providerName}") is not a GGUF model loaded in this browser. Load it in Models in this browser, then run again.`,
        );
      }
      const model = createGgufModel({
        engine: entry.engine,
        modelId,
        label: `${GGUF_PROVIDER}:${modelId}`,
        ...(constrainToolCalls === undefined ? {} : { constrainToolCalls }),
      });
      return { model, contextWindow: entry.loaded.contextWindow };
    },
  };
}
