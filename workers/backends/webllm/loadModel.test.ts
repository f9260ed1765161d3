import { MLCEngine } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { BackendError } from '../../engine/errors.ts';
import { buildAppConfig } from './appConfig.ts';
import { customOrchestrator8bRecord, findLocalModel, QWEN3_MODELS, type LocalModel } from './catalogue.ts';
import { loadWebLlmModel } from './loadModel.ts';
import type { LoadProgress } from './loadProgress.ts';
import { FakeWebLlmEngine, type FakeLoad } from '../../../e2e/fixtures/doubles/fakeWebLlmEngine.ts';

function model(id: string): LocalModel {
  const found = findLocalModel(id);
  if (!found) throw new Error(`no model ${id}`);
  return found;
}

const QWEN = model('Qwen3-1.7B-q4f32_1-MLC');
const APP_CONFIG = buildAppConfig(QWEN3_MODELS);

async function load(loads: FakeLoad[], options: { contextWindow?: number; signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {}) {
  const engine = new FakeWebLlmEngine({ loads, adapterDescription: 'NVIDIA H200' });
  const progress: LoadProgress[] = [];
  try {
    const loaded = await loadWebLlmModel({
      engine,
      appConfig: APP_CONFIG,
      model: QWEN,
      ...options,
      onProgress: (p) => {
        progress.push(p);
        options.onProgress?.(p);
      },
    });
    return { engine, progress, loaded };
  } catch (error) {
    if (!(error instanceof BackendError)) throw error;
    return { engine, progress, error };
  }
}

describe('loadWebLlmModel', () => {
  it('loads with the app config and context window, reporting one bar to ready', async () => {
    const { engine, progress, loaded } = await load([{}], { contextWindow: 8192 });
    expect(loaded).toMatchObject({ modelId: QWEN.id, contextWindow: 8192, fromCache: false });
    expect(engine.reloads).toEqual([{ modelId: QWEN.id, chatOpts: { context_window_size: 8192 } }]);
    expect(engine.appConfig).toEqual(APP_CONFIG);
    expect(engine.loadedModelId).toBe(QWEN.id);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['starting', 'downloading', 'loading', 'compiling', 'ready']));
    expect(progress.at(-1)).toMatchObject({ phase: 'ready', fraction: 1, text: 'Finish loading on WebGPU - NVIDIA H200' });
  });

  it('says when the weights came from the browser cache', async () => {
    const { loaded, progress } = await load([{ cached: true }]);
    expect(loaded?.fromCache).toBe(true);
    expect(progress.some((p) => p.phase === 'downloading')).toBe(false);
  });

  it('cancels a download within 200 ms through unload(), and reports nothing after', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const { engine, progress, error } = await load([{ stepDelayMs: 40 }], {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'downloading' && abortedAt === 0) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    });
    expect(error?.code).toBe('aborted');
    expect(performance.now() - abortedAt).toBeLessThan(200);
    expect(engine.unloadCount).toBe(1);
    expect(engine.loadedModelId).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(progress.at(-1)?.phase).toBe('downloading');
  });

  it('turns a failed load into a BackendError that says what to do', async () => {
    const lost = await load([{ error: { kind: 'device_lost', afterReports: 12 } }]);
    expect(lost.error?.code).toBe('out_of_memory');
    expect(lost.error?.description).toMatch(/smaller model or a shorter context window/);
    expect(lost.progress).toHaveLength(12);
    const f16 = await load([{ error: { kind: 'shader_f16', asString: true } }]);
    expect(f16.error?.description).toBe(`"${QWEN.id}" needs the WebGPU feature shader-f16, which this GPU lacks. Use the q4f32 variant of the same model.`);
    const quota = await load([{ error: { kind: 'quota', afterReports: 3 } }]);
    expect(quota.error?.description).toMatch(/storage quota is used up. Delete cached models/);
  });

  it("refuses a model that is not in the app config, with a real web-llm engine", async () => {
    const custom = customOrchestrator8bRecord({ weightsUrl: 'https://example.org/orchestrator-8b' });
    await expect(loadWebLlmModel({ engine: new MLCEngine(), appConfig: APP_CONFIG, model: custom })).rejects.toMatchObject({
      code: 'not_found',
      description: `web-llm has no model record for "${custom.id}". Check the model id, and that its record is in the app config.`,
    });
  });

  it('refuses a context window the model cannot take before touching the engine', async () => {
    const engine = new FakeWebLlmEngine();
    await expect(loadWebLlmModel({ engine, appConfig: APP_CONFIG, model: QWEN, contextWindow: 100_000 })).rejects.toThrow(
      'trained for at most 40960 tokens',
    );
    expect(engine.reloads).toHaveLength(0);
  });
});
