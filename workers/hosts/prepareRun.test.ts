import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import { parseConfig } from './config.ts';
import { lookupPrice, REFERENCE_PRICING } from '../engine/pricing.ts';
import { formatToolCall } from '../engine/qwen3/render.ts';
import { runOrchestration } from '../engine/run.ts';
import { effectivePricing, prepareRun } from './prepareRun.ts';
import { loadBackends } from '../backends/registry.ts';

const backends = await loadBackends();

const LOCAL = 'Qwen3-4B-q4f32_1-MLC';

describe('effectivePricing', () => {
  const config = (pricing?: unknown) =>
    parseConfig({
      protocol: 'function-calling',
      providers: { local: { kind: 'webllm' }, vllm: { kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' } },
      orchestrator: { provider: 'local', model: LOCAL, toolMode: 'prompt' },
      experts: { 'expert-1': { tool: 'call_expert', provider: 'vllm', model: 'gpt-5' } },
      ...(pricing ? { pricing } : {}),
    });

  it('charges models run in the browser nothing, and remote ones the reference price', () => {
    const pricing = effectivePricing(config());
    expect(lookupPrice(pricing, LOCAL)).toEqual({ inputPerM: 0, outputPerM: 0 });
    expect(lookupPrice(pricing, 'gpt-5')).toEqual(REFERENCE_PRICING.models['gpt-5']);
    expect(pricing.asOf).toBe(REFERENCE_PRICING.asOf);
  });

  it('lets the config charge a local model after all (as the paper prices its orchestrator)', () => {
    const pricing = effectivePricing(config({ asOf: '2026-01-01', models: { [LOCAL]: { inputPerM: 0.2, outputPerM: 0.2 } } }));
    expect(lookupPrice(pricing, LOCAL)).toEqual({ inputPerM: 0.2, outputPerM: 0.2 });
    expect(pricing).toMatchObject({ asOf: '2026-01-01', source: 'configuration' });
  });
});

describe('per-expert settings in the paper protocol', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ scenario: { models: {} } });
  });
  afterAll(() => server.close());

  it('overrides the family defaults: the document cut and the answer style', async () => {
    server.reset({
      models: {
        orch: [
          { content: formatToolCall({ name: 'search', arguments: { model: 'search-1' } }) },
          { content: formatToolCall({ name: 'answer', arguments: { model: 'answer-1' } }) },
        ],
        searcher: [{ content: '<query>capital of France</query>' }],
        'gpt-5': [{ content: '<answer>Paris</answer>' }],
      },
    });
    const config = parseConfig({
      providers: { scripted: { kind: 'openai-compatible', baseUrl: `${server.url}/v1` } },
      orchestrator: { provider: 'scripted', model: 'orch', toolMode: 'prompt' },
      experts: {
        'search-1': { tool: 'search', provider: 'scripted', model: 'searcher' },
        'reasoner-1': { tool: 'enhance_reasoning', provider: 'scripted', model: 'coder' },
        // GPT-5 would see whole documents and the GPT-5 wording; this one is told otherwise.
        'answer-1': { tool: 'answer', provider: 'scripted', model: 'gpt-5', documentChars: 12, answerStyle: 'tagged' },
      },
      preferenceInstruction: false,
    });
    const docs = [{ id: 'fr', title: 'France', text: 'France is a country in Western Europe. Its capital is Paris.' }];
    const prepared = prepareRun(config, {
      apiKey: () => undefined, backends,
      retriever: createCorpusRetriever(docs),
      searchUsdPerCall: 0,
      python: { run: () => Promise.reject(new Error('no code here')), dispose: () => Promise.resolve() },
    });
    const result = await runOrchestration({ ...prepared, task: 'What is the capital of France?', onEvent: () => {} });
    expect(result.answer).toBe('Paris');
    const answerRequest = server.requests.find((r) => (r.body as { model: string }).model === 'gpt-5')?.body as {
      messages: Array<{ content: string }>;
    };
    // Cut to 12 characters ("France is a "), then the context stripped whole, as Python strips it.
    expect(answerRequest.messages).toEqual([
      {
        role: 'user',
        content:
          'Documents:\nDoc 1: France is a\n\nProblem:\nWhat is the capital of France?\nWrap the thinking process and explanation between <think> and </think> and wrap only the exact answer without any explanation within <answer> and </answer>.',
      },
    ]);
  });
});
