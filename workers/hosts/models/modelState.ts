// What the page is told about the models loaded in this browser (web-llm's and GGUF's alike), and
// what it asks to load: plain data that crosses postMessage. modelRegistry.ts keeps it.

import { ggufKind } from '../../backends/gguf/kind.ts';
import type { CustomOrchestratorOptions } from '../../backends/webllm/catalogue.ts';
import { webLlmKind } from '../../backends/webllm/kind.ts';

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

/** The backend kind whose providers run a model loaded here: llama.cpp's for a GGUF model, else
 * web-llm's. */
export function loadedModelKind(model: Pick<LoadedLocalModel, 'gguf'>): string {
  return model.gguf ? ggufKind.kind : webLlmKind.kind;
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

/** Where a GGUF model comes from: a URL (downloaded once, then kept in wllama's cache in the
 * origin's private file system) or a file the user picked (read in place, never uploaded). */
export type GgufSource = { kind: 'url'; url: string } | { kind: 'file'; file: Blob; name: string };

/** Where a loaded GGUF model runs, in the model worker's words. */
export interface GgufRuntime {
  contextWindow: number;
  threads: number;
  /** Whether layers went to WebGPU; `cpuReason` says why not when they did not. */
  webgpu: boolean;
  cpuReason?: string;
  seconds: number;
  fromCache: boolean;
  /** The layer count asked for (n_gpu_layers) and what it takes, when it was above 0. */
  gpuLayers?: GgufGpuLayers;
  /** Whether the model's vocabulary has `<think>` and `</think>` as tokens (Qwen3's does): the
   * tool-call grammar then leaves the thinking before a call free; otherwise it allows the call
   * alone. False where the file's header could not be read. */
  thinkTokens: boolean;
}

/** Layers asked to go to WebGPU, of the model's `blocks`, and the GPU memory that takes: an
 * estimate from the file's tensors (those layers' weights, the output layer when every layer is
 * asked for) and their KV cache at the loaded window; llama.cpp's scratch buffers come on top. */
export interface GgufGpuLayers {
  asked: number;
  blocks: number;
  estimateBytes: number;
}

/** A GGUF model to load: the id runs name it by (a gguf provider's `model`). */
export interface GgufModelRequest {
  id: string;
  label: string;
  source: GgufSource;
  contextWindow: number;
  threads: number;
  gpuLayers: number;
  /** A fixed sampling seed for every request (tests); absent in the playground. */
  seed?: number;
}
