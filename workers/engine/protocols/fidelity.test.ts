// Byte-exact fidelity with the reference code. For a fixed task, corpus and model replies
// (e2e/fixtures/reference/scenario.json), the engine runs through its composition root against the
// real scripted HTTP server, with real Python and the real JavaScript sandbox; every prompt the
// orchestrator is shown and every request an expert receives must equal, byte for byte, the files
// e2e/fixtures/reference/generate.py lays out from the reference's own logic (no TypeScript of
// ours involved). The script is re-run here when python3 is installed, so the checked-in golden
// files cannot go stale.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../../../cli/scripted/scenario.ts';
import { startScriptedServer, type ScriptedServer } from '../../../cli/scripted/scriptedServer.ts';
import { createNodeJavaScriptRunner } from '../../../tools/javascript/nodeJavaScriptRunner.ts';
import { createNodePythonRunner } from '../../../tools/python/nodePythonRunner.ts';
import { createCorpusRetriever } from '../../../tools/search/retriever.ts';
import { prepareRun } from '../../hosts/prepareRun.ts';
import { parseConfig } from '../../hosts/config.ts';
import type { RunEvent, RunEventOf } from '../events.ts';
import { formatToolCall, renderChatML } from '../qwen3/render.ts';
import { runOrchestration } from '../run.ts';
import type { ChatMessage } from '../types.ts';
import { loadBackends } from '../../backends/registry.ts';

const backends = await loadBackends();

const REFERENCE = fileURLToPath(new URL('../../../e2e/fixtures/reference/', import.meta.url));
const GOLDEN = join(REFERENCE, 'golden');

interface Scenario {
  paper: {
    problem: string;
    corpus: Array<{ id: string; title: string; text: string }>;
    search: { query: string; ranked: string[] };
    turns: Array<{ tool: string; alias: string }>;
    answerAliases: string[];
    replies: Record<string, string>;
  };
  functionCalling: {
    policy: string;
    task: string;
    tools: Array<{ type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
    toolResults: Record<string, string>;
    experts: Record<string, string>;
    orchestratorReplies: string[];
    expertReplies: Record<string, { content: string; toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }>;
  };
}

const scenario = JSON.parse(readFileSync(join(REFERENCE, 'scenario.json'), 'utf8')) as Scenario;
const golden = (group: string, name: string) => readFileSync(join(GOLDEN, group, name), 'utf8');
const goldenJson = (group: string, name: string) => JSON.parse(golden(group, name)) as Record<string, unknown>;

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
/** The paper's evaluation mapping (as generate.py's MODEL_MAPPING). */
const PAPER_MODELS: Record<string, string> = {
  'search-1': 'gpt-5',
  'reasoner-3': 'Qwen/Qwen2.5-Coder-32B-Instruct',
  'answer-1': 'gpt-5',
  'answer-3': 'meta-llama/Llama-3.3-70B-Instruct',
  'answer-4': 'Qwen/Qwen3-32B',
  'answer-math-1': 'Qwen/Qwen2.5-Math-72B-Instruct',
};
/** The reference's call_expert experts (llm_utils.py, extra_tool). */
const TAU2_EXPERTS = {
  'expert-1': {
    description:
      'exhibits strong functional calling abilities and performs excellent in most domains (math, physics, social science, etc.), but could lack domain knowledge in some cases.',
    latencySeconds: 96,
  },
  'expert-2': {
    description: 'presents reasonable solutions in most tasks, but could get stuck in complex reasoning and specific domain knowledge.',
    latencySeconds: 27,
  },
  'expert-3': {
    description:
      'demonstrates moderate performance: it can parse complex prompts, performs some mathematical derivations, call functions, yet it sometimes misreads details, mixes concepts.',
    latencySeconds: 11,
  },
};

interface RecordedChat {
  model: string;
  messages: Array<{ role: string; content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> }>;
  tools?: unknown[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
}

let server: ScriptedServer;
const python = createNodePythonRunner();
const javascript = createNodeJavaScriptRunner();
beforeAll(async () => {
  server = await startScriptedServer({ scenario: { models: {} } });
});
afterAll(async () => {
  await python.dispose();
  await server.close();
});

const providers = () => ({
  openai: { kind: 'openai-compatible', baseUrl: `${server.url}/v1`, maxTokensField: 'max_completion_tokens' },
  'open-models': { kind: 'openai-compatible', baseUrl: `${server.url}/v1` },
});

async function run(config: unknown, task: string, responses: Record<string, ScriptedResponse[]>) {
  server.reset({ models: responses });
  const prepared = prepareRun(parseConfig(config), {
    apiKey: () => undefined, backends,
    retriever: createCorpusRetriever(scenario.paper.corpus),
    searchUsdPerCall: 0,
    python,
    javascript,
  });
  const events: RunEvent[] = [];
  const result = await runOrchestration({ ...prepared, task, onEvent: (event) => events.push(event) });
  const chats = server.requests.map((request) => request.body as RecordedChat);
  return {
    result,
    orchestratorPrompts: events.filter((e): e is RunEventOf<'model_request'> => e.type === 'model_request').map((e) => e.renderedPrompt),
    orchestratorChats: chats.filter((chat) => chat.model === ORCHESTRATOR),
    expertChats: chats.filter((chat) => chat.model !== ORCHESTRATOR),
  };
}

/** What the orchestrator's server received, rendered: the wire carries the golden prompt too. */
function renderReceived(chat: RecordedChat): string {
  return renderChatML(chat.messages as ChatMessage[], [], { addGenerationPrompt: true });
}

/** Each message as the model reads it (the reference's call ids are random uuids). */
function wire(chat: RecordedChat) {
  return chat.messages.map((message) => ({
    role: message.role,
    content: message.content ?? '',
    ...(message.tool_calls?.length
      ? { tool_calls: message.tool_calls.map((call) => ({ name: call.function.name, arguments: call.function.arguments })) }
      : {}),
  }));
}

/** The paper protocol under `variant`, with the paper's experts and no preference text. */
const paperConfig = (variant: 'hle' | 'frames') => ({
  protocol: 'paper',
  providers: providers(),
  orchestrator: { provider: 'open-models', model: ORCHESTRATOR, toolMode: 'prompt' },
  experts: 'paper',
  paper: { variant },
  preferenceInstruction: false,
});

/** The orchestrator calling each turn's tool and alias, and each expert's scripted reply. */
function paperResponses(turns: ReadonlyArray<{ tool: string; alias: string }>): Record<string, ScriptedResponse[]> {
  const responses: Record<string, ScriptedResponse[]> = {
    [ORCHESTRATOR]: turns.map((turn) => ({ content: formatToolCall({ name: turn.tool, arguments: { model: turn.alias } }) })),
  };
  for (const { alias } of turns) (responses[PAPER_MODELS[alias]!] ??= []).push({ content: scenario.paper.replies[alias]! });
  return responses;
}

describe('the reference layout (generate.py)', () => {
  const python3 = (() => {
    try {
      execFileSync('python3', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.runIf(python3)('writes exactly the checked-in golden files', () => {
    const out = mkdtempSync(join(tmpdir(), 'orchestra-golden-'));
    execFileSync('python3', [join(REFERENCE, 'generate.py'), '--out', out], { stdio: 'pipe' });
    const list = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    expect(list(out)).toEqual(list(GOLDEN));
    for (const name of list(GOLDEN).filter((entry) => entry.includes('.'))) {
      expect(readFileSync(join(out, name), 'utf8'), name).toBe(readFileSync(join(GOLDEN, name), 'utf8'));
    }
  }, 60_000);
});

describe.each(['hle', 'frames'] as const)('the paper protocol, %s variant, is the reference evaluation’s', (variant) => {
  const { paper } = scenario;
  const config = () => paperConfig(variant);

  it('ranks the scenario’s corpus as the golden files assume', async () => {
    const found = await createCorpusRetriever(paper.corpus).search(paper.search.query, { limit: 5 });
    expect(found.map((doc) => doc.id)).toEqual(paper.search.ranked);
  });

  it.each(paper.answerAliases)('shows the orchestrator and every expert the reference’s bytes (answer by %s)', async (answerAlias) => {
    const turns = paper.turns.map((turn) => (turn.tool === 'answer' ? { ...turn, alias: answerAlias } : turn));
    const { result, orchestratorPrompts, orchestratorChats, expertChats } = await run(config(), paper.problem, paperResponses(turns));
    expect(result.stopReason).toBe('answered');
    expect(result.answer).toBe('558.5');

    expect(orchestratorPrompts).toHaveLength(3);
    const sampling = goldenJson(variant, 'orchestrator.json');
    for (const chat of orchestratorChats) expect({ temperature: chat.temperature, max_tokens: chat.max_tokens }).toEqual(sampling);
    orchestratorPrompts.forEach((prompt, i) => {
      const expected = golden(variant, `turn-${i + 1}.txt`);
      expect(prompt, `turn ${i + 1}`).toBe(expected);
      expect(renderReceived(orchestratorChats[i]!), `turn ${i + 1} as received`).toBe(expected);
    });

    expect(expertChats.map((chat) => chat.model)).toEqual(turns.map((turn) => PAPER_MODELS[turn.alias]));
    expertChats.forEach((chat, i) => {
      const expected = goldenJson(variant, `expert-${turns[i]!.alias}.json`);
      const { model, temperature, max_tokens, max_completion_tokens } = chat;
      const received = { model, messages: wire(chat), temperature, max_tokens, max_completion_tokens };
      expect(JSON.parse(JSON.stringify(received)), turns[i]!.alias).toEqual(expected);
    });
  }, 60_000);

  it('sends the orchestrator the code block and documents exactly as the reference lays them out on turn 3', async () => {
    const { orchestratorChats } = await run(config(), paper.problem, paperResponses(paper.turns));
    const received = orchestratorChats[2]!.messages[1]!.content!;
    const expected = golden(variant, 'turn-3.txt').split('<|im_start|>user\n')[1]!.split('<|im_end|>')[0]!;
    expect(received).toBe(expected);
    // The code exactly as extracted (its leading and trailing newlines kept), then its output.
    expect(received).toContain(
      '```python\n\npopulation = 558457\nprint(f"Helsinki population in thousands: {population / 1000:.1f}")\n\n```\n\n```output\nHelsinki population in thousands: 558.5\n\n```\n\n',
    );
    // HLE cuts each document at 1,200 characters and marks it " ..."; FRAMES shows up to 4,000.
    expect(received).toContain(
      variant === 'hle' ? 'cold winters and mild su ...\n\nDoc 2: Espoo' : 'their first language.\n\nDoc 2: Espoo',
    );
  }, 60_000);
});

describe('the FRAMES script as it runs: the code never reaches the context (a documented deviation)', () => {
  const { paper } = scenario;
  const DROPPED = 'frames-code-dropped';
  // The code run as the scenario scripts it, laid out as both scripts lay out a code run.
  const CODE_RUN =
    '```python\n\npopulation = 558457\nprint(f"Helsinki population in thousands: {population / 1000:.1f}")\n\n```\n\n```output\nHelsinki population in thousands: 558.5\n\n```\n\n';

  it('is our turn 3 and our answer requests less the code run, and its turn 3 is its turn 2 again', async () => {
    expect(golden(DROPPED, 'turn-3.txt')).toBe(golden('frames', 'turn-2.txt'));
    expect(golden(DROPPED, 'turn-3.txt')).toContain('python code and execution outputs:\n\n\nChoose an appropriate tool.<|im_end|>');
    for (const answerAlias of paper.answerAliases) {
      const turns = paper.turns.map((turn) => (turn.tool === 'answer' ? { ...turn, alias: answerAlias } : turn));
      const { orchestratorPrompts, expertChats } = await run(paperConfig('frames'), paper.problem, paperResponses(turns));
      // The orchestrator's turn: the code run sits after the separator, which the script keeps.
      expect(orchestratorPrompts[2]).toContain(`outputs:\n${CODE_RUN}\n\nChoose`);
      expect(orchestratorPrompts[2]!.replace(CODE_RUN, '')).toBe(golden(DROPPED, 'turn-3.txt'));
      // The answer expert's context: the code run after the documents, the whole stripped.
      const answer = expertChats.at(-1)!;
      const { model, temperature, max_tokens, max_completion_tokens } = answer;
      const messages = wire(answer).map((message) => ({ ...message, content: message.content.replace(`\n\n${CODE_RUN.trimEnd()}`, '') }));
      const received = JSON.parse(JSON.stringify({ model, messages, temperature, max_tokens, max_completion_tokens })) as unknown;
      expect(received, answerAlias).toEqual(goldenJson(DROPPED, `expert-${answerAlias}.json`));
      expect(JSON.stringify(wire(answer)), `${answerAlias} is shown the code run`).toContain(JSON.stringify(CODE_RUN.trimEnd()).slice(1, -1));
    }
  }, 120_000);
});

describe('the function-calling protocol is the reference tau2 harness’s', () => {
  const fc = scenario.functionCalling;
  const config = () => ({
    protocol: 'function-calling',
    providers: providers(),
    orchestrator: { provider: 'open-models', model: ORCHESTRATOR, toolMode: 'prompt' },
    experts: Object.fromEntries(
      Object.entries(fc.experts).map(([alias, model]) => [
        alias,
        {
          tool: 'call_expert',
          provider: model.startsWith('gpt-5') ? 'openai' : 'open-models',
          model,
          ...TAU2_EXPERTS[alias as keyof typeof TAU2_EXPERTS],
          // What the reference asks GPT-5 with (get_llm_response's temperature, generate's max_length).
          ...(model.startsWith('gpt-5') ? { temperature: 1, maxTokens: 40000 } : {}),
        },
      ]),
    ),
    functionCalling: { system: fc.policy, tools: [] },
    customTools: fc.tools.map(({ function: tool }) => ({ ...tool, code: `return ${JSON.stringify(fc.toolResults[tool.name])};` })),
    preferenceInstruction: false,
  });

  it('shows the orchestrator and every expert the reference’s bytes', async () => {
    const responses: Record<string, ScriptedResponse[]> = {
      [ORCHESTRATOR]: fc.orchestratorReplies.map((content) => ({ content })),
    };
    for (const [alias, reply] of Object.entries(fc.expertReplies)) {
      (responses[fc.experts[alias]!] ??= []).push({ content: reply.content, toolCalls: reply.toolCalls });
    }
    const { result, orchestratorPrompts, orchestratorChats, expertChats } = await run(config(), fc.task, responses);
    expect(result).toMatchObject({ stopReason: 'final_message', answer: 'Helsinki has 558,457 inhabitants on 214.25 square kilometres.' });

    expect(orchestratorPrompts).toHaveLength(3);
    const sampling = goldenJson('function-calling', 'orchestrator.json');
    for (const chat of orchestratorChats) expect({ temperature: chat.temperature, max_tokens: chat.max_tokens }).toEqual(sampling);
    orchestratorPrompts.forEach((prompt, i) => {
      const expected = golden('function-calling', `turn-${i + 1}.txt`);
      expect(prompt, `turn ${i + 1}`).toBe(expected);
      expect(renderReceived(orchestratorChats[i]!), `turn ${i + 1} as received`).toBe(expected);
    });

    expect(expertChats.map((chat) => chat.model)).toEqual(['gpt-5', 'Qwen/Qwen3-32B']);
    // GPT-5 through the Responses API: the whole request, call ids aside (tau2's are random uuids;
    // each is numbered by first appearance, so a call and its output must still pair up).
    expect(server.requests.filter((request) => (request.body as RecordedChat).model === 'gpt-5').map((request) => request.path)).toEqual(['/v1/responses']);
    const { stream, input, ...gpt5 } = expertChats[0] as RecordedChat & { stream: boolean; input: Array<Record<string, unknown>> };
    expect(stream).toBe(true);
    const ids = new Map<unknown, string>();
    const numbered = input.map((item) => ('call_id' in item ? { ...item, call_id: ids.get(item.call_id) ?? ids.set(item.call_id, `call-${ids.size + 1}`).get(item.call_id) } : item));
    expect({ ...gpt5, input: numbered }, 'expert-1').toEqual(goldenJson('function-calling', 'expert-expert-1.json'));
    const qwen = expertChats[1]!;
    expect({ model: qwen.model, messages: wire(qwen), tools: qwen.tools }, 'expert-3').toEqual(goldenJson('function-calling', 'expert-expert-3.json'));
  }, 60_000);
});
