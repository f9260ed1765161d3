import { describe, expect, it } from 'vitest';
import { assessWebGpu, type WebGpuProbe } from '../../../workers/backends/webllm/capabilities.ts';
import { findLocalModel, QWEN3_MODELS } from '../../../workers/backends/webllm/catalogue.ts';
import { formatBytes } from '../../format.ts';
import { contextWindowChoices, describeLocalModels, describeProgress, formatSeconds } from './figures.ts';

const swiftShader: WebGpuProbe = {
  kind: 'adapter',
  vendor: 'google',
  architecture: 'swiftshader',
  description: '',
  isFallbackAdapter: true,
  features: ['depth-clip-control'],
  limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 },
};

describe('figures', () => {
  it('formats sizes and times as a person reads them', () => {
    expect(formatBytes(850_000_000)).toBe('850 MB');
    expect(formatBytes(1_234_000_000)).toBe('1.2 GB');
    expect(formatSeconds(45.4)).toBe('45 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
  });

  it('offers context windows up to the model’s maximum, each with its KV memory', () => {
    const model = findLocalModel('Qwen3-8B-q4f16_1-MLC');
    if (!model) throw new Error('catalogue lost Qwen3-8B');
    const choices = contextWindowChoices(model);
    expect(choices.at(-1)?.tokens).toBe(40960);
    // 36 layers × 8 KV heads × 128 × 2 (key, value) × 2 bytes = 144 KiB per token.
    expect(choices.find((choice) => choice.tokens === 4096)).toEqual({ tokens: 4096, kvCacheBytes: 603_979_776, label: '4,096 tokens (KV cache 604 MB)' });
  });

  it('says which phase a load is in, how far, and how long is left', () => {
    expect(describeProgress(null)).toBe('Starting…');
    expect(
      describeProgress({ phase: 'downloading', fraction: 0.3, phaseFraction: 0.35, bytesLoaded: 350e6, bytesTotal: 1e9, secondsLeft: 75, fromCache: false, text: '' }),
    ).toBe('Downloading: 350 MB of 1.0 GB · about 1 min 15 s left');
    expect(describeProgress({ phase: 'loading', fraction: 0.5, phaseFraction: 0.5, fromCache: true, text: '' })).toBe('Loading from the browser cache');
    expect(describeProgress({ phase: 'compiling', fraction: 0.9, phaseFraction: 0.5, secondsLeft: 3, fromCache: true, text: '' })).toBe(
      'Compiling GPU shaders · about 3 s left',
    );
  });

  it('tells the first screen what local models can do here, from the adapter’s report', () => {
    expect(describeLocalModels(assessWebGpu(swiftShader), QWEN3_MODELS)).toEqual([
      '4 of 8 models in the catalogue can run here (the q4f32 ones: this GPU has no shader-f16), as the orchestrator or as $0 experts: no API key needed. Load one in Models in this browser.',
    ]);
    expect(describeLocalModels(assessWebGpu({ kind: 'no-adapter' }), QWEN3_MODELS)[0]).toMatch(/^web-llm’s models cannot run in this browser \(they need WebGPU\)\. GGUF models can, on the CPU with llama\.cpp: .* Remote models still can: .*Setup/);
  });
});
