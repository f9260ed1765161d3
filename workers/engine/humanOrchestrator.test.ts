// A person as the orchestrator, through the real paper protocol and run loop: their choices go in
// as parsed calls, a query or code they wrote replaces the expert's (no expert is called for it),
// an alias they leave to its expert is called as usual, their own turns cost nothing, and they
// read the same menu and prompt a model would.

import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { createNodePythonRunner } from '../../tools/python/nodePythonRunner.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import { createOpenAICompatibleModel } from '../backends/openai-compatible/openaiCompatible.ts';
import type { RunEvent, RunEventOf } from './events.ts';
import { checkHumanChoice, createHumanOrchestrator, HUMAN_ORCHESTRATOR_MODEL, MAX_WRITTEN_CHARS } from './humanOrchestrator.ts';
import { REFERENCE_PRICING } from './pricing.ts';
import { buildPaperTools, createPaperProtocol, readAliasTable } from './protocols/paper.ts';
import { runOrchestration } from './run.ts';
import type { HumanChoice, HumanTurn } from './types.ts';

const BUDGETS = { documentChars: null, codeContextTokens: 12000, contextTokens: 24000 };

describe('you are the orchestrator', () => {
  const python = createNodePythonRunner();
  let closeServer: () => Promise<void> = () => Promise.resolve();
  afterAll(async () => {
    await python.dispose();
    await closeServer();
  });

  it('runs a person’s choices through the paper protocol, with their own query and code', async () => {
    const server = await startScriptedServer({
      scenario: { models: { answerer: [{ content: '<answer>5050</answer>', usage: { prompt_tokens: 400, completion_tokens: 5 } }] } },
    });
    closeServer = () => server.close();
    const model = (id: string) => createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: id, supportsServerTools: false });
    const choices: HumanChoice[] = [
      { name: 'search', arguments: { model: 'search-2', query: 'Gauss sum of the first hundred numbers' } },
      { name: 'enhance_reasoning', arguments: { model: 'reasoner-1', code: 'print(sum(range(101)))' } },
      { name: 'answer', arguments: { model: 'answer-1' } },
    ];
    const seen: HumanTurn[] = [];
    const person = createHumanOrchestrator(async (turn) => {
      seen.push(turn);
      return choices[seen.length - 1]!;
    });
    const protocol = createPaperProtocol({
      experts: [
        { alias: 'search-2', tool: 'search', model: model('searcher'), description: 'searches.', price: { inputPerM: 0.25, outputPerM: 2 }, latencySeconds: 16, answerStyle: 'tagged', budgets: BUDGETS },
        { alias: 'reasoner-1', tool: 'enhance_reasoning', model: model('coder'), description: 'codes.', answerStyle: 'tagged', budgets: BUDGETS },
        { alias: 'answer-1', tool: 'answer', model: model('answerer'), description: 'answers.', answerStyle: 'tagged', budgets: BUDGETS },
      ],
      retriever: createCorpusRetriever([{ id: 'gauss', title: 'Gauss', text: 'Young Gauss summed the numbers from 1 to 100 and found 5050.' }]),
      searchUsdPerCall: 0,
      python,
      variant: 'hle',
      searchTopK: 3,
      codeTimeoutMs: 10_000,
      budgets: { contextTokens: 24000, codeContextTokens: 12000, documentChars: 4000 },
      writtenArguments: true,
    });
    const events: RunEvent[] = [];
    const result = await runOrchestration({
      task: 'What is 1 + 2 + … + 100?',
      protocol,
      orchestrator: { model: person, toolMode: 'server' },
      pricing: { ...REFERENCE_PRICING, models: { ...REFERENCE_PRICING.models, [HUMAN_ORCHESTRATOR_MODEL]: { inputPerM: 0, outputPerM: 0 }, answerer: { inputPerM: 1, outputPerM: 1 } } },
      limits: { maxTurns: 5, maxCostUsd: null, maxWallMs: null, maxInvalidTurns: 2 },
      instruction: null,
      onEvent: (e) => events.push(e),
    });

    expect(result.answer).toBe('5050');
    // Only the alias left to its expert was called: the person wrote the query and the code.
    expect(server.requests.map((r) => (r.body as { model: string }).model)).toEqual(['answerer']);
    // The person read the menu the model reads, with the price table, and the rebuilt context.
    expect(seen[0]!.tools.map((t) => t.name)).toEqual(['enhance_reasoning', 'answer', 'search']);
    const searchModel = seen[0]!.tools.find((t) => t.name === 'search')!.parameters as { properties: { model: { description: string } } };
    expect(readAliasTable(searchModel.properties.model.description)).toEqual([{ alias: 'search-2', inputPerM: '$0.25', outputPerM: '$2', latency: '16s' }]);
    expect(seen[0]!.messages[1]!.content).toMatch(/^Problem: What is 1 \+ 2/);
    expect(seen[1]!.messages[1]!.content).toContain('Young Gauss summed the numbers');
    expect(seen[2]!.messages[1]!.content).toContain('```output\n5050\n');
    // The route, and the cost: the person's turns are free, the answer expert is charged.
    const calls = events.filter((e): e is RunEventOf<'tool_call'> => e.type === 'tool_call');
    expect(calls.map((c) => `${c.name}:${c.alias}`)).toEqual(['search:search-2', 'enhance_reasoning:reasoner-1', 'answer:answer-1']);
    const modelCharges = events.filter((e): e is RunEventOf<'usage'> => e.type === 'usage' && e.entry.kind !== 'code' && e.entry.kind !== 'search');
    expect(modelCharges.filter((e) => e.entry.model === HUMAN_ORCHESTRATOR_MODEL).every((e) => e.entry.usd === 0)).toBe(true);
    expect(modelCharges.filter((e) => e.entry.model === 'answerer').map((e) => e.entry.usd)).toEqual([(400 + 5) / 1e6]);
  });

  it('a stop while the person is choosing ends the run at once', async () => {
    const controller = new AbortController();
    const person = createHumanOrchestrator(
      (_turn, signal) =>
        new Promise((_, reject) => {
          signal?.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError')));
          setTimeout(() => controller.abort(), 10);
        }),
    );
    const protocol = createPaperProtocol({
      experts: [],
      retriever: createCorpusRetriever([]),
      python,
      variant: 'hle',
      searchTopK: 3,
      codeTimeoutMs: 1000,
      budgets: { contextTokens: 24000, codeContextTokens: 12000, documentChars: 4000 },
      writtenArguments: true,
    });
    const result = await runOrchestration({
      task: 't',
      protocol,
      orchestrator: { model: person, toolMode: 'server' },
      pricing: REFERENCE_PRICING,
      limits: { maxTurns: 5, maxCostUsd: null, maxWallMs: null, maxInvalidTurns: 2 },
      instruction: null,
      signal: controller.signal,
      onEvent: () => undefined,
    });
    expect(result.stopReason).toBe('aborted');
  });
});

describe('checkHumanChoice: a choice from the page is checked against the turn’s menu', () => {
  const tools = buildPaperTools([
    { alias: 'search-1', tool: 'search', model: { model: 'm', label: 'm', supportsServerTools: false, complete: () => Promise.reject(new Error('unused')) }, description: 'searches.', answerStyle: 'tagged', budgets: BUDGETS },
    { alias: 'answer-1', tool: 'answer', model: { model: 'm', label: 'm', supportsServerTools: false, complete: () => Promise.reject(new Error('unused')) }, description: 'answers.', answerStyle: 'tagged', budgets: BUDGETS },
  ]);

  it('accepts a tool and alias of the menu, with the person’s own query, and drops an empty one', () => {
    expect(checkHumanChoice({ name: 'search', arguments: { model: 'search-1', query: 'Gauss' } }, tools)).toEqual({ ok: true, choice: { name: 'search', arguments: { model: 'search-1', query: 'Gauss' } } });
    expect(checkHumanChoice({ name: 'search', arguments: { model: 'search-1', query: '  ' } }, tools)).toEqual({ ok: true, choice: { name: 'search', arguments: { model: 'search-1' } } });
  });

  it('refuses what is not on the menu, saying what is', () => {
    expect(checkHumanChoice({ name: 'rm -rf', arguments: { model: 'search-1' } }, tools)).toEqual({ ok: false, problem: 'Choose one of the tools: answer, search.' });
    expect(checkHumanChoice({ name: 'search', arguments: { model: 'answer-1' } }, tools)).toEqual({ ok: false, problem: "Choose one of search's models: search-1." });
    expect(checkHumanChoice({ name: 'answer', arguments: { model: 'answer-1', query: 'x' } }, tools)).toEqual({ ok: false, problem: 'answer takes no "query" here.' });
    expect(checkHumanChoice({ name: 'search', arguments: { model: 'search-1', query: 'q'.repeat(MAX_WRITTEN_CHARS + 1) } }, tools).ok).toBe(false);
    expect(checkHumanChoice(null, tools).ok).toBe(false);
    expect(checkHumanChoice({ name: 'search', arguments: ['search-1'] }, tools)).toEqual({ ok: false, problem: 'The choice had no arguments.' });
  });
});
