// GGUF models for llama.cpp in the tab (wllama): Qwen3 0.6B–8B from Qwen's own GGUF repositories
// and community quantisations of NVIDIA's Orchestrator-8B, each with the repository and file it
// comes from, its licence, its size and the memory it needs.
//
// None of these was downloaded or run here (no hub access on the machine this was written on):
// sizes are approximate, from the architecture (the same as Qwen3-8B for Orchestrator-8B, a
// fine-tune of it), and `tried` says so. docs/orchestrator-8b-in-the-browser.md has the recipe
// to check one end to end. What did run is a tiny random Qwen3 of the same architecture
// (e2e/fixtures/tinyGguf.ts, e2e/gguf.spec.ts).

const MB = 1_000_000;

/** wllama's README: one file at most 2 GB (an ArrayBuffer's limit); a bigger model must be split
 * with llama.cpp's `llama-gguf-split`, and the first part's URL loads all parts. */
export const GGUF_MAX_FILE_BYTES = 2 * 1024 ** 3;

export interface GgufCatalogueEntry {
  id: string;
  label: string;
  /** Hugging Face repository and file. */
  repo: string;
  file: string;
  quantization: string;
  /** Approximate size of the file. */
  approxBytes: number;
  licence: string;
  /** For the memory figure: KV cache bytes per token of context (f16 keys and values). */
  kvBytesPerToken: number;
  /** Transformer blocks (llama.cpp's layers), for the WebGPU layer setting's figure. */
  layers: number;
  /** False for every entry: not downloaded or run by this project (see the top of the file). */
  tried: false;
  notes?: string;
}

/** layers × KV heads × head size × 2 (keys and values) × 2 bytes (f16). */
const kvBytes = (layers: number, kvHeads = 8, headDim = 128) => layers * kvHeads * headDim * 2 * 2;

const QWEN_LICENCE = 'Apache-2.0';
const ORCHESTRATOR_LICENCE = "NVIDIA's licence for Nemotron-Orchestrator-8B (research and development only; read it on the model's page)";
const ORCHESTRATOR_REPO = 'bartowski/nvidia_Orchestrator-8B-GGUF';

export const GGUF_CATALOGUE: readonly GgufCatalogueEntry[] = [
  { id: 'Qwen3-0.6B-Q8_0.gguf', label: 'Qwen3 0.6B (Q8_0)', repo: 'Qwen/Qwen3-0.6B-GGUF', file: 'Qwen3-0.6B-Q8_0.gguf', quantization: 'Q8_0', approxBytes: 640 * MB, licence: QWEN_LICENCE, kvBytesPerToken: kvBytes(28), layers: 28, tried: false },
  { id: 'Qwen3-1.7B-Q8_0.gguf', label: 'Qwen3 1.7B (Q8_0)', repo: 'Qwen/Qwen3-1.7B-GGUF', file: 'Qwen3-1.7B-Q8_0.gguf', quantization: 'Q8_0', approxBytes: 1_830 * MB, licence: QWEN_LICENCE, kvBytesPerToken: kvBytes(28), layers: 28, tried: false },
  { id: 'Qwen3-4B-Q4_K_M.gguf', label: 'Qwen3 4B (Q4_K_M)', repo: 'Qwen/Qwen3-4B-GGUF', file: 'Qwen3-4B-Q4_K_M.gguf', quantization: 'Q4_K_M', approxBytes: 2_500 * MB, licence: QWEN_LICENCE, kvBytesPerToken: kvBytes(36), layers: 36, tried: false },
  { id: 'Qwen3-8B-Q4_K_M.gguf', label: 'Qwen3 8B (Q4_K_M)', repo: 'Qwen/Qwen3-8B-GGUF', file: 'Qwen3-8B-Q4_K_M.gguf', quantization: 'Q4_K_M', approxBytes: 5_030 * MB, licence: QWEN_LICENCE, kvBytesPerToken: kvBytes(36), layers: 36, tried: false },
  {
    id: 'nvidia_Orchestrator-8B-Q4_K_M.gguf',
    label: 'Orchestrator-8B (Q4_K_M)',
    repo: ORCHESTRATOR_REPO,
    file: 'nvidia_Orchestrator-8B-Q4_K_M.gguf',
    quantization: 'Q4_K_M',
    approxBytes: 5_030 * MB,
    licence: ORCHESTRATOR_LICENCE,
    kvBytesPerToken: kvBytes(36), layers: 36,
    tried: false,
    notes: 'The model the paper trained, quantised by the community (bartowski).',
  },
  {
    id: 'nvidia_Orchestrator-8B-IQ2_M.gguf',
    label: 'Orchestrator-8B (IQ2_M, smallest)',
    repo: ORCHESTRATOR_REPO,
    file: 'nvidia_Orchestrator-8B-IQ2_M.gguf',
    quantization: 'IQ2_M',
    approxBytes: 3_050 * MB,
    licence: ORCHESTRATOR_LICENCE,
    kvBytesPerToken: kvBytes(36), layers: 36,
    tried: false,
    notes: 'Fits less memory; 2-bit quantisation costs quality, and wllama advises against IQ quantisations on the CPU (slow).',
  },
];

export function ggufDownloadUrl(entry: Pick<GgufCatalogueEntry, 'repo' | 'file'>): string {
  return `https://huggingface.co/${entry.repo}/resolve/main/${entry.file}`;
}

/** Memory the model needs at a context window: its weights plus the KV cache for the window. */
export function ggufMemoryBytes(entry: GgufCatalogueEntry, contextWindow: number): number {
  return entry.approxBytes + entry.kvBytesPerToken * contextWindow;
}

/** GPU memory for `gpuLayers` layers on WebGPU before the file is read: its size spread evenly
 * over its layers, plus their share of the KV cache (the loaded line gives the figure from the
 * file's own tensors, workers/backends/gguf/ggufHeader.ts). */
export function ggufGpuLayersEstimate(entry: GgufCatalogueEntry, gpuLayers: number, contextWindow: number): { layers: number; blocks: number; bytes: number } {
  const layers = Math.max(0, Math.min(gpuLayers, entry.layers));
  const share = layers / entry.layers;
  return { layers, blocks: entry.layers, bytes: Math.round((entry.approxBytes + entry.kvBytesPerToken * contextWindow) * share) };
}

/** Whether the file is too big for wllama as one file (split it first). */
export function needsSplit(bytes: number): boolean {
  return bytes > GGUF_MAX_FILE_BYTES;
}

/** The file name a GGUF address ends in: a model's id and label when loaded from it. */
export function ggufFileName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? url);
}

/** A URL from what a user typed: a full http(s) URL of a .gguf file, or a Hugging Face
 * `owner/repo/path/file.gguf`. Throws an error that says what is expected. */
export function ggufUrlFromInput(input: string): string {
  const text = input.trim();
  if (/^https?:\/\//i.test(text)) {
    const url = new URL(text);
    if (url.username || url.password) throw new Error('Give the URL without a user name or password.');
    if (!/\.gguf$/i.test(url.pathname)) throw new Error('The URL must name a .gguf file (for a split model, its first part).');
    return url.href;
  }
  const match = /^([\w.-]+)\/([\w.-]+)\/((?:[\w.-]+\/)*[\w.-]+\.gguf)$/i.exec(text);
  if (!match) throw new Error('Give a .gguf URL, or a Hugging Face owner/repository/file.gguf.');
  return ggufDownloadUrl({ repo: `${match[1]}/${match[2]}`, file: match[3]! });
}
