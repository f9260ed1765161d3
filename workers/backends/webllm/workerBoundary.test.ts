import { WebWorkerMLCEngine } from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../engine/types.ts';
import { BackendError } from '../../engine/errors.ts';
import { buildAppConfig } from './appConfig.ts';
import { findLocalModel, QWEN3_MODELS } from './catalogue.ts';
import { loadWebLlmModel } from './loadModel.ts';
import type { LoadProgress } from './loadProgress.ts';
import { serveFakeEngine } from '../../../e2e/fixtures/doubles/fakeEngineWorker.ts';
import { FakeWebLlmEngine, type FakeEngineScript } from '../../../e2e/fixtures/doubles/fakeWebLlmEngine.ts';
import { createWebLlmModel } from './webllmModel.ts';

// web-llm's own page-side proxy (WebWorkerMLCEngine) over a real MessageChannel, with the fake
// engine behind web-llm's worker protocol: everything crosses as structured clones, and errors
// as strings, as between a page and a worker.
const model = findLocalModel('Qwen3-4B-q4f32_1-MLC');
if (!model) throw new Error('catalogue lost Qwen3-4B');

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function connect(script: FakeEngineScript) {
  const fake = new FakeWebLlmEngine(script);
  const channel = new MessageChannel();
  channels.push(channel);
  const serve = serveFakeEngine(fake, (response) => channel.port2.postMessage(response));
  channel.port2.onmessage = (event) => serve(event.data);
  const engine = new WebWorkerMLCEngine(channel.port1);
  return { fake, engine };
}

describe('through web-llm’s WebWorkerMLCEngine', () => {
  it('loads with progress, then streams a completion with usage', async () => {
    const { fake, engine } = connect({
      replies: [{ deltas: ['2+2', ' is 4'], usage: { promptTokens: 30, extra: { decode_tokens_per_s: 12.5, time_to_first_token_s: 0.5, e2e_latency_s: 0.7 } } }],
    });
    const progress: LoadProgress[] = [];
    const loaded = await loadWebLlmModel({ engine, appConfig: buildAppConfig(QWEN3_MODELS), model, onProgress: (p) => progress.push(p) });
    expect(loaded).toMatchObject({ modelId: model.id, fromCache: false });
    expect(fake.reloads).toEqual([{ modelId: model.id, chatOpts: { context_window_size: 4096 } }]);
    expect(progress.at(-1)).toMatchObject({ phase: 'ready', fraction: 1 });

    const deltas: ChatDelta[] = [];
    const completion = await createWebLlmModel({ engine, modelId: model.id }).complete(
      { messages: [{ role: 'user', content: '2+2?' }], enableThinking: false },
      (delta) => deltas.push(delta),
    );
    expect(completion).toMatchObject({
      content: '<think>\n\n</think>\n\n2+2 is 4',
      finishReason: 'stop',
      model: model.id,
      usage: { promptTokens: 30, completionTokens: 2, decodeTokensPerSecond: 12.5 },
      timings: { timeToFirstTokenMs: 500, totalMs: 700 },
    });
    expect(deltas).toHaveLength(2);
    expect(fake.requests[0]).toMatchObject({ model: model.id, extra_body: { enable_thinking: false }, stream_options: { include_usage: true } });
  });

  it('classifies a failure that crossed the worker as a string', async () => {
    const { engine } = connect({ replies: [{ deltas: ['a', 'b'], error: { kind: 'device_lost', afterDeltas: 1 } }] });
    // The proxy learns the loaded model only through reload().
    await engine.reload(model.id);
    const chat = createWebLlmModel({ engine, modelId: model.id });
    const error: unknown = await chat.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).code).toBe('out_of_memory');
    expect((error as BackendError).description).toMatch(/^The GPU gave up while running/);
    expect(((error as BackendError).cause as string).startsWith('DeviceLostError: ')).toBe(true);
  });

  it('aborts within 200 ms, interrupting the worker, and the model is free for the next call', async () => {
    const { fake, engine } = connect({ chunkDelayMs: 40, replies: [{ deltas: Array.from({ length: 30 }, () => 'x') }, { deltas: ['ok'] }] });
    await engine.reload(model.id);
    const chat = createWebLlmModel({ engine, modelId: model.id });
    const controller = new AbortController();
    let abortedAt = 0;
    const error: unknown = await chat
      .complete({ messages: [{ role: 'user', content: 'go' }], signal: controller.signal }, () => {
        if (abortedAt === 0) {
          abortedAt = performance.now();
          controller.abort();
        }
      })
      .catch((thrown: unknown) => thrown);
    expect((error as BackendError).code).toBe('aborted');
    expect(performance.now() - abortedAt).toBeLessThan(200);
    const next = await chat.complete({ messages: [{ role: 'user', content: 'again' }] });
    expect(next.content).toBe('ok');
    expect(fake.interruptCount).toBeGreaterThanOrEqual(1);
    expect(fake.generations[0]?.finishReason).toBe('abort');
  });
});
