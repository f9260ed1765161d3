import { afterEach, describe, expect, it } from 'vitest';
import type { PythonRunner } from '../../engine/ports.ts';
import { createCorpusRetriever } from '../../../tools/search/retriever.ts';
import type { LoadProgress } from '../../backends/webllm/loadProgress.ts';
import { serveFakeEngine } from '../../../e2e/fixtures/doubles/fakeEngineWorker.ts';
import { FakeWebLlmEngine, type FakeEngineScript } from '../../../e2e/fixtures/doubles/fakeWebLlmEngine.ts';
import { parseConfig } from '../config.ts';
import type { RunEvent, RunEventOf } from '../../engine/events.ts';
import { formatToolCall } from '../../engine/qwen3/render.ts';
import { runOrchestration } from '../../engine/run.ts';
import { prepareRun, type RunEnvironment } from '../prepareRun.ts';
import { createLocalModels } from './localModels.ts';
import { type LocalModelsState } from './modelState.ts';
import { loadBackends } from '../../backends/registry.ts';

const backends = await loadBackends();

// The orchestrator worker's side of local models, with web-llm's own WebWorkerMLCEngine talking
// over a real MessageChannel to the fake engine behind web-llm's worker protocol (what a model
// worker runs): everything crosses as structured clones, failures as strings.

const ORCHESTRATOR = 'Qwen3-1.7B-q4f32_1-MLC';
const EXPERT = 'Qwen3-0.6B-q4f32_1-MLC';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

/** A model worker running the fake engine; returns the port the orchestrator worker gets. */
function modelWorker(script: FakeEngineScript): { fake: FakeWebLlmEngine; port: MessagePort } {
  const fake = new FakeWebLlmEngine(script);
  const channel = new MessageChannel();
  channels.push(channel);
  const serve = serveFakeEngine(fake, (response) => channel.port2.postMessage(response));
  channel.port2.onmessage = (event) => serve(event.data);
  return { fake, port: channel.port1 };
}

function setup() {
  const states: LocalModelsState[] = [];
  const progress: Array<{ modelId: string; progress: LoadProgress }> = [];
  const models = createLocalModels({
    onProgress: (modelId, report) => progress.push({ modelId, progress: report }),
    onChange: (state) => states.push(state),
  });
  return { models, states, progress };
}

const python: PythonRunner = {
  run: () => Promise.reject(new Error('no code in these tests')),
  dispose: () => Promise.resolve(),
};

const DOCS = [{ id: 'country-fra', title: 'France', text: 'France is a country in Western Europe. Its capital is Paris.', source: 'world-countries' as const }];

const toolCall = (name: string, args: Record<string, unknown>) => formatToolCall({ name, arguments: args });

describe('local models in the orchestrator worker', () => {
  it('loads with one progress bar and the chosen window, then hands out a ChatModel that streams', async () => {
    const { models, states, progress } = setup();
    const { fake, port } = modelWorker({ replies: [{ deltas: ['Hel', 'lo'], usage: { promptTokens: 12 } }] });
    await models.load({ id: ORCHESTRATOR }, 8192, port);
    expect(fake.reloads).toEqual([{ modelId: ORCHESTRATOR, chatOpts: { context_window_size: 8192 } }]);
    expect(states[0]).toEqual({ loaded: [], loading: [ORCHESTRATOR] });
    expect(states.at(-1)).toEqual({
      loaded: [{ id: ORCHESTRATOR, label: 'Qwen3 1.7B (q4f32)', contextWindow: 8192, fromCache: false, seconds: expect.any(Number) }],
      loading: [],
    });
    const fractions = progress.map((report) => report.progress.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(progress.at(-1)?.progress).toMatchObject({ phase: 'ready', fraction: 1 });

    const local = models.chatModel(ORCHESTRATOR, { providerName: 'local' });
    expect(local.contextWindow).toBe(8192);
    const completion = await local.model.complete({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion).toMatchObject({ content: 'Hello', usage: { promptTokens: 12, completionTokens: 2 } });
    expect(fake.requests[0]?.model).toBe(ORCHESTRATOR);
  });

  it('unloads a model: it is no longer offered to runs', async () => {
    const { models, states } = setup();
    await models.load({ id: EXPERT }, 4096, modelWorker({}).port);
    models.unload(EXPERT);
    expect(states.at(-1)).toEqual({ loaded: [], loading: [] });
    expect(() => models.chatModel(EXPERT, { providerName: 'local' })).toThrow(/is not loaded in this browser/);
  });

  it('cancels a download at once: no failure, no more progress, nothing loaded', async () => {
    const { models, states, progress } = setup();
    const { port } = modelWorker({ loads: [{ stepDelayMs: 30 }] });
    const loading = models.load({ id: EXPERT }, 4096, port);
    while (progress.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const cancelledAt = performance.now();
    models.cancel(EXPERT);
    await loading;
    expect(performance.now() - cancelledAt).toBeLessThan(100);
    expect(states.at(-1)).toEqual({ loaded: [], loading: [] });
    const reported = progress.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(progress).toHaveLength(reported);
    expect(() => models.chatModel(EXPERT, { providerName: 'local' })).toThrow(/Qwen3 0.6B \(q4f32\) \(provider "local"\) is not loaded in this browser. Load it in Models in this browser/);
  });

  it('reports a failed load in plain words with its code', async () => {
    const { models, states } = setup();
    const { port } = modelWorker({ loads: [{ error: { kind: 'device_lost', afterReports: 3 } }] });
    await models.load({ id: ORCHESTRATOR }, 4096, port);
    expect(states.at(-1)).toEqual({
      loaded: [],
      loading: [],
      failure: { modelId: ORCHESTRATOR, code: 'out_of_memory', message: expect.stringMatching(/^The GPU gave up while running .*Load a smaller model or a shorter context window/) },
    });
  });

  it('refuses an id outside the catalogue unless it comes with converted weights', async () => {
    const { models, states } = setup();
    await models.load({ id: 'Mystery-7B' }, 4096, modelWorker({}).port);
    expect(states.at(-1)?.failure).toEqual({
      modelId: 'Mystery-7B',
      code: 'bad_request',
      message: '"Mystery-7B" is not a model in the catalogue. Pick one in Models in this browser, or give the URL of your converted weights.',
    });
    const { fake, port } = modelWorker({});
    await models.load({ id: 'Orchestrator-8B-q4f32_1-MLC', custom: { weightsUrl: 'https://huggingface.co/you/Orchestrator-8B-q4f32_1-MLC', quantization: 'q4f32_1' } }, 4096, port);
    expect(states.at(-1)?.loaded.map((model) => model.label)).toEqual(['Orchestrator-8B (q4f32, your weights)']);
    expect(fake.appConfig?.model_list[0]).toMatchObject({ model_id: 'Orchestrator-8B-q4f32_1-MLC', model: 'https://huggingface.co/you/Orchestrator-8B-q4f32_1-MLC' });
  });

  it('unloads a model whose GPU gave up mid-generation, so the page stops offering it', async () => {
    const { models, states } = setup();
    const { port } = modelWorker({ replies: [{ deltas: ['a', 'b'], error: { kind: 'device_lost', afterDeltas: 1 } }] });
    await models.load({ id: EXPERT }, 4096, port);
    const { model } = models.chatModel(EXPERT, { providerName: 'local' });
    await expect(model.complete({ messages: [{ role: 'user', content: 'go' }] })).rejects.toThrow(/^\[out_of_memory\] The GPU gave up/);
    expect(states.at(-1)).toMatchObject({ loaded: [], loading: [], failure: { modelId: EXPERT, code: 'out_of_memory' } });
  });
});

describe('a run on local models only (no key, $0)', () => {
  it('runs the function-calling protocol with an append-only history, replies cut to the window, at $0', async () => {
    const { models } = setup();
    const orchestrator = modelWorker({
      replies: [
        { deltas: ['<think>\nSearch first.\n</think>\n\n', toolCall('search_corpus', { query: 'capital of France' })], usage: { promptTokens: 420 } },
        { deltas: ['<think>\nAsk the expert.\n</think>\n\n', toolCall('call_expert', { expert: 'expert-1' })], usage: { promptTokens: 95 } },
      ],
    });
    const expert = modelWorker({ replies: [{ deltas: ['<message>Paris.</message>'], usage: { promptTokens: 510 } }] });
    await models.load({ id: ORCHESTRATOR }, 4096, orchestrator.port);
    await models.load({ id: EXPERT }, 2048, expert.port);

    const config = parseConfig({
      protocol: 'function-calling',
      providers: { local: { kind: 'webllm' } },
      orchestrator: { provider: 'local', model: ORCHESTRATOR, toolMode: 'prompt' },
      experts: { 'expert-1': { tool: 'call_expert', provider: 'local', model: EXPERT } },
      functionCalling: { tools: ['search_corpus'] },
    });
    const environment: RunEnvironment = {
      apiKey: () => undefined, backends,
      retriever: createCorpusRetriever(DOCS),
      searchUsdPerCall: 0,
      python,
      localModel: (modelId, providerName) => models.chatModel(modelId, { providerName }),
    };
    const prepared = prepareRun(config, environment);
    const events: RunEvent[] = [];
    const result = await runOrchestration({ ...prepared, task: 'What is the capital of France?', onEvent: (event) => events.push(event) });

    expect(result.stopReason).toBe('final_message');
    expect(result.answer).toBe('Paris.');
    const [first, second] = orchestrator.fake.requests;
    if (!first || !second) throw new Error('expected two orchestrator turns');
    // The second turn extends the first exactly (web-llm reuses its KV cache), with the reply kept
    // as tau2 keeps it: no reasoning, the call as Qwen3's template writes it.
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(second.messages[first.messages.length]).toEqual({
      role: 'assistant',
      content: toolCall('search_corpus', { query: 'capital of France' }),
    });
    // A reply keeps at most a quarter of the model's window (12,000 configured).
    expect(first.max_tokens).toBe(1024);
    expect(expert.fake.requests[0]?.max_tokens).toBe(512);
    const usages = events.filter((event): event is RunEventOf<'usage'> => event.type === 'usage');
    expect(usages.map((event) => [event.entry.kind, event.entry.usage?.promptTokens, event.entry.usd])).toEqual([
      ['orchestrator', 420, 0],
      ['tool', undefined, 0],
      ['orchestrator', 95, 0],
      ['expert', 510, 0],
    ]);
  });

  it('fits the paper protocol’s prompt into a small window', async () => {
    const { models } = setup();
    const orchestrator = modelWorker({ replies: [{ deltas: [toolCall('answer', { model: 'answer-1' })] }] });
    const expert = modelWorker({ replies: [{ deltas: ['\\boxed{Paris}'] }] });
    await models.load({ id: ORCHESTRATOR }, 4096, orchestrator.port);
    await models.load({ id: EXPERT }, 4096, expert.port);
    const local = (tool: string) => ({ tool, provider: 'local', model: EXPERT });
    const config = parseConfig({
      providers: { local: { kind: 'webllm' } },
      orchestrator: { provider: 'local', model: ORCHESTRATOR, toolMode: 'prompt' },
      experts: { 'search-1': local('search'), 'reasoner-1': local('enhance_reasoning'), 'answer-1': local('answer') },
    });
    const prepared = prepareRun(config, {
      apiKey: () => undefined, backends,
      retriever: createCorpusRetriever(DOCS),
      python,
      localModel: (modelId, providerName) => models.chatModel(modelId, { providerName }),
    });
    expect(prepared.orchestrator.maxTokens).toBe(1024);
    const result = await runOrchestration({ ...prepared, task: 'Capital of France?', onEvent: () => {} });
    expect(result.answer).toBe('Paris');
    const request = orchestrator.fake.requests[0];
    const promptChars = request?.messages.reduce((sum, message) => sum + String(message.content).length, 0) ?? Infinity;
    // Budgets count 3 characters per token: the prompt leaves the reply its 1,024 tokens.
    expect(promptChars / 3 + 1024).toBeLessThan(4096);
    expect(expert.fake.requests[0]?.max_tokens).toBe(1024);
  });

  it('is refused by the command-line runner, which has no browser to run it in', () => {
    const config = parseConfig({
      protocol: 'function-calling',
      providers: { local: { kind: 'webllm' } },
      orchestrator: { provider: 'local', model: ORCHESTRATOR, toolMode: 'prompt' },
      experts: {},
    });
    expect(() => prepareRun(config, { apiKey: () => undefined, backends, retriever: createCorpusRetriever(DOCS), python })).toThrow(
      'Provider "local" runs "Qwen3-1.7B-q4f32_1-MLC" in the browser (web-llm on WebGPU), and web-llm models run only in the browser: open the playground, or use a remote provider here.',
    );
  });

  it('holds a run to the window the config asks for', async () => {
    const { models } = setup();
    await models.load({ id: ORCHESTRATOR }, 4096, modelWorker({}).port);
    const config = parseConfig({
      protocol: 'function-calling',
      providers: { local: { kind: 'webllm', contextWindow: 8192 } },
      orchestrator: { provider: 'local', model: ORCHESTRATOR, toolMode: 'prompt' },
      experts: {},
    });
    expect(() =>
      prepareRun(config, {
        apiKey: () => undefined, backends,
        retriever: createCorpusRetriever(DOCS),
        python,
        localModel: (modelId, providerName) => models.chatModel(modelId, { providerName }),
      }),
    ).toThrow(/is loaded with a 4,096-token context window, and provider "local" asks for at least 8,192/);
  });
});
