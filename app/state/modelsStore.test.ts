import { describe, expect, it } from 'vitest';
import type { LoadProgress } from '../../workers/backends/webllm/loadProgress.ts';
import { applyModelState, createModelsStore, type ModelsState } from './modelsStore.ts';

const progress: LoadProgress = { phase: 'downloading', fraction: 0.4, phaseFraction: 0.45, fromCache: false, text: '' };
const loaded = { id: 'Qwen3-0.6B-q4f32_1-MLC', label: 'Qwen3 0.6B (q4f32)', contextWindow: 4096, fromCache: false, seconds: 3.2 };

describe('applyModelState', () => {
  const before: ModelsState = {
    ...createModelsStore().getInitialState(),
    loading: { 'Qwen3-4B-q4f32_1-MLC': progress, [loaded.id]: progress },
    failures: { 'Qwen3-8B-q4f32_1-MLC': { code: 'out_of_memory', message: 'earlier' } },
  };

  it('keeps the progress of models still loading and takes the loaded list as the worker says', () => {
    const next = applyModelState(before, { loaded: [loaded], loading: ['Qwen3-4B-q4f32_1-MLC', 'Qwen3-1.7B-q4f32_1-MLC'] });
    expect(next.loaded).toEqual([loaded]);
    expect(next.loading).toEqual({ 'Qwen3-4B-q4f32_1-MLC': progress, 'Qwen3-1.7B-q4f32_1-MLC': null });
    expect(next.failures).toBeUndefined();
  });

  it('records a failure beside the earlier ones of other models', () => {
    const next = applyModelState(before, { loaded: [], loading: [], failure: { modelId: loaded.id, code: 'storage_quota', message: 'full' } });
    expect(next.failures).toEqual({
      'Qwen3-8B-q4f32_1-MLC': { code: 'out_of_memory', message: 'earlier' },
      [loaded.id]: { code: 'storage_quota', message: 'full' },
    });
    expect(next.loading).toEqual({});
  });
});
