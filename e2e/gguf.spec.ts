import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startStaticSite, type StaticSite } from './fixtures/staticSite.ts';
import { TINY_SPECIAL_TOKENS, writeTinyGguf, writeTinyGgufSplits } from './fixtures/tinyGguf.ts';
import { buildGgufBody } from '../workers/backends/gguf/ggufModel.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { answerMessages, buildPaperTools, PAPER_SYSTEM_PROMPT } from '../workers/engine/protocols/paper.ts';
import { gpuLayersMemory, readGgufBlobHeader, type GgufHeader } from '../workers/backends/gguf/ggufHeader.ts';
import { formatBytes } from '../workers/engine/format.ts';
import { CPU_REASONS } from '../workers/backends/gguf/cpuReasons.ts';
import { openSideTab } from './support/playground.ts';
import { expect, test } from './support/test.ts';

// Real inference in Chromium: a tiny Qwen3 GGUF with random weights, written for this test,
// loaded by llama.cpp (wllama) in the GGUF model worker of the production build, and driven
// through the ChatModel and a whole run of the engine (e2e/harness/gguf.ts). The grammar that
// constrains the reply to one call of an offered tool is what makes random weights call tools.

test.describe.configure({ timeout: 180_000 });

const HARNESS = '/e2e/harness/gguf.html';
const CONTEXT = 8192;

let folder: string;
let site: StaticSite;
let modelUrl: string;
let modelBytes: number;
/** The tiny model's header, for the memory figure of its WebGPU layers. */
let modelHeader: GgufHeader;
let splitUrl: string;
/** The tiny model without `<think>` and `</think>` in its vocabulary, as a model of another family. */
let noThinkUrl: string;

test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tiny-gguf-'));
  const path = await writeTinyGguf(folder);
  modelBytes = (await stat(path)).size;
  modelHeader = await readGgufBlobHeader(new Blob([new Uint8Array(await readFile(path))]));
  // The same model as llama-gguf-split writes it: two files, each a GGUF with some of the tensors.
  await writeTinyGgufSplits(folder, 2);
  await writeTinyGguf(folder, { thinkTokens: false }, 'tiny-no-think.gguf');
  // Another origin, as a model host is: the model worker's fetch is a CORS request, which the
  // page's cross-origin isolation (require-corp) lets through when the host allows it.
  site = await startStaticSite(folder, { headers: { 'access-control-allow-origin': '*' } });
  modelUrl = `${site.url}/tiny-qwen3.gguf`;
  splitUrl = `${site.url}/tiny-qwen3-split-00001-of-00002.gguf`;
  noThinkUrl = `${site.url}/tiny-no-think.gguf`;
});

test.afterAll(async () => {
  await site?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function openHarness(page: Page): Promise<void> {
  await page.goto(HARNESS);
  await page.waitForFunction(() => 'ggufHarness' in window);
}

const ROUTER_SYSTEM = [
  'You route questions.',
  '',
  '# Tools',
  '',
  'You may call one or more functions to assist with the user query.',
  '',
  'You are provided with function signatures within <tools></tools> XML tags:',
  '<tools>',
  JSON.stringify({
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Look a city up.',
      parameters: { type: 'object', properties: { city: { type: 'string', enum: ['Paris', 'Lima'] }, days: { type: 'integer' } }, required: ['city', 'days'] },
    },
  }),
  '</tools>',
].join('\n');

test('loads on the CPU and streams a constrained tool call with usage, timings and a working abort', async ({ page }) => {
  await openHarness(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  const loaded = await page.evaluate(
    ([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 1, gpuLayers: 0 }),
    [modelUrl, CONTEXT] as const,
  );
  expect(loaded.runtime).toMatchObject({ contextWindow: CONTEXT, threads: 1, webgpu: false, fromCache: false, thinkTokens: true });
  expect(loaded.progress).toBeGreaterThan(0);

  const request = { messages: [{ role: 'system' as const, content: ROUTER_SYSTEM }, { role: 'user' as const, content: 'Weather in Lima?' }], maxTokens: 120, temperature: 1 };
  const first = await page.evaluate((body) => window.ggufHarness.complete(body, { constrain: true }), request);
  expect(first.error).toBeUndefined();
  const completion = first.completion!;
  // Real tokens, streamed one by one, and the call the grammar allows.
  expect(first.deltas.length).toBeGreaterThan(5);
  expect(first.deltas.join('')).toBe(completion.content);
  expect(completion.content).toMatch(/^<tool_call>\n\{"name": "lookup", "arguments": \{"city": "(Paris|Lima)", "days": -?\d+\}\}\n<\/tool_call>$/);
  expect(completion.finishReason).toBe('stop');
  expect(completion.usage!.promptTokens).toBeGreaterThan(100);
  // Every token a delta, plus the end-of-turn token, which has no text.
  expect(completion.usage!.completionTokens - first.deltas.length).toBeGreaterThanOrEqual(0);
  expect(completion.usage!.completionTokens - first.deltas.length).toBeLessThanOrEqual(1);
  expect(completion.usage!.decodeTokensPerSecond).toBeGreaterThan(0);
  expect(completion.timeToFirstTokenMs).toBeGreaterThan(0);
  expect(completion.timings!.totalMs).toBeGreaterThan(0);

  // The same prompt again: llama.cpp keeps the KV cache of the last turn and prefills only the rest.
  const second = await page.evaluate((body) => window.ggufHarness.complete(body, { constrain: true }), request);
  expect(second.completion!.usage!.cachedPromptTokens).toBeGreaterThan(100);

  // Unconstrained and long, aborted after three deltas: the call rejects as aborted, at once.
  const aborted = await page.evaluate(
    (body) => window.ggufHarness.complete({ ...body, maxTokens: 2000 }, { constrain: false, abortAfterDeltas: 3 }),
    { ...request, messages: [{ role: 'user' as const, content: 'Talk.' }] },
  );
  expect(aborted.error).toMatch(/^\[aborted\]/);
  expect(aborted.deltas.length).toBeGreaterThanOrEqual(3);
  expect(aborted.deltas.length).toBeLessThan(50);
  // The model is free again after the abort.
  const after = await page.evaluate((body) => window.ggufHarness.complete(body, { constrain: true }), request);
  expect(after.completion?.finishReason).toBe('stop');
});

/** A special token's id in the tiny model's vocabulary (after the 256 byte tokens). */
const tokenId = (text: string) => 256 + TINY_SPECIAL_TOKENS.findIndex((token) => token.text === text);
const CALL = /<tool_call>\n\{"name": "lookup", "arguments": \{"city": "(Paris|Lima)", "days": -?\d+\}\}\n<\/tool_call>$/;

test('constrained, the thinking before the call stays free: a <think> block goes on to the token budget until the model closes it, then comes the call', async ({ page }) => {
  await openHarness(page);
  await page.evaluate(([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 1, gpuLayers: 0 }), [modelUrl, CONTEXT] as const);
  const request = { messages: [{ role: 'system' as const, content: ROUTER_SYSTEM }, { role: 'user' as const, content: 'Weather in Lima?' }], maxTokens: 160, temperature: 0 };
  const body = buildGgufBody({ constrainToolCalls: true, thinkTokens: true }, request);
  // A model that always wants <think> (llama.cpp's logit bias, by token id): the grammar lets it
  // open the block and think on, token after token, to the end of the budget; nothing closes it.
  const thinking = await page.evaluate((b) => window.ggufHarness.chat(b), { ...body, max_tokens: 40, logit_bias: [[tokenId('<think>'), 100]] } as never);
  expect(thinking.error).toBeUndefined();
  expect(thinking.content.startsWith('<think>')).toBe(true);
  expect(thinking.finishReason).toBe('length');
  expect(thinking.timings?.predicted_n).toBe(40);
  // One that closes the block as soon as it may: then only the call is allowed, and the reply ends.
  const closing = await page.evaluate((b) => window.ggufHarness.chat(b), { ...body, logit_bias: [[tokenId('<think>'), 99], [tokenId('</think>'), 100]] } as never);
  expect(closing.content).toMatch(new RegExp(`^<think></think>\n{0,2}${CALL.source}`));
  expect(closing.finishReason).toBe('stop');
  // Thinking off: Qwen3's template writes an empty block itself (llama.cpp repeats it at the start
  // of the content), and the grammar offers none: even this model goes straight to the call.
  const off = buildGgufBody({ constrainToolCalls: true, thinkTokens: true }, { ...request, enableThinking: false });
  const direct = await page.evaluate((b) => window.ggufHarness.chat(b), { ...off, logit_bias: [[tokenId('<think>'), 100]] } as never);
  expect(direct.content).toMatch(new RegExp(`^<think>\\s*</think>\\s*${CALL.source}`));
});

test('on Qwen3\'s real vocabulary (151,669 tokens) the grammar makes a paper-protocol reply one valid call, its <think> block matched by Qwen3\'s own tokens', async ({ page }) => {
  // Written here, not in beforeAll: 84 MB, for this test alone.
  await writeTinyGguf(folder, { vocabulary: 'qwen3' }, 'tiny-qwen3-vocab.gguf');
  await openHarness(page);
  const loaded = await page.evaluate(([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 1, gpuLayers: 0 }), [`${site.url}/tiny-qwen3-vocab.gguf`, CONTEXT] as const);
  // Read from the file's own vocabulary: Qwen3's thinking tokens are there.
  expect(loaded.runtime.thinkTokens).toBe(true);
  const tools = buildPaperTools([
    { alias: 'search-1', tool: 'search', description: 'finds.', latencySeconds: 3, price: { inputPerM: 0.25, outputPerM: 2 } },
    { alias: 'answer-1', tool: 'answer', description: 'answers.', latencySeconds: 9, price: { inputPerM: 1.25, outputPerM: 10 } },
  ] as never);
  const request = {
    messages: [
      { role: 'system' as const, content: PAPER_SYSTEM_PROMPT },
      { role: 'user' as const, content: 'Problem: What is the capital of Peru?\n\n\n\nChoose an appropriate tool.' },
    ],
    tools,
    maxTokens: 60,
    temperature: 1,
  };
  const reply = await page.evaluate((r) => window.ggufHarness.complete(r as never, { constrain: true }), request);
  expect(reply.error).toBeUndefined();
  expect(reply.completion!.content).toMatch(/^<tool_call>\n\{"name": "(answer|search)", "arguments": \{"model": "(answer-1|search-1)"\}\}\n<\/tool_call>$/);
  expect(reply.completion!.finishReason).toBe('stop');
  // Qwen3's tokens: fewer than the call's characters (the byte model writes one per character).
  expect(reply.completion!.usage!.completionTokens).toBeLessThan(reply.completion!.content.length - 10);
  // The block opens with Qwen3's <think> token (id 151667) and closes with </think> (151668).
  const body = buildGgufBody({ constrainToolCalls: true, thinkTokens: true }, { ...request, temperature: 0 });
  const closing = await page.evaluate((b) => window.ggufHarness.chat(b), { ...body, logit_bias: [[151_667, 99], [151_668, 100]] } as never);
  expect(closing.content).toMatch(/^<think><\/think>\n{0,2}<tool_call>\n\{"name": "(answer|search)", "arguments": \{"model": "(answer-1|search-1)"\}\}\n<\/tool_call>$/);
});

test('the orchestrator keeps its KV cache between turns while a local expert on the same loaded model answers in between', async ({ page }) => {
  await openHarness(page);
  await page.evaluate(([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 1, gpuLayers: 0 }), [modelUrl, CONTEXT] as const);
  const tools = buildPaperTools([
    { alias: 'search-1', tool: 'search', description: 'finds.', latencySeconds: 3, price: { inputPerM: 0.25, outputPerM: 2 } },
    { alias: 'answer-1', tool: 'answer', description: 'answers.', latencySeconds: 9, price: { inputPerM: 1.25, outputPerM: 10 } },
  ] as never);
  const documents = 'Documents:\nDoc 1: Lima is the capital of Peru ...\n\n';
  // The paper protocol's orchestrator turns: a fresh two-message chat, the context rebuilt.
  const turn = (context: string) => ({
    messages: [
      { role: 'system' as const, content: PAPER_SYSTEM_PROMPT },
      { role: 'user' as const, content: `Problem: What is the capital of Peru?\n\n${context}\n\nChoose an appropriate tool.` },
    ],
    tools,
    maxTokens: 60,
    temperature: 0,
  });
  const expert = { messages: answerMessages('boxed', 'frames', documents, 'What is the capital of Peru?'), maxTokens: 16, temperature: 0 };
  const call = (request: unknown, constrain: boolean) => page.evaluate(([r, c]) => window.ggufHarness.complete(r as never, { constrain: c as boolean }), [request, constrain] as const);
  const first = (await call(turn(''), true)).completion!;
  const answering = (await call(expert, false)).completion!;
  const second = (await call(turn(documents), true)).completion!;
  const again = (await call(expert, false)).completion!;
  // Turn 1's prompt up to its context is turn 2's too: only what follows is prefilled again, though
  // the expert's different prompt ran on the same model in between (in a slot of its own).
  const tail = '\n\nChoose an appropriate tool.<|im_end|>\n<|im_start|>assistant\n'.length;
  expect(answering.usage!.cachedPromptTokens ?? 0).toBeLessThan(10);
  expect(second.usage!.cachedPromptTokens).toBeGreaterThanOrEqual(first.usage!.promptTokens - tail);
  expect(second.usage!.promptTokens - second.usage!.cachedPromptTokens!).toBeLessThanOrEqual(documents.length + tail);
  // And the expert, asked the same again, finds its own cache.
  expect(again.usage!.cachedPromptTokens).toBeGreaterThanOrEqual(answering.usage!.promptTokens - 1);
  expect(again.content).toBe(answering.content);
  // A turn aborted after a few tokens leaves them in its slot's cache: the same turn again reuses
  // the prompt only, and says what it said before (greedy), never continuing the aborted reply.
  const aborted = await page.evaluate((r) => window.ggufHarness.complete(r as never, { constrain: true, abortAfterDeltas: 3 }), turn(documents));
  expect(aborted.error).toMatch(/^\[aborted\]/);
  const redone = (await call(turn(documents), true)).completion!;
  expect(redone.content).toBe(second.content);
  expect(redone.usage!.cachedPromptTokens).toBeGreaterThanOrEqual(second.usage!.promptTokens - 1);
});

const PAPER_CONFIG = {
  protocol: 'paper',
  providers: { tab: { kind: 'gguf', contextWindow: CONTEXT, constrainToolCalls: true } },
  orchestrator: { provider: 'tab', model: 'tiny-qwen3', toolMode: 'prompt', maxTokens: 400, temperature: 1 },
  experts: {
    'search-1': { tool: 'search', provider: 'tab', model: 'tiny-qwen3', description: 'writes queries.', maxTokens: 24 },
    'reasoner-1': { tool: 'enhance_reasoning', provider: 'tab', model: 'tiny-qwen3', description: 'writes Python.', maxTokens: 24 },
    'answer-1': { tool: 'answer', provider: 'tab', model: 'tiny-qwen3', description: 'answers.', maxTokens: 24 },
    'answer-2': { tool: 'answer', provider: 'tab', model: 'tiny-qwen3', description: 'answers well.', maxTokens: 24 },
  },
  paper: { contextTokens: 1500, documentChars: 200, codeContextTokens: 500 },
  limits: { maxTurns: 3 },
};

test('a whole paper-protocol run in the app\'s orchestrator worker with the tiny model as orchestrator and experts: real calls, $0, tokens counted', async ({ page }) => {
  await openHarness(page);
  const { events, deltas, progress, models } = await page.evaluate(
    ([config, url, contextWindow]) =>
      window.ggufHarness.run(config, 'What is the capital of Peru?', { id: 'tiny-qwen3', label: 'Tiny Qwen3 (random weights)', url, contextWindow, threads: 1, gpuLayers: 0 }),
    [PAPER_CONFIG, modelUrl, CONTEXT] as const,
  );
  // Loaded through the app's orchestrator worker: one progress bar, then the model in the list
  // the page shows, saying where it runs.
  expect(progress.length).toBeGreaterThan(0);
  expect(progress.at(-1)).toMatchObject({ phase: 'downloading', bytesLoaded: modelBytes });
  expect(models?.loaded).toEqual([
    expect.objectContaining({ id: 'tiny-qwen3', label: 'Tiny Qwen3 (random weights)', contextWindow: CONTEXT, gguf: expect.objectContaining({ threads: 1, webgpu: false }) }),
  ]);
  const finished = events.find((event) => event.type === 'run_finished');
  expect(finished, JSON.stringify(events.filter((event) => event.type === 'error'))).toBeDefined();
  if (finished?.type !== 'run_finished') return;
  const errors = JSON.stringify(events.filter((event) => event.type === 'error' || (event.type === 'tool_result' && !event.ok)));
  expect(['answered', 'max_turns'], errors).toContain(finished.stopReason);
  expect(deltas).toBeGreaterThan(10);
  // Every orchestrator turn made a valid call with an alias that exists: the grammar held.
  const calls = events.flatMap((event) => (event.type === 'tool_call' ? [event] : []));
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) expect(Object.keys(PAPER_CONFIG.experts)).toContain(call.arguments.model);
  expect(events.filter((event) => event.type === 'model_output' && event.rejected.length > 0), errors).toEqual([]);
  // Local models cost nothing, and their tokens are counted as llama.cpp reported them.
  const usage = events.flatMap((event) => (event.type === 'usage' && (event.entry.kind === 'orchestrator' || event.entry.kind === 'expert') ? [event.entry] : []));
  expect(usage.length).toBeGreaterThan(1);
  for (const entry of usage) {
    expect(entry.usd).toBe(0);
    expect(entry.usage!.promptTokens).toBeGreaterThan(0);
  }
  // The only money spent is what the run's other calls cost at their listed prices: Python run
  // for enhance_reasoning is charged by the second, when the random model's expert writes code.
  const others = events.flatMap((event) => (event.type === 'usage' && event.entry.kind !== 'orchestrator' && event.entry.kind !== 'expert' ? [event.entry.usd ?? 0] : []));
  expect(finished.totals.costUsd).toBeCloseTo(others.reduce((sum, usd) => sum + usd, 0), 12);
});

test('a model without Qwen3\'s thinking tokens (another family\'s vocabulary) gets the call alone: every constrained reply is one valid call, in the ChatModel and in a whole run', async ({ page }) => {
  await openHarness(page);
  const loaded = await page.evaluate(([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 1, gpuLayers: 0 }), [noThinkUrl, CONTEXT] as const);
  // Read from the file's vocabulary: no <think>, no </think>.
  expect(loaded.runtime.thinkTokens).toBe(false);
  const request = { messages: [{ role: 'system' as const, content: ROUTER_SYSTEM }, { role: 'user' as const, content: 'Weather in Lima?' }], maxTokens: 120, temperature: 1 };
  for (let index = 0; index < 3; index++) {
    const reply = await page.evaluate((r) => window.ggufHarness.complete(r, { constrain: true }), request);
    expect(reply.error).toBeUndefined();
    expect(reply.completion!.content).toMatch(new RegExp(`^${CALL.source}`));
    expect(reply.completion!.finishReason).toBe('stop');
  }
  // What the grammar with the thinking block does on this vocabulary: llama.cpp refuses the request.
  const refused = await page.evaluate((b) => window.ggufHarness.chat(b), buildGgufBody({ constrainToolCalls: true, thinkTokens: true }, request));
  expect(refused.error).toMatch(/grammar/i);
  expect(refused.content).toBe('');
  // A whole paper-protocol run through the app's orchestrator worker, this model as orchestrator
  // and experts: the worker read the vocabulary, and every turn called a tool that exists.
  const { events } = await page.evaluate(
    ([config, url, contextWindow]) => window.ggufHarness.run(config, 'What is the capital of Peru?', { id: 'tiny-qwen3', label: 'No thinking tokens', url, contextWindow, threads: 1, gpuLayers: 0 }),
    [PAPER_CONFIG, noThinkUrl, CONTEXT] as const,
  );
  const errors = JSON.stringify(events.filter((event) => event.type === 'error' || (event.type === 'tool_result' && !event.ok)));
  const finished = events.find((event) => event.type === 'run_finished');
  expect(finished?.type === 'run_finished' && ['answered', 'max_turns'].includes(finished.stopReason), errors).toBe(true);
  const outputs = events.flatMap((event) => (event.type === 'model_output' ? [event] : []));
  expect(outputs.length).toBeGreaterThan(0);
  for (const output of outputs) expect(output.raw).toMatch(/^<tool_call>\n\{"name": "(search|enhance_reasoning|answer)", "arguments": \{"model": "(search-1|reasoner-1|answer-1|answer-2)"\}\}\n<\/tool_call>$/);
  expect(outputs.filter((output) => output.rejected.length > 0), errors).toEqual([]);
});

/** What a run said and did, in order: the orchestrator's raw replies, every tool result with the
 * expert's raw reply behind it, and how it ended. */
function transcript(events: RunEvent[]): string[] {
  return events.flatMap((event) => {
    if (event.type === 'model_output') return [`orchestrator: ${event.raw}`];
    if (event.type === 'tool_result') return [`${event.name}: ${event.content} | ${JSON.stringify((event.detail as { raw?: unknown } | undefined)?.raw ?? null)}`];
    if (event.type === 'run_finished') return [`finished: ${event.stopReason} ${event.answer}`];
    return [];
  });
}

test('two runs on one loaded model, their calls interleaved, each say what they say when run alone: no cache of the other run is ever continued', async ({ page }) => {
  test.setTimeout(300_000);
  await openHarness(page);
  // One sampling seed for every request: a run is then a function of its prompts (and of the KV
  // cache, were it misused). With this seed each run goes on for its three turns (enhance_reasoning
  // each time, its expert's code run in Python), so the two runs' calls can interleave.
  const config = PAPER_CONFIG;
  const tasks = ['What is the capital of Peru?', 'Who wrote Don Quixote, and when?'];
  const load = { id: 'tiny-qwen3', label: 'Tiny Qwen3', url: modelUrl, contextWindow: CONTEXT, threads: 1, gpuLayers: 0, seed: 11 };
  const alone = await page.evaluate(([c, t, l]) => window.ggufHarness.runMany(c, t, l, { together: false }), [config, tasks, load] as const);
  const together = await page.evaluate(([c, t, l]) => window.ggufHarness.runMany(c, t, l, { together: true }), [config, tasks, load] as const);
  const [a, b] = alone.events.map(transcript);
  expect(alone.requests).toEqual([0, 0, 0, 1, 1, 1]);
  expect(a).not.toEqual(b);
  // Together, the two runs' model calls took turns on the one model.
  expect(together.requests).not.toEqual([...together.requests].sort());
  expect(together.events.map(transcript)).toEqual([a, b]);
});

test('runs multi-threaded: the page is cross-origin isolated, so llama.cpp gets its threads', async ({ page }) => {
  await openHarness(page);
  const loaded = await page.evaluate(([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 2, gpuLayers: 0 }), [modelUrl, CONTEXT] as const);
  expect(loaded.runtime.threads).toBe(2);
  // Eight tokens only: two threads on a busy two-core machine decode slower than one.
  const short = await page.evaluate(() => window.ggufHarness.complete({ messages: [{ role: 'user', content: 'Hi' }], maxTokens: 8 }, { constrain: false }));
  expect(short.completion?.usage?.completionTokens).toBe(8);
  expect(short.deltas.join('')).toBe(short.completion?.content);
});

// chromium-webgpu runs with --enable-unsafe-webgpu (SwiftShader, a software adapter without
// shader-f16 on this machine). llama.cpp's WebGPU backend either takes the adapter, or the model
// worker says plainly why not and runs the model on the CPU: both end in a working model.
test('@webgpu offloads to the WebGPU adapter, or says why not and runs on the CPU', async ({ page }, testInfo) => {
  await openHarness(page);
  // One of the two layers asked for: the setting reaches the worker, which says what it takes.
  const loaded = await page.evaluate(([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 1, gpuLayers: 1 }), [modelUrl, CONTEXT] as const);
  expect(loaded.runtime.gpuLayers).toEqual(gpuLayersMemory([modelHeader], 1, CONTEXT));
  expect(loaded.runtime.gpuLayers?.blocks).toBe(2);
  testInfo.annotations.push({ type: 'webgpu', description: loaded.runtime.webgpu ? 'llama.cpp offloaded layers to WebGPU' : `CPU: ${loaded.runtime.cpuReason}` });
  const adapter = await page.evaluate(async () => {
    const found = await (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ features: Set<string> } | null> } }).gpu?.requestAdapter();
    return found ? { f16: found.features.has('shader-f16') } : null;
  });
  if (!adapter) expect(loaded.runtime.cpuReason).toBe(CPU_REASONS.noAdapter);
  else if (!adapter.f16) {
    expect(loaded.runtime).toMatchObject({
      webgpu: false,
      cpuReason: CPU_REASONS.noF16,
    });
  } else if (loaded.runtime.webgpu) expect(loaded.runtime.cpuReason).toBeUndefined();
  else expect(loaded.runtime.cpuReason).toMatch(/WebGPU.*: it runs on the CPU\.$/);
  const reply = await page.evaluate(
    (system) => window.ggufHarness.complete({ messages: [{ role: 'system', content: system }, { role: 'user', content: 'Weather in Paris?' }], maxTokens: 120 }, { constrain: true }),
    ROUTER_SYSTEM,
  );
  expect(reply.completion?.content).toMatch(/^<tool_call>\n\{"name": "lookup", "arguments": \{"city": "(Paris|Lima)", "days": -?\d+\}\}\n<\/tool_call>$/);
});

test('the Models panel loads a GGUF model from an address after asking, on the CPU where there is no WebGPU, keeps it in the browser, and deletes it', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await openSideTab(page, 'Models');
  const section = page.locator('section.gguf-models');
  const kept = section.getByRole('list', { name: 'Kept in this browser' }).getByRole('listitem');
  await expect(section.getByText('No GGUF model is kept in this browser.')).toBeVisible();
  // Headless Chromium without --enable-unsafe-webgpu offers no adapter: no layers to put on WebGPU.
  await expect(section).toContainText(CPU_REASONS.noAdapter);
  await expect(section.getByLabel(/Layers on WebGPU/)).toHaveCount(0);
  await section.getByLabel(/URL or Hugging Face/).fill(modelUrl);
  await section.getByRole('button', { name: 'Load from this address' }).click();
  const confirm = section.getByRole('dialog', { name: 'Confirm the download' });
  await expect(confirm).toContainText(`Download tiny-qwen3.gguf (size unknown until the download starts) from ${new URL(modelUrl).host}?`);
  await confirm.getByRole('button', { name: 'Download and load' }).click();
  const loaded = section.getByRole('list', { name: 'GGUF models loaded' }).getByRole('listitem');
  // llama.cpp runs on the CPU and says so in a person's words, with no layer count for WebGPU.
  await expect(loaded.locator('.gguf-loaded-facts')).toHaveText(new RegExp(`^tiny-qwen3\\.gguf · 8,192 tokens · \\d+ threads? · ${escapeRegExp(CPU_REASONS.noAdapter)}$`), { timeout: 60_000 });
  await expect(loaded).not.toContainText('layers on WebGPU');
  await loaded.getByRole('button', { name: 'Unload' }).click();
  await expect(loaded).toHaveCount(0);

  // The download is kept in the browser, with its size; loading it again asks without downloading.
  await expect(kept).toHaveText([`tiny-qwen3.gguf · ${formatBytes(modelBytes)} · from ${new URL(modelUrl).host} Delete…`]);
  await section.getByRole('button', { name: 'Load from this address' }).click();
  await expect(confirm).toContainText(`tiny-qwen3.gguf (${formatBytes(modelBytes)}) is kept in this browser: load it from there? Nothing is downloaded.`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // Delete asks first; Keep keeps it, Delete frees it, and the next load asks to download again.
  await kept.getByRole('button', { name: 'Delete…' }).click();
  const sure = kept.getByRole('group', { name: 'Confirm deleting tiny-qwen3.gguf' });
  await expect(sure).toContainText(`Delete tiny-qwen3.gguf and free ${formatBytes(modelBytes)}? Loading it again downloads it again.`);
  await sure.getByRole('button', { name: 'Keep' }).click();
  await expect(kept).toHaveCount(1);
  await kept.getByRole('button', { name: 'Delete…' }).click();
  await kept.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(kept).toHaveCount(0);
  await expect(section.getByText('No GGUF model is kept in this browser.')).toBeVisible();
  // Its files are gone from the origin's private file system, where wllama keeps them.
  const files = await page.evaluate(async () => {
    const cache = await (await navigator.storage.getDirectory()).getDirectoryHandle('cache', { create: true });
    const names: string[] = [];
    for await (const name of (cache as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
    return names;
  });
  expect(files).toEqual([]);
  await section.getByRole('button', { name: 'Load from this address' }).click();
  await expect(confirm).toContainText('Download tiny-qwen3.gguf (size unknown until the download starts)');
  expect(consoleErrors).toEqual([]);
});

test('a loaded GGUF model goes to work in one click: as the orchestrator, then as the expert of an alias, each change said, focus on Open Setup (issue 24, item 13)', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await openSideTab(page, 'Models');
  const section = page.locator('section.gguf-models');
  await section.getByLabel(/URL or Hugging Face/).fill(modelUrl);
  await section.getByRole('button', { name: 'Load from this address' }).click();
  await section.getByRole('dialog', { name: 'Confirm the download' }).getByRole('button', { name: /load/i }).first().click();
  const loaded = section.getByRole('list', { name: 'GGUF models loaded' }).getByRole('listitem');
  await expect(loaded).toHaveCount(1, { timeout: 60_000 });
  const said = loaded.getByRole('status', { name: 'Setup for tiny-qwen3.gguf' });

  await loaded.getByRole('button', { name: 'Use as orchestrator' }).click();
  await expect(said).toHaveText('Setup changed: the orchestrator is now tiny-qwen3.gguf (through the new provider “gguf”), its tools written into its prompt. Open Setup');
  await expect(loaded.getByRole('button', { name: 'Is the orchestrator' })).toBeDisabled();
  await expect(said.getByRole('button', { name: 'Open Setup' })).toBeFocused();

  // The built-in example's paper preset: answer-1 is GPT-5 until the model takes its place.
  await loaded.getByRole('combobox', { name: 'Expert alias' }).selectOption('alias:answer-1');
  await loaded.getByRole('button', { name: 'Use as expert for alias answer-1' }).click();
  await expect(said).toHaveText('Setup changed: alias answer-1 (answer) now calls tiny-qwen3.gguf, in place of gpt-5. Open Setup');
  await expect(said.getByRole('button', { name: 'Open Setup' })).toBeFocused();

  // Setup holds what was said: the config it would export names the model in both places.
  await said.getByRole('button', { name: 'Open Setup' }).click();
  const setup = page.getByRole('tabpanel', { name: 'Setup' });
  await expect(setup).toBeVisible();
  const draft = await page.evaluate(() => JSON.parse(localStorage.getItem('orchestra-playground:setup') ?? '{}') as { state?: { draft?: Record<string, unknown> } });
  expect(draft.state?.draft).toMatchObject({
    providers: { gguf: { kind: 'gguf' } },
    orchestrator: { provider: 'gguf', model: 'tiny-qwen3.gguf', toolMode: 'prompt' },
    experts: { 'answer-1': { tool: 'answer', provider: 'gguf', model: 'tiny-qwen3.gguf' } },
  });
  expect(consoleErrors).toEqual([]);
});

test('loads a model split in two files from the address of the first, and runs it', async ({ page }) => {
  await openHarness(page);
  // Every layer asked for WebGPU (none here: the CPU): the figure reads every part's tensors.
  const loaded = await page.evaluate(([url, contextWindow]) => window.ggufHarness.load({ url, contextWindow, threads: 1, gpuLayers: 999 }), [splitUrl, CONTEXT] as const);
  expect(loaded.runtime).toMatchObject({ contextWindow: CONTEXT, webgpu: false, fromCache: false });
  expect(loaded.runtime.gpuLayers).toEqual(gpuLayersMemory([modelHeader], 999, CONTEXT));
  expect(site.requests).toEqual(expect.arrayContaining(['/tiny-qwen3-split-00001-of-00002.gguf', '/tiny-qwen3-split-00002-of-00002.gguf']));
  const reply = await page.evaluate(
    (system) => window.ggufHarness.complete({ messages: [{ role: 'system', content: system }, { role: 'user', content: 'Weather in Lima?' }], maxTokens: 120 }, { constrain: true }),
    ROUTER_SYSTEM,
  );
  expect(reply.completion?.content).toMatch(/^<tool_call>\n\{"name": "lookup", "arguments": \{"city": "(Paris|Lima)", "days": -?\d+\}\}\n<\/tool_call>$/);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
