// What the Models panel and the first screen say about local models, in words and sizes a person
// reads at a glance. The figures come from the catalogue and the capability check; nothing here
// measures or guesses anything itself.

import { modelAvailability, type WebGpuReport } from '../../../workers/backends/webllm/capabilities.ts';
import { kvCacheBytes, type LocalModel } from '../../../workers/backends/webllm/catalogue.ts';
import type { LoadProgress } from '../../../workers/backends/webllm/loadProgress.ts';
import { formatBytes, formatCount } from '../../format.ts';

/** GPU memory from web-llm's MiB figures, in the GB (GiB) the capability check also uses. */
export function formatMegabytes(megabytes: number): string {
  return `${(megabytes / 1024).toFixed(1)} GB`;
}

/** "45 s", "2 min 5 s". */
export function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

const WINDOWS = [2048, 4096, 8192, 16384, 24576, 32768, 40960];

export interface ContextWindowChoice {
  tokens: number;
  kvCacheBytes: number;
  label: string;
}

/** The context windows a model can be loaded with, each with the KV-cache memory it reserves. */
export function contextWindowChoices(model: LocalModel): ContextWindowChoice[] {
  return WINDOWS.filter((tokens) => tokens <= model.architecture.maxContextWindow).map((tokens) => {
    const bytes = kvCacheBytes(model, tokens);
    return { tokens, kvCacheBytes: bytes, label: `${formatCount(tokens)} tokens (KV cache ${formatBytes(bytes)})` };
  });
}

/** One line under the progress bar: the phase, how far, how long is left. */
export function describeProgress(progress: LoadProgress | null): string {
  if (!progress || progress.phase === 'starting') return 'Starting…';
  const amount =
    progress.bytesLoaded !== undefined && progress.bytesTotal !== undefined
      ? `: ${formatBytes(progress.bytesLoaded)} of ${formatBytes(progress.bytesTotal)}`
      : '';
  const left = progress.secondsLeft !== undefined ? ` · about ${formatSeconds(progress.secondsLeft)} left` : '';
  switch (progress.phase) {
    case 'downloading':
      return `Downloading${amount}${left}`;
    case 'loading':
      return `${progress.fromCache ? 'Loading from the browser cache' : 'Copying to the GPU'}${amount}${left}`;
    case 'compiling':
      return `Compiling GPU shaders${left}`;
    case 'ready':
      return 'Ready';
  }
}

/** What this browser can do with local models, in one or two sentences for the first screen. */
export function describeLocalModels(report: WebGpuReport, models: readonly LocalModel[]): string[] {
  if (!report.usable) {
    return [
      'web-llm’s models cannot run in this browser (they need WebGPU). GGUF models can, on the CPU with llama.cpp: load one under “GGUF models (llama.cpp)” in Models in this browser. Remote models still can: set an OpenAI-compatible or Anthropic endpoint in Setup, or import a config.',
      'For a demo with no model and no key, press “Try the demo” on the first screen.',
    ];
  }
  const runnable = models.filter((model) => modelAvailability(model, report).available);
  const which = report.shaderF16 ? '' : ' (the q4f32 ones: this GPU has no shader-f16)';
  return [
    `${runnable.length} of ${models.length} models in the catalogue can run here${which}, as the orchestrator or as $0 experts: no API key needed. Load one in Models in this browser.`,
  ];
}
