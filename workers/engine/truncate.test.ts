// Tool results and expert answers are cut before they reach the orchestrator's context, the events
// and the page: the helpers, then both protocols end to end against the scripted server.

import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { useScriptedServer } from '../../e2e/fixtures/scriptedServerHooks.ts';
import type { Scenario } from '../../cli/scripted/scenario.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import { createOpenAICompatibleModel } from '../backends/openai-compatible/openaiCompatible.ts';
import type { RunEvent, RunEventOf } from './events.ts';
import { REFERENCE_PRICING } from './pricing.ts';
import type { Protocol } from './protocol.ts';
import { createFunctionCallingProtocol } from './protocols/functionCalling.ts';
import { createPaperProtocol } from './protocols/paper.ts';
import { formatToolCall } from './qwen3/render.ts';
import { runOrchestration } from './run.ts';
import { cutText } from './format.ts';
import { cutDetail, MAX_DETAIL_CHARS, MAX_TOOL_RESULT_CHARS } from './truncate.ts';
import type { ChatMessage, Tool } from './types.ts';

describe('cutText and cutDetail', () => {
  it('leave what fits alone, and cut the rest saying by how much', () => {
    expect(cutText('short', MAX_TOOL_RESULT_CHARS)).toBe('short');
    const cut = cutText('x'.repeat(250_000), MAX_TOOL_RESULT_CHARS);
    expect(cut.startsWith('x'.repeat(MAX_TOOL_RESULT_CHARS))).toBe(true);
    expect(cut.slice(MAX_TOOL_RESULT_CHARS)).toBe('\n[… cut: 150,000 more characters not shown (250,000 in all)]');
    expect(cutText('abcdef', 4)).toBe('abcd\n[… cut: 2 more characters not shown (6 in all)]');
  });

  it('bound a detail’s strings in all, its lists and its depth, keeping "__proto__" as data', () => {
    expect(cutDetail({ a: 'b', n: [1, 2], ok: true })).toEqual({ a: 'b', n: [1, 2], ok: true });
    const big = cutDetail({ documents: Array.from({ length: 300 }, (_, i) => ({ id: i, text: 'y'.repeat(10_000) })) }) as {
      documents: Array<{ text: string } | string>;
    };
    expect(big.documents).toHaveLength(201);
    expect(big.documents.at(-1)).toBe('[… cut: 100 more items not shown]');
    const kept = big.documents.slice(0, 200).reduce((sum, doc) => sum + (doc as { text: string }).text.replace(/\n\[….*\]$/, '').length, 0);
    expect(kept).toBe(MAX_DETAIL_CHARS);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20; i++) deep = { deeper: deep };
    expect(JSON.stringify(cutDetail(deep))).toContain('nested too deep');
    const hostile = cutDetail(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
    expect(Object.hasOwn(hostile, '__proto__')).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

let server: ScriptedServer;
useScriptedServer({ models: {} }, (started) => (server = started));

const model = (id: string) => createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: id, retryBaseDelayMs: 10, supportsServerTools: false });

async function run(scenario: Scenario, protocol: Protocol) {
  server.reset(scenario);
  const events: RunEvent[] = [];
  const result = await runOrchestration({
    task: 'What is the capital of France?',
    protocol,
    orchestrator: { model: model('orch'), toolMode: 'prompt' },
    pricing: REFERENCE_PRICING,
    limits: { maxTurns: 5, maxCostUsd: null, maxWallMs: null, maxInvalidTurns: 3 },
    instruction: null,
    onEvent: (event) => events.push(event),
  });
  const of = <T extends RunEvent['type']>(type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);
  return { result, of };
}

/** Runs `models` under `protocol` and checks the run stopped for `stopReason` with its answer cut
 * below the cap, saying so with `note`. */
async function runToCutAnswer(protocol: Protocol, models: Scenario['models'], expected: { stopReason: string; note: string }) {
  const outcome = await run({ models }, protocol);
  expect(outcome.result.stopReason).toBe(expected.stopReason);
  expect(outcome.result.answer!.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
  expect(outcome.result.answer).toContain(expected.note);
  return outcome;
}

const orchestratorMessages = () =>
  server.requests.filter((r) => (r.body as { model?: string }).model === 'orch').map((r) => (r.body as { messages: ChatMessage[] }).messages);

describe('tool results and expert answers in a run', () => {
  it('function calling: a 3 MB tool result reaches the model and the events cut, with its detail', async () => {
    const flood: Tool = {
      name: 'flood',
      description: 'returns a lot',
      parameters: { type: 'object', properties: {} },
      run: async () => ({ content: 'z'.repeat(3_000_000), detail: { stdout: 'w'.repeat(3_000_000), code: '' } }),
    };
    const protocol = createFunctionCallingProtocol({ system: 'Be brief.', tools: [flood], experts: [], toolTimeoutMs: 5000 });
    const { result, of } = await run(
      { models: { orch: [{ content: formatToolCall({ name: 'flood', arguments: {} }) }, { content: '<message>Done.</message>' }] } },
      protocol,
    );
    expect(result.stopReason).toBe('final_message');
    const [toolResult] = of('tool_result');
    expect(toolResult!.content.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
    expect(toolResult!.content).toContain('[… cut: 2,900,000 more characters not shown (3,000,000 in all)]');
    expect((toolResult!.detail as { stdout: string }).stdout.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
    const sent = orchestratorMessages()[1]!.at(-1)!.content;
    expect(sent.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 200);
    expect(sent).toContain('more characters not shown');
  });

  it('function calling: an expert’s 2 MB final message is cut before it becomes the answer', async () => {
    const protocol = createFunctionCallingProtocol({
      system: 'Be brief.',
      tools: [],
      experts: [{ alias: 'expert-1', model: model('expert'), description: 'is strong.' }],
      toolTimeoutMs: 5000,
    });
    const { of } = await runToCutAnswer(
      protocol,
      {
        orch: [{ content: formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } }) }],
        expert: [{ content: `<message>${'a'.repeat(900_000)}</message>` }],
      },
      { stopReason: 'final_message', note: '[… cut: 800,000 more characters not shown (900,000 in all)]' },
    );
    expect(of('tool_result')[0]!.content.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
  });

  it('function calling: an expert’s 300,000-character text is cut before it joins the conversation', async () => {
    const echo: Tool = {
      name: 'echo',
      description: 'echoes',
      parameters: { type: 'object', properties: {} },
      run: async () => ({ content: 'echoed' }),
    };
    const protocol = createFunctionCallingProtocol({
      system: 'Be brief.',
      tools: [echo],
      experts: [{ alias: 'expert-1', model: model('expert'), description: 'is strong.' }],
      toolTimeoutMs: 5000,
    });
    await run(
      {
        models: {
          orch: [{ content: formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } }) }, { content: '<message>Done.</message>' }],
          expert: [{ content: `${'c'.repeat(300_000)}\n${formatToolCall({ name: 'echo', arguments: {} })}` }],
        },
      },
      protocol,
    );
    const expertTurn = orchestratorMessages()[1]!.find((message) => message.role === 'assistant')!;
    expect(expertTurn.content.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 200);
    expect(expertTurn.content).toContain('more characters not shown');
  });

  it('paper protocol: an answer expert’s huge answer is cut in the result and the run’s answer', async () => {
    const protocol = createPaperProtocol({
      experts: [
        {
          alias: 'answer-1',
          tool: 'answer',
          model: model('answerer'),
          description: 'answers.',
          answerStyle: 'tagged',
          budgets: { documentChars: null, codeContextTokens: 12000, contextTokens: 24000 },
        },
      ],
      retriever: createCorpusRetriever([]),
      python: { run: () => Promise.reject(new Error('no code here')), dispose: async () => undefined },
      variant: 'hle',
      searchTopK: 2,
      codeTimeoutMs: 1000,
      budgets: { contextTokens: 24000, codeContextTokens: 12000, documentChars: 4000 },
    });
    const { result, of } = await runToCutAnswer(
      protocol,
      {
        orch: [{ content: formatToolCall({ name: 'answer', arguments: { model: 'answer-1' } }) }],
        answerer: [{ content: `<answer>${'b'.repeat(700_000)}</answer>` }],
      },
      { stopReason: 'answered', note: '600,000 more characters not shown' },
    );
    const [toolResult] = of('tool_result');
    expect(toolResult!.content).toBe(result.answer);
    const detail = toolResult!.detail as { answer: string; raw: string };
    expect(detail.answer.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
    expect(detail.raw.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
  });
});
