import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../../cli/scripted/scriptedServer.ts';
import { createNodePythonRunner } from '../../../tools/python/nodePythonRunner.ts';
import { createCorpusRetriever } from '../../../tools/search/retriever.ts';
import { createOpenAICompatibleModel } from '../../backends/openai-compatible/openaiCompatible.ts';
import type { RunEvent, RunEventOf } from '../events.ts';
import { PAPER_EXPERTS_PRESET } from '../presets.ts';
import { REFERENCE_PRICING, lookupPrice } from '../pricing.ts';
import { formatToolCall } from '../qwen3/render.ts';
import { runOrchestration } from '../run.ts';
import type { ChatModel } from '../types.ts';
import type { ExpertBudgets } from './expertFamilies.ts';
import {
  buildOrchestratorContext,
  buildPaperTools,
  createPaperProtocol,
  describeModelParameter,
  extractBoxed,
  extractCode,
  extractQuery,
  extractTaggedAnswer,
  type PaperExpert,
} from './paper.ts';

const unusedModel: ChatModel = {
  model: 'unused',
  label: 'unused',
  supportsServerTools: false,
  complete: () => Promise.reject(new Error('not called')),
};

/** What every expert here is shown: whole documents, the Qwen3 token budgets. */
const EXPERT_BUDGETS: ExpertBudgets = { documentChars: null, codeContextTokens: 12000, contextTokens: 24000 };

const presetExperts: PaperExpert[] = Object.entries(PAPER_EXPERTS_PRESET).map(([alias, expert]) => ({
  alias,
  tool: expert.tool as PaperExpert['tool'],
  model: unusedModel,
  description: expert.description,
  price: lookupPrice(REFERENCE_PRICING, expert.model),
  latencySeconds: expert.latencySeconds,
  answerStyle: 'tagged',
  budgets: EXPERT_BUDGETS,
}));

describe('tool descriptions', () => {
  it('generates the reference text from the paper mapping and prices', () => {
    const reasoners = presetExperts.filter((e) => e.tool === 'enhance_reasoning');
    // The reference tools.json text for enhance_reasoning, byte for byte.
    expect(describeModelParameter('enhance_reasoning', reasoners)).toBe(
      "The model used to reason. Choices: ['reasoner-1', 'reasoner-2', 'reasoner-3']. reasoner-1 demonstrates strong understanding and reasoning capabilities, which usually provides reliable insights. reasoner-2 can analyze some problems, but could hallucinate and make mistakes in difficult scenarios. reasoner-3 can reason over the context and reveal the logic. \nModel | price per million input tokens | price per million output tokens | average latency\nreasoner-1 | $1.25 | $10 | 31s\nreasoner-2 | $0.25 | $2 | 25s\nreasoner-3 | $0.8 | $0.8 | 9s",
    );
    const searchers = presetExperts.filter((e) => e.tool === 'search');
    expect(describeModelParameter('search', searchers)).toBe(
      "The model used to search for missing information. Choices: ['search-1', 'search-2', 'search-3']. search-1 usually identifies the missing information and can write concise queries for effective search. search-2 can reason over the context and write queries to find the missing content for answering questions. search-3 can also write queries to find information. The table below shows the pricing and latency:\nModel | price per million input tokens | price per million output tokens | average latency\nsearch-1 | $1.25 | $10 | 22s\nsearch-2 | $0.25 | $2 | 16s\nsearch-3 | $0.8 | $0.8 | 8s",
    );
    const answer = describeModelParameter('answer', presetExperts.filter((e) => e.tool === 'answer'));
    expect(answer).toContain(' The table below shows the pricing and latency of each model:\nModel | price per million');
    expect(answer).toContain('\nanswer-math-2 | $0.2 | $0.2 | 9s');
  });

  it('follows the user mapping: new prices and an unknown price', () => {
    const [first] = presetExperts.filter((e) => e.tool === 'search');
    const custom: PaperExpert[] = [
      { ...first!, alias: 'search-1', price: { inputPerM: 3, outputPerM: 15 }, latencySeconds: 4.4 },
      { ...first!, alias: 'search-2', description: 'is local.', price: undefined, latencySeconds: undefined },
    ];
    const text = describeModelParameter('search', custom);
    expect(text).toContain("Choices: ['search-1', 'search-2']");
    expect(text).toContain('\nsearch-1 | $3 | $15 | 4s');
    expect(text).toContain('\nsearch-2 | unknown | unknown | unknown');
  });

  it('lists the tools in the reference order with the reference schema shape', () => {
    const tools = buildPaperTools(presetExperts);
    expect(tools.map((t) => t.name)).toEqual(['enhance_reasoning', 'answer', 'search']);
    expect(Object.keys(tools[0]!.parameters)).toEqual(['properties', 'required', 'title', 'type']);
    expect(tools[1]!.description).toBe('give the final answer. Not allowed to call if documents is empty.');
  });
});

describe('context', () => {
  const budgets = { contextTokens: 24000, codeContextTokens: 12000, documentChars: 20 };

  it('is empty before anything was gathered (HLE); FRAMES always writes the code separator', () => {
    expect(buildOrchestratorContext('Q?', [], [], budgets, 'hle')).toBe('');
    expect(buildOrchestratorContext('Q?', [], [], budgets, 'frames')).toBe('\npython code and execution outputs:\n');
  });

  it('lists documents, cut to the character budget, then code runs, in each variant’s layout', () => {
    const documents = [{ id: 'a', title: 'A', text: 'France is a country in Western Europe.' }];
    const runs = [{ code: '\nprint(1+1)\n', output: '2\n' }];
    const code = '```python\n\nprint(1+1)\n\n```\n\n```output\n2\n\n```\n\n';
    expect(buildOrchestratorContext('Q?', documents, runs, budgets, 'hle')).toBe(
      `Documents:\nDoc 1: France is a country  ...\n\n\npython code and execution outputs:\n${code}`,
    );
    expect(buildOrchestratorContext('Q?', documents, runs, budgets, 'frames')).toBe(
      `Documents:\nDoc 1: France is a country \n\n\npython code and execution outputs:\n${code}`,
    );
    expect(buildOrchestratorContext('Q?', documents, [], budgets, 'hle')).toBe('Documents:\nDoc 1: France is a country  ...\n\n');
    expect(buildOrchestratorContext('Q?', documents, [], budgets, 'frames')).toBe(
      'Documents:\nDoc 1: France is a country \n\n\npython code and execution outputs:\n',
    );
  });

  it('cuts documents by code points, as Python slices', () => {
    const documents = [{ id: 'a', title: 'A', text: '😀😀😀 emoji' }];
    expect(buildOrchestratorContext('Q?', documents, [], { ...budgets, documentChars: 2 }, 'frames')).toMatch(/^Documents:\nDoc 1: 😀😀\n\n/);
  });

  it('keeps the most recent material when over budget', () => {
    const documents = Array.from({ length: 50 }, (_, i) => ({ id: `d${i}`, title: `D${i}`, text: `document number ${i} `.repeat(10) }));
    const context = buildOrchestratorContext('Q?', documents, [], { ...budgets, documentChars: 400, contextTokens: 200 }, 'hle');
    expect(context.startsWith('Documents:\n')).toBe(true);
    expect(context).toContain('Doc 50: document number 49');
    expect(context).not.toContain('Doc 1: ');
    expect(context.length).toBeLessThanOrEqual('Documents:\n'.length + 200 * 4);
  });

  it('drops documents when the code alone fills the budget', () => {
    const runs = [{ code: 'x'.repeat(2000), output: 'ok' }];
    const context = buildOrchestratorContext('Q?', [{ id: 'a', title: 'A', text: 'doc' }], runs, { ...budgets, contextTokens: 100, codeContextTokens: 50 }, 'hle');
    expect(context).not.toContain('Documents:');
    expect(context.startsWith('```\n')).toBe(true);
  });
});

describe('expert output extraction', () => {
  it('reads the query, code and answer as the reference does', () => {
    expect(extractQuery('<think>hmm <query>no</query></think>Sure: <query>capital of France</query>')).toBe('capital of France');
    // The code keeps its newlines: the reference runs and shows it exactly as extracted.
    expect(extractCode('Here:\n```python\nprint(2)\n```\nand\n```python\nprint(3)\n```')).toBe('\nprint(3)\n');
    expect(extractCode('no fence at all')).toBe('no fence at all');
    expect(extractQuery(' <query> spaced </query>')).toBe(' spaced ');
    expect(extractBoxed('so \\boxed{\\frac{1}{2}} and finally \\boxed{x^{2}}')).toBe('x^{2}');
    expect(extractBoxed('no box')).toBe('');
    expect(extractTaggedAnswer('<think>Paris?</think><answer>\nParis\n</answer>')).toBe('Paris');
    expect(extractTaggedAnswer('<think>x</think>Just Paris')).toBe('Just Paris');
  });
});

describe('code runs through the real Python sandbox', () => {
  const python = createNodePythonRunner();
  let closeServer: () => Promise<void> = () => Promise.resolve();
  afterAll(async () => {
    await python.dispose();
    await closeServer();
  });

  it('feeds stdout into the next turn, drops empty output, and reports a timeout', async () => {
    const call = (name: string, model: string) => formatToolCall({ name, arguments: { model } });
    const server = await startScriptedServer({
      scenario: {
        models: {
          orch: [
            { content: call('enhance_reasoning', 'reasoner-1'), usage: { prompt_tokens: 100, completion_tokens: 10 } },
            { content: call('enhance_reasoning', 'reasoner-1'), usage: { prompt_tokens: 100, completion_tokens: 10 } },
            { content: call('enhance_reasoning', 'reasoner-1'), usage: { prompt_tokens: 100, completion_tokens: 10 } },
            { content: call('answer', 'answer-1'), usage: { prompt_tokens: 100, completion_tokens: 10 } },
          ],
          coder: [
            { content: '```python\nprint(sum(range(101)))\n```', usage: { prompt_tokens: 50, completion_tokens: 10 } },
            { content: '```python\nx = 1\n```', usage: { prompt_tokens: 50, completion_tokens: 10 } },
            { content: '```python\nwhile True:\n    pass\n```', usage: { prompt_tokens: 50, completion_tokens: 10 } },
          ],
          answerer: [{ content: '<answer>5050</answer>', usage: { prompt_tokens: 50, completion_tokens: 5 } }],
        },
      },
    });
    closeServer = () => server.close();
    const model = (id: string) => createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: id, supportsServerTools: false });
    const protocol = createPaperProtocol({
      experts: [
        { alias: 'reasoner-1', tool: 'enhance_reasoning', model: model('coder'), description: 'codes.', answerStyle: 'tagged', budgets: EXPERT_BUDGETS },
        { alias: 'answer-1', tool: 'answer', model: model('answerer'), description: 'answers.', answerStyle: 'tagged', budgets: EXPERT_BUDGETS },
      ],
      retriever: createCorpusRetriever([]),
      searchUsdPerCall: 0,
      python,
      variant: 'hle',
      searchTopK: 3,
      codeTimeoutMs: 1500,
      budgets: { contextTokens: 24000, codeContextTokens: 12000, documentChars: 4000 },
    });
    const events: RunEvent[] = [];
    const result = await runOrchestration({
      task: 'What is 1 + 2 + … + 100?',
      protocol,
      orchestrator: { model: model('orch'), toolMode: 'prompt' },
      pricing: { ...REFERENCE_PRICING, models: { orch: { inputPerM: 0.2, outputPerM: 0.2 } } },
      limits: { maxTurns: 10, maxCostUsd: null, maxWallMs: null, maxInvalidTurns: 3 },
      instruction: null,
      onEvent: (e) => events.push(e),
    });
    expect(result.answer).toBe('5050');
    const orchestratorPrompts = server.requests
      .filter((r) => (r.body as { model: string }).model === 'orch')
      .map((r) => (r.body as { messages: Array<{ content: string }> }).messages[1]?.content ?? '');
    const withOutput = '\npython code and execution outputs:\n```python\n\nprint(sum(range(101)))\n\n```\n\n```output\n5050\n\n```\n\n';
    expect(orchestratorPrompts[1]).toContain(withOutput);
    // The second run printed nothing, so the third prompt is unchanged.
    expect(orchestratorPrompts[2]).toBe(orchestratorPrompts[1]);
    const results = events.filter((e): e is RunEventOf<'tool_result'> => e.type === 'tool_result');
    expect(results[2]).toMatchObject({ ok: false, error: 'Python timed out after 1.5 s and was stopped' });
    const codeCharges = events.filter((e): e is RunEventOf<'usage'> => e.type === 'usage' && e.entry.kind === 'code');
    expect(codeCharges).toHaveLength(3);
    expect(codeCharges.every((e) => e.entry.basis === 'estimated' && (e.entry.usd ?? 0) > 0)).toBe(true);
    // The first run waited for Pyodide to start: that wait is in its time, on a line of its own,
    // and not charged. Each run has an interpreter of its own (booted ahead while the runner is
    // idle), so a later run may wait for one too: then the same holds for it.
    const [cold] = codeCharges.map((e) => e.entry);
    expect(cold?.startup?.sandbox).toBe('Python');
    expect(cold?.startup?.ms).toBeGreaterThan(100);
    const coldRunMs = (cold?.latencyMs ?? 0) - (cold?.startup?.ms ?? 0);
    expect(coldRunMs).toBeGreaterThanOrEqual(0);
    expect(cold?.usd).toBeCloseTo((REFERENCE_PRICING.codePerSecond * coldRunMs) / 1000, 9);
    for (const { entry } of codeCharges.slice(1)) {
      const runMs = entry.latencyMs - (entry.startup?.ms ?? 0);
      expect(entry.usd).toBeCloseTo((REFERENCE_PRICING.codePerSecond * runMs) / 1000, 9);
    }
    // Every charge says when it ended, in the run's own clock.
    const ends = events.filter((e): e is RunEventOf<'usage'> => e.type === 'usage').map((e) => e.entry.endMs ?? -1);
    expect(ends.every((end, i) => end >= 0 && end >= (ends[i - 1] ?? 0))).toBe(true);
    expect(ends.at(-1)).toBeLessThanOrEqual(result.totals.latencyMs);
  }, 120_000); // each snippet gets an interpreter of its own: a Pyodide boot each, seconds on a busy machine
});
