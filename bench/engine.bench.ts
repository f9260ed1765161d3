// Engine overhead benchmarks (run with `npm run bench`). Prints figures and ratios; it asserts
// nothing. The doubles answer instantly, so what is measured is the engine's own work per turn:
// building prompts and context, parsing, validating, the ledger and the event stream.

import { performance } from 'node:perf_hooks';
import { createSearchCorpusTool } from '../tools/search/tool.ts';
import type { Retriever } from '../workers/engine/ports.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { REFERENCE_PRICING } from '../workers/engine/pricing.ts';
import type { Protocol } from '../workers/engine/protocol.ts';
import { createFunctionCallingProtocol } from '../workers/engine/protocols/functionCalling.ts';
import { buildPaperTools } from '../workers/engine/protocols/paper.ts';
import { benchPaperExperts, benchPaperProtocol } from './paperSetup.ts';
import { parseModelOutput } from '../workers/engine/qwen3/parse.ts';
import { formatToolCall, renderChatML } from '../workers/engine/qwen3/render.ts';
import { runOrchestration } from '../workers/engine/run.ts';
import { median } from './stats.ts';
import type { ChatCompletion, ChatDelta, ChatModel, ChatRequest } from '../workers/engine/types.ts';

const RUNS = 100;
const TURNS_PER_RUN = 20;
const DELTAS_PER_REPLY = 20;

/** A chat model that answers at once from a script, streaming the reply in equal deltas. */
class InstantModel implements ChatModel {
  readonly label: string;
  readonly supportsServerTools = false;
  #turn = 0;
  constructor(
    readonly model: string,
    private readonly reply: (turn: number) => string,
  ) {
    this.label = `instant:${model}`;
  }
  reset(): void {
    this.#turn = 0;
  }
  complete(_request: ChatRequest, onDelta?: (delta: ChatDelta) => void): Promise<ChatCompletion> {
    const content = this.reply(this.#turn++);
    const size = Math.ceil(content.length / DELTAS_PER_REPLY);
    for (let i = 0; i < content.length; i += size) onDelta?.({ type: 'content', text: content.slice(i, i + size) });
    return Promise.resolve({
      content,
      usage: { promptTokens: 1000, completionTokens: 100 },
      finishReason: 'stop',
      latencyMs: 0,
    });
  }
}

/** Two fresh ~1 KB documents per search, so the context grows to its budget as in a long run. */
function instantRetriever(): Retriever & { reset(): void } {
  let next = 0;
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(22);
  return {
    reset: () => {
      next = 0;
    },
    search: () => {
      const docs = [0, 1].map(() => ({ id: `doc-${next}`, title: `Doc ${next}`, text: `${next++} ${text}`, score: 1 }));
      return Promise.resolve(docs);
    },
  };
}

const thinkAndCall = (name: string, args: Record<string, unknown>) =>
  `<think>The documents do not say yet; I should look it up with a cheap model.</think>\n${formatToolCall({ name, arguments: args })}`;

const orchestratorPaper = new InstantModel('Qwen/Qwen3-8B', (turn) =>
  turn % TURNS_PER_RUN === TURNS_PER_RUN - 1
    ? thinkAndCall('answer', { model: 'answer-2' })
    : thinkAndCall('search', { model: 'search-2' }),
);
const searchExpert = new InstantModel('gpt-5-mini', () => '<query>capital of France population</query>');
const answerExpert = new InstantModel('gpt-5', () => '<answer>Paris</answer>');
const retriever = instantRetriever();

const paperExperts = benchPaperExperts({ search: searchExpert, answer: answerExpert, reasoner: answerExpert });
const paperProtocol = benchPaperProtocol(paperExperts, retriever);

const orchestratorFc = new InstantModel('Qwen/Qwen3-8B', (turn) =>
  turn % TURNS_PER_RUN === TURNS_PER_RUN - 1
    ? '<think>I have what I need.</think>\n<message>Paris has about 2.1 million people.</message>'
    : thinkAndCall('search_corpus', { query: 'population of Paris' }),
);
const fcProtocol = createFunctionCallingProtocol({
  system: 'You answer questions about countries.',
  tools: [createSearchCorpusTool(retriever, { limit: 2 })],
  experts: [],
  toolTimeoutMs: 60_000,
});

async function engineRuns(protocol: Protocol, orchestrator: InstantModel): Promise<{ ms: number; turns: number; events: number }> {
  let turns = 0;
  let events = 0;
  const onEvent = (_event: RunEvent) => {
    events++;
  };
  const started = performance.now();
  for (let run = 0; run < RUNS; run++) {
    retriever.reset();
    const result = await runOrchestration({
      task: 'What is the population of the capital of France?',
      protocol,
      orchestrator: { model: orchestrator, toolMode: 'prompt' },
      pricing: REFERENCE_PRICING,
      limits: { maxTurns: TURNS_PER_RUN, maxCostUsd: null, maxWallMs: null, maxInvalidTurns: 3 },
      instruction: null,
      onEvent,
    });
    turns += result.totals.turns;
  }
  return { ms: performance.now() - started, turns, events };
}

/** The same awaits on the same doubles with no engine in between. */
async function bareRuns(kind: 'paper' | 'fc'): Promise<{ ms: number; turns: number }> {
  const noop = () => {};
  const request: ChatRequest = { messages: [] };
  let turns = 0;
  const started = performance.now();
  for (let run = 0; run < RUNS; run++) {
    retriever.reset();
    for (let turn = 0; turn < TURNS_PER_RUN; turn++) {
      turns++;
      const orchestrator = kind === 'paper' ? orchestratorPaper : orchestratorFc;
      await orchestrator.complete(request, noop);
      if (turn === TURNS_PER_RUN - 1) {
        if (kind === 'paper') await answerExpert.complete(request, noop);
      } else {
        if (kind === 'paper') await searchExpert.complete(request, noop);
        await retriever.search('q');
      }
    }
  }
  return { ms: performance.now() - started, turns };
}

async function loopBench(name: string, kind: 'paper' | 'fc') {
  const protocol = kind === 'paper' ? paperProtocol : fcProtocol;
  const orchestrator = kind === 'paper' ? orchestratorPaper : orchestratorFc;
  const reset = () => [orchestratorPaper, orchestratorFc, searchExpert, answerExpert].forEach((m) => m.reset());
  // Warm up the JIT on both paths first.
  reset();
  await engineRuns(protocol, orchestrator);
  reset();
  await bareRuns(kind);
  const engine: number[] = [];
  const bare: number[] = [];
  let eventsPerTurn = 0;
  for (let repeat = 0; repeat < 5; repeat++) {
    reset();
    const e = await engineRuns(protocol, orchestrator);
    engine.push(e.ms / e.turns);
    eventsPerTurn = e.events / e.turns;
    reset();
    const b = await bareRuns(kind);
    bare.push(b.ms / b.turns);
  }
  const enginePerTurn = median(engine);
  const barePerTurn = median(bare);
  return {
    name,
    enginePerTurnMs: enginePerTurn,
    barePerTurnMs: barePerTurn,
    overheadPerTurnMs: enginePerTurn - barePerTurn,
    ratio: enginePerTurn / barePerTurn,
    eventsPerTurn,
  };
}

function contextBench() {
  // A 24k-token (about 96 KB) context as the paper protocol builds it, and a reply of the same size.
  const documents = Array.from({ length: 24 }, (_, i) => `Doc ${i + 1}: ${'Population figures and capitals of countries. '.repeat(87)}\n\n`);
  const prompt = `Problem: What is the population of the capital of France?\n\nDocuments:\n${documents.join('')}\n\nChoose an appropriate tool.`;
  const tools = buildPaperTools(paperExperts);
  const messages = [
    { role: 'system' as const, content: 'You are good at using tools.' },
    { role: 'user' as const, content: prompt },
  ];
  const reply = `<think>${'Let me weigh the documents against the question. '.repeat(1900)}</think>\n${formatToolCall({ name: 'search', arguments: { model: 'search-2' } })}`;
  const iterations = 300;
  const time = (fn: () => void) => {
    for (let i = 0; i < 50; i++) fn();
    const samples: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const started = performance.now();
      fn();
      samples.push(performance.now() - started);
    }
    return median(samples);
  };
  // Reading a character flattens V8's rope, so the figure includes building the real string
  // (as posting it to the UI thread would).
  const renderMs = time(() => {
    const prompt = renderChatML(messages, tools, { addGenerationPrompt: true });
    if (prompt.charCodeAt(prompt.length >> 1) < 0) throw new Error('unreachable');
  });
  const parseMs = time(() => parseModelOutput(reply));
  return {
    promptChars: renderChatML(messages, tools, { addGenerationPrompt: true }).length,
    replyChars: reply.length,
    renderMs,
    parseMs,
    totalMs: renderMs + parseMs,
  };
}

export async function runEngineBenchmarks() {
  const loops = [await loopBench('paper protocol (search ×19, answer)', 'paper'), await loopBench('function calling (tool ×19, message)', 'fc')];
  return { loops, context: contextBench(), runsPerMeasurement: RUNS, turnsPerRun: TURNS_PER_RUN };
}
