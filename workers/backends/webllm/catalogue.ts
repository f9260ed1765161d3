// The local models: the Qwen3 family as web-llm 0.2.86 publishes it, plus a user's own
// conversion of Orchestrator-8B. Each can be the orchestrator or a local $0 expert.
//
// Plain data and arithmetic only (web-llm is imported for its types), so the UI can list models
// without loading web-llm's 6 MB bundle. catalogue.test.ts checks every record here against
// web-llm's own prebuiltAppConfig, so an upgrade that changes them fails loudly.

import type { ChatOptions, ModelRecord } from '@mlc-ai/web-llm';

/** web-llm's `modelVersion` and `modelLibURLPrefix` for 0.2.86: where its prebuilt model libraries
 * (.wasm) live. A model library must match the web-llm runtime that loads it. */
export const WEBLLM_MODEL_VERSION = 'v0_2_86/base';
export const MODEL_LIB_URL_PREFIX = 'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/';

export type Quantization = 'q4f16_1' | 'q4f32_1';
export type Qwen3Size = '0.6B' | '1.7B' | '4B' | '8B';

/** The shape numbers of a Qwen3 checkpoint (its Hugging Face config.json). */
export interface Architecture {
  layers: number;
  hiddenSize: number;
  attentionHeads: number;
  kvHeads: number;
  headDim: number;
  intermediateSize: number;
  vocabSize: number;
  tiedEmbeddings: boolean;
  /** `max_position_embeddings`: the longest context the model was trained for. */
  maxContextWindow: number;
}

const QWEN3_VOCAB = 151_936;
const QWEN3_MAX_CONTEXT = 40_960;

export const QWEN3_ARCHITECTURES: Record<Qwen3Size, Architecture> = {
  '0.6B': { layers: 28, hiddenSize: 1024, attentionHeads: 16, kvHeads: 8, headDim: 128, intermediateSize: 3072, vocabSize: QWEN3_VOCAB, tiedEmbeddings: true, maxContextWindow: QWEN3_MAX_CONTEXT },
  '1.7B': { layers: 28, hiddenSize: 2048, attentionHeads: 16, kvHeads: 8, headDim: 128, intermediateSize: 6144, vocabSize: QWEN3_VOCAB, tiedEmbeddings: true, maxContextWindow: QWEN3_MAX_CONTEXT },
  '4B': { layers: 36, hiddenSize: 2560, attentionHeads: 32, kvHeads: 8, headDim: 128, intermediateSize: 9728, vocabSize: QWEN3_VOCAB, tiedEmbeddings: true, maxContextWindow: QWEN3_MAX_CONTEXT },
  '8B': { layers: 36, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, headDim: 128, intermediateSize: 12288, vocabSize: QWEN3_VOCAB, tiedEmbeddings: false, maxContextWindow: QWEN3_MAX_CONTEXT },
};

/** web-llm's `vram_required_MB` for each prebuilt record (its figure at the records' default
 * context window of 4096 tokens). */
const PREBUILT_VRAM_MB: Record<Qwen3Size, Record<Quantization, number>> = {
  '0.6B': { q4f16_1: 1403.34, q4f32_1: 1924.98 },
  '1.7B': { q4f16_1: 2036.66, q4f32_1: 2635.44 },
  '4B': { q4f16_1: 3431.59, q4f32_1: 4327.71 },
  '8B': { q4f16_1: 5695.78, q4f32_1: 6852.55 },
};

export const PREBUILT_CONTEXT_WINDOW = 4096;

export type ModelRole = 'orchestrator' | 'expert';

export interface LocalModel {
  /** web-llm's `model_id`, also the id the ChatModel reports and prices are keyed by. */
  id: string;
  label: string;
  size: Qwen3Size;
  quantization: Quantization;
  architecture: Architecture;
  parameters: number;
  /** Estimated download of the parameter shards (see `estimateDownloadBytes`); the tokenizer
   * and config files add about 10 MB. */
  downloadBytesEstimate: number;
  /** web-llm's figure at the default context window. */
  vramRequiredMB: number;
  defaultContextWindow: number;
  requiresShaderF16: boolean;
  /** web-llm's `low_resource_required`: whether it can run on a limited device (a phone). */
  lowResource: boolean;
  roles: readonly ModelRole[];
  /** A user's own weights rather than a web-llm prebuilt. */
  custom: boolean;
  /** The record handed to web-llm (through `buildAppConfig`). Plain data: it crosses postMessage. */
  record: ModelRecord;
}

const ROLES: readonly ModelRole[] = ['orchestrator', 'expert'];

/** Weight count of a Qwen3 checkpoint: attention (q, k, v, o) and MLP (gate, up, down)
 * projections per layer plus the embedding, and a separate output head when not tied. */
export function countParameters(arch: Architecture): { quantized: number; other: number } {
  const qOut = arch.attentionHeads * arch.headDim;
  const kvOut = arch.kvHeads * arch.headDim;
  const attention = arch.hiddenSize * qOut + 2 * arch.hiddenSize * kvOut + qOut * arch.hiddenSize;
  const mlp = 3 * arch.hiddenSize * arch.intermediateSize;
  const embedding = arch.vocabSize * arch.hiddenSize;
  const quantized = arch.layers * (attention + mlp) + embedding * (arch.tiedEmbeddings ? 1 : 2);
  // Two RMSNorms per layer, q/k norms per layer (Qwen3), and the final norm.
  const other = arch.layers * (2 * arch.hiddenSize + 2 * arch.headDim) + arch.hiddenSize;
  return { quantized, other };
}

/** Estimated bytes of MLC's parameter shards. q4f16_1 and q4f32_1 quantize every linear layer
 * and the embedding in groups of 32 (mlc_llm/quantization/quantization.py): 4 bits per weight
 * plus one scale per group, and the norms stay unquantized. Scales and norms count 2 bytes in
 * both: q4f32_1 shards can hold f32 tensors as bfloat16 ("f32-to-bf16", widened by web-llm on
 * load), and mlc-ai's q4f32_1 builds are as large as their q4f16_1 ones. So 18 bytes per 32
 * weights. An estimate from the architecture, not a listing of the published files. */
export function estimateDownloadBytes(arch: Architecture): number {
  const { quantized, other } = countParameters(arch);
  return (quantized * 18) / 32 + other * 2;
}

/** Bytes of KV cache for `contextWindow` tokens: for every layer, a key and a value (× 2) of
 * kv heads × head dim elements per token, each 2 bytes in f16 models and 4 in f32 ones.
 * Qwen3-8B in f16: 36 × 8 × 128 × 2 × 2 = 144 KiB per token. web-llm allocates it for the
 * whole window when the model loads. */
export function kvCacheBytes(model: Pick<LocalModel, 'architecture' | 'quantization'>, contextWindow: number): number {
  const { layers, kvHeads, headDim } = model.architecture;
  const bytesPerElement = model.quantization === 'q4f16_1' ? 2 : 4;
  return layers * kvHeads * headDim * 2 * bytesPerElement * contextWindow;
}

const MIB = 1024 * 1024;

/** web-llm's VRAM figure plus the KV cache a window larger (or smaller) than the default adds. */
export function estimateVramMB(model: LocalModel, contextWindow = model.defaultContextWindow): number {
  const extra = kvCacheBytes(model, contextWindow) - kvCacheBytes(model, model.defaultContextWindow);
  return Math.round(model.vramRequiredMB + extra / MIB);
}

/** The chat options that set the context window at load (web-llm's `context_window_size`). */
export function contextWindowOptions(model: LocalModel, contextWindow: number): ChatOptions {
  if (!Number.isInteger(contextWindow) || contextWindow < 512) {
    throw new Error(`The context window must be a whole number of at least 512 tokens (got ${contextWindow}).`);
  }
  if (contextWindow > model.architecture.maxContextWindow) {
    throw new Error(
      `${model.label} was trained for at most ${model.architecture.maxContextWindow} tokens of context (asked for ${contextWindow}).`,
    );
  }
  return { context_window_size: contextWindow };
}

function modelLibUrl(size: Qwen3Size, quantization: Quantization): string {
  return `${MODEL_LIB_URL_PREFIX}${WEBLLM_MODEL_VERSION}/Qwen3-${size}-${quantization}_cs1k-webgpu.wasm`;
}

function qwen3Model(size: Qwen3Size, quantization: Quantization): LocalModel {
  const id = `Qwen3-${size}-${quantization}-MLC`;
  const architecture = QWEN3_ARCHITECTURES[size];
  const requiresShaderF16 = quantization === 'q4f16_1';
  const lowResource = size !== '8B';
  const { quantized, other } = countParameters(architecture);
  const vramRequiredMB = PREBUILT_VRAM_MB[size][quantization];
  const record: ModelRecord = {
    model: `https://huggingface.co/mlc-ai/${id}`,
    model_id: id,
    model_lib: modelLibUrl(size, quantization),
    vram_required_MB: vramRequiredMB,
    low_resource_required: lowResource,
    overrides: { context_window_size: PREBUILT_CONTEXT_WINDOW },
    // web-llm's prebuilt Qwen3 records omit this, so a GPU without shader-f16 would fail late,
    // compiling shaders; with it, reload() fails at once with ShaderF16SupportError.
    ...(requiresShaderF16 ? { required_features: ['shader-f16'] } : {}),
  };
  return {
    id,
    label: `Qwen3 ${size} (${quantization === 'q4f16_1' ? 'q4f16' : 'q4f32'})`,
    size,
    quantization,
    architecture,
    parameters: quantized + other,
    downloadBytesEstimate: estimateDownloadBytes(architecture),
    vramRequiredMB,
    defaultContextWindow: PREBUILT_CONTEXT_WINDOW,
    requiresShaderF16,
    lowResource,
    roles: ROLES,
    custom: false,
    record,
  };
}

const SIZES: readonly Qwen3Size[] = ['0.6B', '1.7B', '4B', '8B'];
const QUANTIZATIONS: readonly Quantization[] = ['q4f16_1', 'q4f32_1'];

/** Qwen3 0.6B to 8B, each in q4f16_1 (needs shader-f16) and q4f32_1, smallest first. */
export const QWEN3_MODELS: readonly LocalModel[] = SIZES.flatMap((size) => QUANTIZATIONS.map((q) => qwen3Model(size, q)));

export function findLocalModel(id: string, models: readonly LocalModel[] = QWEN3_MODELS): LocalModel | undefined {
  return models.find((model) => model.id === id);
}

/** web-llm's rule for a weights URL: it ends in `/resolve/<revision>/`, or `resolve/main/` is
 * appended. Files are then fetched relative to the result (`mlc-chat-config.json`,
 * `tensor-cache.json`, `params_shard_*.bin`, tokenizer files). */
export function resolvedWeightsUrl(weightsUrl: string): string {
  let url = weightsUrl.endsWith('/') ? weightsUrl : `${weightsUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

export interface CustomOrchestratorOptions {
  /** Where the converted weights are, e.g. `https://huggingface.co/you/Orchestrator-8B-q4f16_1-MLC`. */
  weightsUrl: string;
  /** Must match how the weights were converted. Default q4f16_1. */
  quantization?: Quantization;
  /** Default `Orchestrator-8B-<quantization>-MLC`. Must differ from every prebuilt id. */
  modelId?: string;
  /** Default: the prebuilt Qwen3-8B library of the same quantization for this web-llm version. */
  modelLibUrl?: string;
  label?: string;
}

/** A record for a user's MLC conversion of Orchestrator-8B (a Qwen3-8B fine-tune): same
 * architecture, so it reuses the prebuilt Qwen3-8B model library and memory figures. */
export function customOrchestrator8bRecord(options: CustomOrchestratorOptions): LocalModel {
  const quantization = options.quantization ?? 'q4f16_1';
  if (!QUANTIZATIONS.includes(quantization)) {
    throw new Error(`Unsupported quantization "${String(quantization)}": use q4f16_1 or q4f32_1, as the weights were converted.`);
  }
  const weightsUrl = httpUrl(options.weightsUrl, 'The weights URL');
  const modelLib = options.modelLibUrl === undefined ? modelLibUrl('8B', quantization) : httpUrl(options.modelLibUrl, 'The model library URL');
  const id = (options.modelId ?? `Orchestrator-8B-${quantization}-MLC`).trim();
  if (id === '') throw new Error('The model id must not be empty.');
  if (findLocalModel(id)) throw new Error(`The model id "${id}" is taken by a prebuilt model: choose another.`);
  const base = qwen3Model('8B', quantization);
  return {
    ...base,
    id,
    label: options.label ?? `Orchestrator-8B (${quantization === 'q4f16_1' ? 'q4f16' : 'q4f32'}, your weights)`,
    custom: true,
    record: { ...base.record, model: weightsUrl, model_id: id, model_lib: modelLib },
  };
}

/** An address a model's files would come from that is not web-llm's own catalogue. */
export interface ForeignAddress {
  /** `model library`: code (WebAssembly and GPU shaders) that web-llm runs on this computer. */
  what: 'weights' | 'model library';
  url: string;
}

const CATALOGUE_LIBRARIES: ReadonlySet<string> = new Set(QWEN3_MODELS.map((model) => model.record.model_lib));

/** Where a custom model's files come from, outside the catalogue: the user's weights always, and
 * a model library other than a prebuilt one. Nothing for a catalogue model (`custom` undefined).
 * The page asks before loading from any of these (docs/security.md). */
export function addressesOutsideCatalogue(
  custom: Pick<CustomOrchestratorOptions, 'weightsUrl' | 'modelLibUrl'> | undefined,
): ForeignAddress[] {
  if (!custom) return [];
  const href = (url: string) => {
    try {
      return new URL(url.trim()).href;
    } catch {
      return url;
    }
  };
  const addresses: ForeignAddress[] = [{ what: 'weights', url: href(custom.weightsUrl) }];
  if (custom.modelLibUrl !== undefined && !CATALOGUE_LIBRARIES.has(href(custom.modelLibUrl))) {
    addresses.push({ what: 'model library', url: href(custom.modelLibUrl) });
  }
  return addresses;
}

function httpUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`${what} must be a full URL starting with https:// (got ${JSON.stringify(value)}).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${what} must start with https:// (got ${JSON.stringify(value)}).`);
  }
  return url.href;
}
