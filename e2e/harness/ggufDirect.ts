// wllama called directly on the page, with no worker or ChatModel of ours around it: the
// baseline the GGUF bench (bench/gguf.bench.ts) compares our path with. It loads the model
// with the parameters gguf.worker.ts uses and sends the very body our ChatModel builds
// (buildGgufBody), so the two differ only by our worker, its port and the ChatModel. The page
// gets the GGUF model worker's policy (server/securityHeaders.ts): wllama starts llama.cpp in
// blob: workers, which the playground's page policy forbids.
import { LogLevel, Wllama, type LoadModelParams } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { ResultTimings } from '@wllama/wllama';
import { buildGgufBody, type GgufChatBody } from '../../workers/backends/gguf/ggufModel.ts';
import type { ChatRequest } from '../../workers/engine/types.ts';

export interface GgufDirectCall {
  content: string;
  /** From the call to the end of the stream, timed on the page. */
  wallMs: number;
  /** From the call to the first chunk with text. */
  firstTokenMs: number | null;
  /** llama-server's own timings, from the last chunk. */
  timings: ResultTimings | null;
  finishReason: string | null;
}

export interface GgufDirectHarness {
  load(request: { url: string; contextWindow: number; threads: number; params?: LoadModelParams }): Promise<{ threads: number }>;
  complete(request: Omit<ChatRequest, 'signal'>, options: { constrain: boolean }): Promise<GgufDirectCall>;
  /** A request body as it crosses to the model worker, sent as is. */
  body(body: GgufChatBody): Promise<GgufDirectCall>;
  /** A raw completion of `prompt` (no chat template), greedy: what the native anchor runs too. */
  raw(prompt: string, maxTokens: number): Promise<GgufDirectCall>;
  /** llama.cpp's log lines since the last call (the last 2,000 at most). */
  logs(): string[];
}

declare global {
  interface Window {
    ggufDirect: GgufDirectHarness;
  }
}

let wllama: Wllama | undefined;
// As gguf.worker.ts keeps llama.cpp's log lines, so the two do the same work per line.
let lines: string[] = [];
const keep = (...args: unknown[]) => {
  lines.push(args.map(String).join(' '));
  if (lines.length > 2000) lines = lines.slice(-1000);
};

function loaded(): Wllama {
  if (!wllama) throw new Error('load first');
  return wllama;
}

async function stream(body: GgufChatBody | { prompt: string; max_tokens: number; temperature: number; cache_prompt: boolean }): Promise<GgufDirectCall> {
  const started = performance.now();
  const chunks = 'messages' in body ? await loaded().createChatCompletion({ ...body, stream: true }) : await loaded().createCompletion({ ...body, stream: true });
  let content = '';
  let firstTokenMs: number | null = null;
  let timings: ResultTimings | null = null;
  let finishReason: string | null = null;
  for await (const chunk of chunks) {
    const choice = chunk.choices[0] as { delta?: { content?: string | null }; text?: string; finish_reason?: string | null } | undefined;
    const text = choice?.delta?.content ?? choice?.text;
    if (typeof text === 'string' && text !== '') {
      content += text;
      firstTokenMs ??= performance.now() - started;
    }
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    if (chunk.timings) timings = chunk.timings;
  }
  return { content, wallMs: performance.now() - started, firstTokenMs, timings, finishReason };
}

window.ggufDirect = {
  async load({ url, contextWindow, threads, params }) {
    wllama = new Wllama({ default: new URL(wasmUrl, location.href).href }, { logger: { debug: keep, log: keep, warn: keep, error: keep }, allowOffline: true });
    await wllama.loadModelFromUrl(url, {
      n_ctx: contextWindow,
      n_threads: threads,
      n_gpu_layers: 0,
      reasoning_format: 'none',
      warmup: false,
      log_level: LogLevel.INFO,
      ...params,
    });
    return { threads: wllama.getNumThreads() };
  },

  complete: (request, { constrain }) => stream(buildGgufBody({ constrainToolCalls: constrain }, request)),
  body: (body) => stream(body),
  raw: (prompt, maxTokens) => stream({ prompt, max_tokens: maxTokens, temperature: 0, cache_prompt: false }),

  logs() {
    const taken = lines;
    lines = [];
    return taken;
  },
};

const status = document.getElementById('status');
if (status) status.textContent = 'ready';
