// Loading a model into a web-llm engine, with one progress bar, cancellation and errors that
// say what to do. Runs wherever the engine object is: the page (a WebWorkerMLCEngine) or the
// worker that owns the GPU (an MLCEngine).

import type { AppConfig } from '@mlc-ai/web-llm';
import { BackendError } from '../../engine/errors.ts';
import { ABORTED, raceAbort } from '../../engine/abort.ts';
import { contextWindowOptions, type LocalModel } from './catalogue.ts';
import { createLoadProgressTracker, type LoadProgress } from './loadProgress.ts';
import { describeStorage, storageEstimate } from './modelCache.ts';
import type { WebLlmEngine } from './webllmModel.ts';
import { abortedError, classifyWebLlmError, PROVIDER } from './webllmErrors.ts';

export interface LoadWebLlmModelOptions {
  engine: WebLlmEngine;
  /** From buildAppConfig: it must hold `model.record`. */
  appConfig: AppConfig;
  model: LocalModel;
  /** Tokens of KV cache to allocate; default the model's (4096). */
  contextWindow?: number;
  /** isModelCached's answer, if known: the bar is split right from the first report. */
  cached?: boolean;
  onProgress?: (progress: LoadProgress) => void;
  /** Cancels the download or load (web-llm's unload()); the call rejects with `aborted`. */
  signal?: AbortSignal;
}

export interface LoadedModel {
  modelId: string;
  contextWindow: number;
  fromCache: boolean;
  seconds: number;
}

export async function loadWebLlmModel(options: LoadWebLlmModelOptions): Promise<LoadedModel> {
  const { engine, model, signal } = options;
  const contextWindow = options.contextWindow ?? model.defaultContextWindow;
  const chatOptions = contextWindowOptions(model, contextWindow);
  if (signal?.aborted) throw abortedError(model.id);

  const tracker = createLoadProgressTracker(options.cached === undefined ? {} : { cached: options.cached });
  engine.setAppConfig(options.appConfig);
  engine.setInitProgressCallback((report) => {
    if (!signal?.aborted) options.onProgress?.(tracker.update(report));
  });
  const cancel = () => {
    engine.unload().catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  const started = performance.now();
  try {
    await raceAbort(engine.reload(model.id, chatOptions), signal);
  } catch (error) {
    if (error === ABORTED || signal?.aborted) throw abortedError(model.id);
    const failure = classifyWebLlmError(error, model.id);
    const storage = failure.kind === 'storage_quota' ? await storageEstimate() : undefined;
    throw new BackendError({
      code: failure.code,
      provider: PROVIDER,
      retryable: false,
      message: storage ? `${failure.message} ${describeStorage(storage)}` : failure.message,
      cause: error,
    });
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  return {
    modelId: model.id,
    contextWindow,
    fromCache: tracker.current.fromCache,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
