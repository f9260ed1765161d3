// The orchestrator worker's side of a GGUF model worker's port (workers/hosts/models/gguf.worker.ts):
// loading with progress and cancel, and the GgufEngine a ChatModel streams through.

import { BackendError } from '../../engine/errors.ts';
import { GGUF_PROVIDER, type GgufChunk, type GgufEngine } from '../../backends/gguf/ggufModel.ts';
import type { FromGgufWorker, ToGgufWorker } from './modelMessages.ts';
import type { GgufRuntime, GgufSource } from './modelState.ts';

export interface GgufLoadRequest {
  source: GgufSource;
  contextWindow: number;
  threads: number;
  gpuLayers: number;
  /** A fixed sampling seed (tests and benchmarks: the same prompt then samples the same reply). */
  seed?: number;
}

export interface GgufPortEngine extends GgufEngine {
  /** Resolves with where the model runs; rejects with a BackendError (`aborted` when cancelled). */
  load(request: GgufLoadRequest, onProgress: (loaded: number, total: number) => void, signal?: AbortSignal): Promise<GgufRuntime>;
  close(): void;
}

interface PendingChat {
  onChunk(chunk: GgufChunk): void;
  resolve(): void;
  reject(error: unknown): void;
}

export function connectGgufEngine(port: MessagePort, modelId: string): GgufPortEngine {
  const chats = new Map<number, PendingChat>();
  let nextId = 1;
  let loading: { resolve(runtime: GgufRuntime): void; reject(error: unknown): void; onProgress(loaded: number, total: number): void } | undefined;
  const post = (message: ToGgufWorker) => port.postMessage(message);
  const failure = (code: string, message: string) =>
    new BackendError({
      code: code === 'aborted' ? 'aborted' : 'server',
      provider: GGUF_PROVIDER,
      retryable: false,
      message: code === 'aborted' ? `The call to ${modelId} was cancelled.` : `llama.cpp (${modelId}): ${message}`,
    });

  port.onmessage = (event: MessageEvent<FromGgufWorker>) => {
    const message = event.data;
    switch (message.type) {
      case 'progress':
        loading?.onProgress(message.loaded, message.total);
        return;
      case 'loaded':
        loading?.resolve(message.runtime);
        loading = undefined;
        return;
      case 'load_failed':
        loading?.reject(failure(message.code, message.message));
        loading = undefined;
        return;
      case 'chunk':
        chats.get(message.id)?.onChunk(message.chunk);
        return;
      case 'done':
        chats.get(message.id)?.resolve();
        chats.delete(message.id);
        return;
      case 'chat_failed':
        chats.get(message.id)?.reject(failure(message.code, message.message));
        chats.delete(message.id);
        return;
    }
  };

  return {
    load(request, onProgress, signal) {
      if (loading) return Promise.reject(new Error('A load is already under way.'));
      return new Promise<GgufRuntime>((resolve, reject) => {
        loading = { resolve, reject, onProgress };
        signal?.addEventListener('abort', () => post({ type: 'cancel_load' }), { once: true });
        post({ type: 'load', ...request });
      });
    },

    chat(body, onChunk, signal) {
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(failure('aborted', ''));
          return;
        }
        chats.set(id, { onChunk, resolve, reject });
        signal?.addEventListener('abort', () => post({ type: 'abort', id }), { once: true });
        post({ type: 'chat', id, body });
      });
    },

    close() {
      for (const chat of chats.values()) chat.reject(failure('aborted', ''));
      chats.clear();
      loading?.reject(failure('aborted', ''));
      loading = undefined;
      port.close();
    },
  };
}
