import { modelLibURLPrefix, modelVersion, prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { buildAppConfig } from './appConfig.ts';
import {
  addressesOutsideCatalogue,
  contextWindowOptions,
  countParameters,
  customOrchestrator8bRecord,
  estimateVramMB,
  findLocalModel,
  kvCacheBytes,
  MODEL_LIB_URL_PREFIX,
  QWEN3_ARCHITECTURES,
  QWEN3_MODELS,
  resolvedWeightsUrl,
  WEBLLM_MODEL_VERSION,
  type LocalModel,
} from './catalogue.ts';

function model(id: string): LocalModel {
  const found = findLocalModel(id);
  if (!found) throw new Error(`no model ${id}`);
  return found;
}

const prebuilt = (id: string) => prebuiltAppConfig.model_list.find((record) => record.model_id === id);

describe('the Qwen3 catalogue', () => {
  it('matches the web-llm it was written for', () => {
    expect(WEBLLM_MODEL_VERSION).toBe(modelVersion);
    expect(MODEL_LIB_URL_PREFIX).toBe(modelLibURLPrefix);
  });

  it("holds each size in q4f16_1 and q4f32_1, each record web-llm's own plus shader-f16 where needed", () => {
    expect(QWEN3_MODELS.map((m) => m.id)).toEqual([
      'Qwen3-0.6B-q4f16_1-MLC',
      'Qwen3-0.6B-q4f32_1-MLC',
      'Qwen3-1.7B-q4f16_1-MLC',
      'Qwen3-1.7B-q4f32_1-MLC',
      'Qwen3-4B-q4f16_1-MLC',
      'Qwen3-4B-q4f32_1-MLC',
      'Qwen3-8B-q4f16_1-MLC',
      'Qwen3-8B-q4f32_1-MLC',
    ]);
    for (const m of QWEN3_MODELS) {
      const { required_features: features, ...rest } = m.record;
      expect(rest).toEqual(prebuilt(m.id));
      expect(features).toEqual(m.quantization === 'q4f16_1' ? ['shader-f16'] : undefined);
      expect(m.requiresShaderF16).toBe(m.quantization === 'q4f16_1');
      expect(m.vramRequiredMB).toBe(prebuilt(m.id)?.vram_required_MB);
      expect(m.lowResource).toBe(prebuilt(m.id)?.low_resource_required);
      expect(m.defaultContextWindow).toBe(prebuilt(m.id)?.overrides?.context_window_size);
      expect(m.roles).toEqual(['orchestrator', 'expert']);
      expect(m.custom).toBe(false);
    }
  });

  it('counts parameters as the Qwen3 model cards state them (total, and without the embedding)', () => {
    const billions = (n: number) => Math.round(n / 1e7) / 100;
    const rows = Object.entries(QWEN3_ARCHITECTURES).map(([size, arch]) => {
      const { quantized, other } = countParameters(arch);
      const embedding = arch.vocabSize * arch.hiddenSize * (arch.tiedEmbeddings ? 1 : 2);
      return [size, billions(quantized + other), billions(quantized + other - embedding)];
    });
    // Model cards: 0.6B (0.44B non-embedding), 1.7B (1.4B), 4.0B (3.6B), 8.2B (6.95B).
    expect(rows).toEqual([
      ['0.6B', 0.6, 0.44],
      ['1.7B', 1.72, 1.41],
      ['4B', 4.02, 3.63],
      ['8B', 8.19, 6.95],
    ]);
  });

  it('estimates downloads from 4-bit weights with a 16-bit scale per 32, the same for q4f16 and q4f32', () => {
    const m = model('Qwen3-8B-q4f16_1-MLC');
    const { quantized, other } = countParameters(m.architecture);
    expect(m.downloadBytesEstimate).toBe(quantized * 0.5625 + other * 2);
    expect(model('Qwen3-8B-q4f32_1-MLC').downloadBytesEstimate).toBe(m.downloadBytesEstimate);
    const sizes = QWEN3_MODELS.filter((x) => x.quantization === 'q4f16_1').map((x) => x.downloadBytesEstimate);
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
  });

  it('sizes the KV cache as layers × kv heads × head dim × 2 × bytes per element, per token', () => {
    expect(kvCacheBytes(model('Qwen3-8B-q4f16_1-MLC'), 1)).toBe(36 * 8 * 128 * 2 * 2);
    expect(kvCacheBytes(model('Qwen3-8B-q4f16_1-MLC'), 1)).toBe(144 * 1024);
    expect(kvCacheBytes(model('Qwen3-8B-q4f32_1-MLC'), 4096)).toBe(2 * kvCacheBytes(model('Qwen3-8B-q4f16_1-MLC'), 4096));
    expect(kvCacheBytes(model('Qwen3-0.6B-q4f16_1-MLC'), 4096)).toBe(28 * 8 * 128 * 2 * 2 * 4096);
  });

  it("adds the KV cache of a larger window to web-llm's VRAM figure", () => {
    const m = model('Qwen3-8B-q4f16_1-MLC');
    expect(estimateVramMB(m)).toBe(5696);
    // 28672 more tokens × 144 KiB = 4032 MiB.
    expect(estimateVramMB(m, 32768)).toBe(5696 + 4032);
    expect(estimateVramMB(m, 2048)).toBe(5696 - 288);
  });

  it('turns a context window into chat options, refusing what the model cannot take', () => {
    const m = model('Qwen3-4B-q4f32_1-MLC');
    expect(contextWindowOptions(m, 16384)).toEqual({ context_window_size: 16384 });
    expect(() => contextWindowOptions(m, 100)).toThrow('at least 512 tokens');
    expect(() => contextWindowOptions(m, 2048.5)).toThrow('whole number');
    expect(() => contextWindowOptions(m, 65536)).toThrow('trained for at most 40960 tokens');
  });
});

describe('customOrchestrator8bRecord', () => {
  const weightsUrl = 'https://huggingface.co/someone/Orchestrator-8B-q4f16_1-MLC';

  it("reuses the prebuilt Qwen3-8B model library and memory figures of the same quantization", () => {
    for (const quantization of ['q4f16_1', 'q4f32_1'] as const) {
      const custom = customOrchestrator8bRecord({ weightsUrl, quantization });
      const qwen = prebuilt(`Qwen3-8B-${quantization}-MLC`);
      expect(custom.id).toBe(`Orchestrator-8B-${quantization}-MLC`);
      expect(custom.record).toMatchObject({
        model: weightsUrl,
        model_id: custom.id,
        model_lib: qwen?.model_lib,
        vram_required_MB: qwen?.vram_required_MB,
        overrides: { context_window_size: 4096 },
      });
      expect(custom.record.required_features).toEqual(quantization === 'q4f16_1' ? ['shader-f16'] : undefined);
      expect(custom).toMatchObject({ custom: true, size: '8B', quantization, roles: ['orchestrator', 'expert'] });
    }
  });

  it('takes its own id, model library and label', () => {
    const custom = customOrchestrator8bRecord({
      weightsUrl: 'https://models.example.org/orch/resolve/v1/',
      modelId: 'my-orchestrator',
      modelLibUrl: 'https://models.example.org/libs/Qwen3-8B-q4f16_1_cs1k-webgpu.wasm',
      label: 'Mine',
    });
    expect(custom).toMatchObject({ id: 'my-orchestrator', label: 'Mine' });
    expect(custom.record.model_lib).toBe('https://models.example.org/libs/Qwen3-8B-q4f16_1_cs1k-webgpu.wasm');
  });

  it('refuses bad input with a plain message', () => {
    expect(() => customOrchestrator8bRecord({ weightsUrl: 'not a url' })).toThrow('must be a full URL starting with https://');
    expect(() => customOrchestrator8bRecord({ weightsUrl: 'ftp://example.org/w' })).toThrow('must start with https://');
    expect(() => customOrchestrator8bRecord({ weightsUrl, modelId: 'Qwen3-8B-q4f16_1-MLC' })).toThrow('taken by a prebuilt model');
    expect(() => customOrchestrator8bRecord({ weightsUrl, modelId: '  ' })).toThrow('must not be empty');
    expect(() => customOrchestrator8bRecord({ weightsUrl, quantization: 'q0f16' as never })).toThrow('Unsupported quantization "q0f16"');
  });

  it("follows web-llm's /resolve/<revision>/ rule for where the files are fetched", () => {
    expect(resolvedWeightsUrl(weightsUrl)).toBe(`${weightsUrl}/resolve/main/`);
    expect(resolvedWeightsUrl(`${weightsUrl}/resolve/abc123`)).toBe(`${weightsUrl}/resolve/abc123/`);
    expect(resolvedWeightsUrl('https://cdn.example.org/orch8b/')).toBe('https://cdn.example.org/orch8b/resolve/main/');
  });
});

describe('buildAppConfig', () => {
  it('puts our records first and keeps every other prebuilt record once', () => {
    const custom = customOrchestrator8bRecord({ weightsUrl: 'https://example.org/o8b' });
    const config = buildAppConfig([...QWEN3_MODELS, custom]);
    const ids = config.model_list.map((record) => record.model_id);
    expect(ids.slice(0, 9)).toEqual([...QWEN3_MODELS.map((m) => m.id), custom.id]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(prebuiltAppConfig.model_list.length + 1);
    expect(config.model_list.find((r) => r.model_id === 'Qwen3-8B-q4f16_1-MLC')?.required_features).toEqual(['shader-f16']);
    expect(config.cacheBackend).toBe('cache');
    expect(buildAppConfig([], { cacheBackend: 'indexeddb' }).cacheBackend).toBe('indexeddb');
    // Plain data: it crosses postMessage to a worker engine unchanged.
    expect(structuredClone(config)).toEqual(config);
  });

  it('refuses two models with one id', () => {
    const custom = customOrchestrator8bRecord({ weightsUrl: 'https://example.org/o8b' });
    expect(() => buildAppConfig([custom, custom])).toThrow('Two models share the id "Orchestrator-8B-q4f16_1-MLC"');
  });
});

describe('addressesOutsideCatalogue', () => {
  it('names a custom model’s weights, and its library unless it is a prebuilt one; nothing for the catalogue', () => {
    expect(addressesOutsideCatalogue(undefined)).toEqual([]);
    expect(addressesOutsideCatalogue({ weightsUrl: 'https://huggingface.co/you/w' })).toEqual([
      { what: 'weights', url: 'https://huggingface.co/you/w' },
    ]);
    const prebuiltLibrary = QWEN3_MODELS.find((model) => model.id === 'Qwen3-8B-q4f32_1-MLC')!.record.model_lib;
    expect(addressesOutsideCatalogue({ weightsUrl: 'https://h.example/w', modelLibUrl: prebuiltLibrary })).toHaveLength(1);
    expect(addressesOutsideCatalogue({ weightsUrl: 'https://h.example/w', modelLibUrl: 'https://evil.example/lib.wasm' })).toEqual([
      { what: 'weights', url: 'https://h.example/w' },
      { what: 'model library', url: 'https://evil.example/lib.wasm' },
    ]);
  });
});
