// The messages between the page or the orchestrator worker and a model worker (webllm.worker.ts,
// gguf.worker.ts).

import type { GgufChatBody, GgufChunk } from '../../backends/gguf/ggufModel.ts';
import type { GgufRuntime, GgufSource } from './modelState.ts';

/** The page's only request of a model worker: the port its engine handler answers on (the other
 * end is the orchestrator worker's). */
export type ModelWorkerRequests = { connect: { body: { port: MessagePort }; reply: void } };

/** What the GGUF model worker (workers/hosts/models/gguf.worker.ts) is asked over its port. */
export type ToGgufWorker =
  | {
      type: 'load';
      source: GgufSource;
      contextWindow: number;
      /** 1 for one thread; more only when the page is cross-origin isolated. */
      threads: number;
      /** Layers offloaded to WebGPU; 0 for the CPU alone. */
      gpuLayers: number;
      /** llama.cpp's sampling seed for every request; absent: a random one each request. */
      seed?: number;
    }
  | { type: 'cancel_load' }
  | { type: 'chat'; id: number; body: GgufChatBody }
  | { type: 'abort'; id: number };

/** What the GGUF model worker answers over its port. */
export type FromGgufWorker =
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'loaded'; runtime: GgufRuntime }
  | { type: 'load_failed'; code: string; message: string }
  | { type: 'chunk'; id: number; chunk: GgufChunk }
  | { type: 'done'; id: number }
  | { type: 'chat_failed'; id: number; code: string; message: string };
