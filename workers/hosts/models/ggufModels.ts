// The GGUF models loaded in this browser, as the orchestrator worker holds them: each in its own
// GGUF model worker (gguf.worker.ts), which the page starts and connects with a MessageChannel,
// as for web-llm (localModels.ts). The orchestrator worker merges this state with web-llm's into
// the one `model_state` the page shows.

import { createGgufModel, GGUF_PROVIDER } from '../../backends/gguf/ggufModel.ts';
import type { LoadProgress } from '../../backends/webllm/loadProgress.ts';
import type { GgufModelRequest, GgufRuntime, LocalModelsState } from './modelState.ts';
import type { LocalChatModel } from '../../engine/backendKind.ts';
import { connectGgufEngine, type GgufPortEngine } from './ggufEngine.ts';
import { createModelRegistry } from './modelRegistry.ts';


export interface GgufModels {
  load(request: GgufModelRequest, port: MessagePort): Promise<void>;
  /** Whether the id is a GGUF model here (loading or loaded). */
  has(modelId: string): boolean;
  cancel(modelId: string): void;
  unload(modelId: string): void;
  chatModel(modelId: string, options: { providerName: string; constrainToolCalls?: boolean }): LocalChatModel;
  readonly state: LocalModelsState;
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
  onChange(state: LocalModelsState): void;
}): GgufModels {
  const registry = createModelRegistry<GgufPortEngine>(options.onChange);
  return {
    get state() {
      return registry.state;
    },
    has: (modelId) => registry.has(modelId),

    async load(request, port) {
      const engine = connectGgufEngine(port, request.id);
      await registry.load({ id: request.id, label: request.label, engine }, () => engine.close(), async (_entry, signal) => {
        const runtime: GgufRuntime = await engine.load(
          {
            source: request.source,
            contextWindow: request.contextWindow,
            threads: request.threads,
            gpuLayers: request.gpuLayers,
            ...(request.seed === undefined ? {} : { seed: request.seed }),
          },
          (loaded, total) => options.onProgress(request.id, downloadProgress(loaded, total)),
          signal,
        );
        return { contextWindow: runtime.contextWindow, fromCache: runtime.fromCache, seconds: runtime.seconds, gguf: runtime };
      });
    },

    cancel: (modelId) => registry.cancel(modelId),
    unload: (modelId) => registry.unload(modelId),

    chatModel(modelId, { providerName, constrainToolCalls }) {
      const entry = registry.ready(
        modelId,
        () => `"${modelId}" (provider "${providerName}") is not a GGUF model loaded in this browser. Load it in Models in this browser, then run again.`,
      );
      const model = createGgufModel({
        engine: entry.engine,
        modelId,
        label: `${GGUF_PROVIDER}:${modelId}`,
        ...(constrainToolCalls === undefined ? {} : { constrainToolCalls }),
        thinkTokens: entry.loaded.gguf?.thinkTokens ?? false,
      });
      return { model, contextWindow: entry.loaded.contextWindow };
    },
  };
}
