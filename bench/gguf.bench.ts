// llama.cpp in the tab (run with `npm run bench -- --only gguf`): the tiny Qwen3 of
// e2e/fixtures/tinyGguf.ts, written to a temporary folder and served from another origin, loaded
// in Chromium on the CPU with one thread and with two (the page is cross-origin isolated). The same
// requests go through our path — the GGUF model worker, its port and the ChatModel
// (e2e/harness/gguf.ts) — and to wllama called directly on a page (e2e/harness/ggufDirect.ts),
// one call of each in turn, so a change of load on the machine hits both alike. Prints prefill and
// decode tok/s (llama.cpp's own timings) and the ratio of ours to direct.

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startStaticSite } from '../e2e/fixtures/staticSite.ts';
import { writeTinyGguf } from '../e2e/fixtures/tinyGguf.ts';
import type { GgufDirectHarness } from '../e2e/harness/ggufDirect.ts';
import type { GgufHarness } from '../e2e/harness/gguf.ts';
import type { ChatRequest } from '../workers/engine/types.ts';
import { buildApp, chromiumPath, startPreview } from './previewServer.ts';
import { summarize, type Summary } from './stats.ts';

export const GGUF_THREADS = [1, 2] as const;
/** Measured calls per path and thread count, after one call each that is not counted. */
export const GGUF_SAMPLES = 5;
const CONTEXT = 4096;
/** Tokens decoded per call: unconstrained, the tiny model writes printable text and rarely ends. */
const DECODE_TOKENS = 64;
/** About 1,000 prompt tokens: the tiny model's vocabulary is bytes, one token per character. */
const FILLER = 'The orchestrator reads the question, weighs the price and latency of every expert, and calls one. '.repeat(10);

export interface GgufBenchOptions {
  distDir?: string;
  log: (line: string) => void;
}

/** One call, as both paths report it. */
interface Call {
  promptTokens: number;
  decodedTokens: number;
  prefillMs: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  /** From the call to its result, timed on the page that made it. */
  wallMs: number;
  firstTokenMs: number;
  /** The wall time less llama.cpp's own prefill and decode time: what the path around it costs. */
  outsideMs: number;
}

export interface GgufPathFigures {
  prefillMs: Summary;
  prefillTokensPerSecond: Summary;
  decodeTokensPerSecond: Summary;
  wallMs: Summary;
  firstTokenMs: Summary;
  outsideMs: Summary;
}

export interface GgufThreadFigures {
  threads: number;
  promptTokens: number;
  decodedTokens: number;
  ours: GgufPathFigures;
  direct: GgufPathFigures;
}

export interface GgufBenchResult {
  chromium: string;
  wllamaVersion: string;
  modelBytes: number;
  samples: number;
  runs: GgufThreadFigures[];
  loadAverage: [number, number];
  pageErrors: string[];
}

/** A distinct prompt per call: llama.cpp keeps the last prompt's KV cache, and a prompt that
 * differs from its first line on is prefilled again in full, on both paths alike. */
function request(index: number): Omit<ChatRequest, 'signal'> {
  return {
    messages: [
      { role: 'system', content: `Request ${index}. ${FILLER}` },
      { role: 'user', content: 'Say something.' },
    ],
    maxTokens: DECODE_TOKENS,
    temperature: 0,
  };
}

export async function runGgufBenchmark(options: GgufBenchOptions): Promise<GgufBenchResult> {
  const { log } = options;
  const built = options.distDir === undefined;
  if (built) log('Building the app (vite build --mode e2e) for the GGUF harness pages …');
  const distDir = options.distDir ?? (await buildApp({ harness: true }));
  const folder = await mkdtemp(join(tmpdir(), 'tiny-gguf-bench-'));
  const pageErrors: string[] = [];
  const loadBefore = loadavg()[0] ?? 0;
  try {
    const modelPath = await writeTinyGguf(folder);
    const modelBytes = (await stat(modelPath)).size;
    // Another origin, as a model host is (the model worker's fetch is a CORS request).
    const site = await startStaticSite(folder, { headers: { 'access-control-allow-origin': '*' } });
    const preview = await startPreview(distDir, 60_000, { harness: true });
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-background-networking'] });
      const url = `${site.url}/tiny-qwen3.gguf`;
      const runs: GgufThreadFigures[] = [];
      for (const threads of GGUF_THREADS) {
        log(`GGUF: ${threads} thread(s), ${GGUF_SAMPLES} calls through our worker and through wllama directly, in turn …`);
        const context = await browser.newContext();
        try {
          const open = async (path: string, ready: string) => {
            const page = await context.newPage();
            page.on('pageerror', (error) => pageErrors.push(error.message));
            await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
            await page.goto(`${preview.url}${path}`);
            await page.waitForFunction((name) => name in window, ready);
            return page;
          };
          const ours = await open('/e2e/harness/gguf.html', 'ggufHarness');
          const direct = await open('/e2e/harness/gguf-direct.html', 'ggufDirect');
          const oursThreads = (await ours.evaluate((load) => window.ggufHarness.load(load), { url, contextWindow: CONTEXT, threads, gpuLayers: 0 })).runtime.threads;
          const directThreads = (await direct.evaluate((load) => window.ggufDirect.load(load), { url, contextWindow: CONTEXT, threads })).threads;
          if (oursThreads !== threads || directThreads !== threads) throw new Error(`asked for ${threads} threads, got ${oursThreads} (ours) and ${directThreads} (direct)`);
          const oursCalls: Call[] = [];
          const directCalls: Call[] = [];
          for (let index = 0; index <= GGUF_SAMPLES; index++) {
            const one = await callOurs(ours, request(index));
            const other = await callDirect(direct, request(index));
            if (one.promptTokens !== other.promptTokens || one.decodedTokens !== other.decodedTokens) {
              throw new Error(`the two paths did different work: ${JSON.stringify({ ours: one, direct: other })}`);
            }
            // The first call of each warms up (llama.cpp's first graph, the JIT).
            if (index === 0) continue;
            oursCalls.push(one);
            directCalls.push(other);
          }
          runs.push({ threads, promptTokens: oursCalls[0]!.promptTokens, decodedTokens: oursCalls[0]!.decodedTokens, ours: figures(oursCalls), direct: figures(directCalls) });
        } finally {
          await context.close();
        }
      }
      return {
        chromium: browser.version(),
        wllamaVersion: (JSON.parse(await readFile(new URL('../node_modules/@wllama/wllama/package.json', import.meta.url), 'utf8')) as { version: string }).version,
        modelBytes,
        samples: GGUF_SAMPLES,
        runs,
        loadAverage: [loadBefore, loadavg()[0] ?? 0],
        pageErrors,
      };
    } finally {
      await browser?.close();
      await preview.close();
      await site.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
    if (built) await rm(distDir, { recursive: true, force: true });
  }
}

async function callOurs(page: Page, body: Omit<ChatRequest, 'signal'>): Promise<Call> {
  const result = await page.evaluate(async (request) => {
    const started = performance.now();
    const reply = await (window as unknown as { ggufHarness: GgufHarness }).ggufHarness.complete(request, { constrain: false });
    return { ...reply, wallMs: performance.now() - started };
  }, body);
  const { completion } = result;
  if (!completion?.usage || !completion.timings || completion.timeToFirstTokenMs === undefined) {
    throw new Error(`our path gave no usage or timings: ${result.error ?? JSON.stringify(completion)}`);
  }
  const { usage, timings } = completion;
  return {
    promptTokens: usage.promptTokens - (usage.cachedPromptTokens ?? 0),
    decodedTokens: usage.completionTokens,
    prefillMs: timings.timeToFirstTokenMs,
    prefillTokensPerSecond: usage.prefillTokensPerSecond ?? 0,
    decodeTokensPerSecond: usage.decodeTokensPerSecond ?? 0,
    wallMs: result.wallMs,
    firstTokenMs: completion.timeToFirstTokenMs,
    outsideMs: result.wallMs - timings.totalMs,
  };
}

async function callDirect(page: Page, body: Omit<ChatRequest, 'signal'>): Promise<Call> {
  const result = await page.evaluate((request) => (window as unknown as { ggufDirect: GgufDirectHarness }).ggufDirect.complete(request, { constrain: false }), body);
  const { timings } = result;
  if (!timings || result.firstTokenMs === null) throw new Error(`wllama gave no timings or no text: ${JSON.stringify(result)}`);
  return {
    promptTokens: timings.prompt_n,
    decodedTokens: timings.predicted_n,
    prefillMs: timings.prompt_ms,
    prefillTokensPerSecond: timings.prompt_per_second,
    decodeTokensPerSecond: timings.predicted_per_second,
    wallMs: result.wallMs,
    firstTokenMs: result.firstTokenMs,
    outsideMs: result.wallMs - timings.prompt_ms - timings.predicted_ms,
  };
}

function figures(calls: Call[]): GgufPathFigures {
  const of = (pick: (call: Call) => number) => summarize(calls.map(pick));
  return {
    prefillMs: of((call) => call.prefillMs),
    prefillTokensPerSecond: of((call) => call.prefillTokensPerSecond),
    decodeTokensPerSecond: of((call) => call.decodeTokensPerSecond),
    wallMs: of((call) => call.wallMs),
    firstTokenMs: of((call) => call.firstTokenMs),
    outsideMs: of((call) => call.outsideMs),
  };
}

const one = (value: number) => value.toFixed(value >= 100 ? 0 : 1);
const figure = (summary: Summary) => `${one(summary.median)} (${one(summary.min)}–${one(summary.max)})`;
const ratio = (ours: Summary, direct: Summary) => `${(ours.median / direct.median).toFixed(2)}×`;
const row = (label: string, ours: Summary, direct: Summary) => `    ${label.padEnd(22)} ours ${figure(ours).padEnd(22)} direct ${figure(direct).padEnd(22)} ours/direct ${ratio(ours, direct)}`;

export function formatGgufReport(r: GgufBenchResult): string {
  const lines = [
    `llama.cpp in the tab: Chromium ${r.chromium} headless, wllama ${r.wllamaVersion}, the tiny random Qwen3 of e2e/fixtures/tinyGguf.ts (${(r.modelBytes / 1e6).toFixed(1)} MB, f32) on the CPU.`,
    `"ours": the GGUF model worker, its port and the ChatModel (e2e/harness/gguf.ts); "direct": wllama on the page (e2e/harness/ggufDirect.ts), the same request body.`,
    `Medians (min–max) of ${r.samples} calls per path, taken in turn after one warm-up call each; prefill and decode from llama.cpp's timings, wall time and first token timed on the page;`,
    `"outside llama.cpp" is the wall time less llama.cpp's own prefill and decode time: the path around it (messages, workers, ChatModel, JSON of each chunk).`,
  ];
  for (const run of r.runs) {
    lines.push(`  ${run.threads} thread${run.threads === 1 ? '' : 's'}: ${run.promptTokens} prompt tokens prefilled, ${run.decodedTokens} decoded per call`);
    lines.push(row('prefill time (ms)', run.ours.prefillMs, run.direct.prefillMs));
    lines.push(row('prefill tok/s', run.ours.prefillTokensPerSecond, run.direct.prefillTokensPerSecond));
    lines.push(row('decode tok/s', run.ours.decodeTokensPerSecond, run.direct.decodeTokensPerSecond));
    lines.push(row('first token (ms)', run.ours.firstTokenMs, run.direct.firstTokenMs));
    lines.push(row('wall time per call (ms)', run.ours.wallMs, run.direct.wallMs));
    // A difference, not a ratio: both are small, and the ratio of two small numbers says little.
    lines.push(`    ${'outside llama.cpp (ms)'.padEnd(22)} ours ${figure(run.ours.outsideMs).padEnd(22)} direct ${figure(run.direct.outsideMs).padEnd(22)} ours − direct ${(run.ours.outsideMs.median - run.direct.outsideMs.median).toFixed(1)} ms`);
  }
  lines.push(`  load average (1 min): ${r.loadAverage[0].toFixed(2)} before, ${r.loadAverage[1].toFixed(2)} after`);
  if (r.pageErrors.length > 0) lines.push(`  page errors: ${r.pageErrors.length}, first: ${r.pageErrors[0]}`);
  return lines.join('\n');
}
