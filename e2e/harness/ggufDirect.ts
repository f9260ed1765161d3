// wllama called directly on the page, with no worker or ChatModel of ours around it: the
// baseline the GGUF bench (cli/bench/gguf.bench.ts) compares our path with. It loads the model
// with the parameters gguf.worker.ts uses and sends the very body our ChatModel builds
// (buildGgufBody), so the two differ only by our worker, its port and the ChatModel. The page
// gets the GGUF model worker's policy (server/securityHeaders.ts): wllama starts llama.cpp in
// blob: workers, which the playground's page policy forbids.
import { LogLevel, Wllama } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { ResultTimings } from '@wllama/wllama';
import { buildGgufBody } from '../../workers/backends/gguf/ggufModel.ts';
import type { ChatRequest } from '../../workers/engine/types.ts';

export interface GgufDirectCall {
  content: string;
  /** From the call to the end of the stream, timed on the page. */
  wallMs: number;
  /** From the call to the first chunk with text. */
  firstTokenMs: number | null;
  /** llama-server's own timings, from the last chunk. */
  timings: ResultTimings | null;
}

export interface GgufDirectHarness {
  load(request: { url: string; contextWindow: number; threads: number }): Promise<{ threads: number }>;
  complete(request: Omit<ChatRequest, 'signal'>, options: { constrain: boolean }): Promise<GgufDirectCall>;
}

declare global {
  interface Window {
    ggufDirect: GgufDirectHarness;
  }
}

let wllama: Wllama | undefined;
// As gguf.worker.ts keeps llama.cpp's log lines, so the two do the same work per line.
const lines: string[] = [];
const keep = (...args: unknown[]) => {
  if (lines.length < 400) lines.push(args.map(String).join(' '));
};

window.ggufDirect = {
  async load({ url, contextWindow, threads }) {
    wllama = new Wllama({ default: new URL(wasmUrl, location.href).href }, { logger: { debug: keep, log: keep, warn: keep, error: keep }, allowOffline: true });
    await wllama.loadModelFromUrl(url, {
      n_ctx: contextWindow,
      n_threads: threads,
      n_gpu_layers: 0,
      reasoning_format: 'none',
      warmup: false,
      log_level: LogLevel.INFO,
    });
    return { threads: wllama.getNumThreads() };
  },

  async complete(request, { constrain }) {
    if (!wllama) throw new Error('load first');
    const started = performance.now();
    const stream = await wllama.createChatCompletion({ ...buildGgufBody({ constrainToolCalls: constrain }, request), stream: true });
    let content = '';
    let firstTokenMs: number | null = null;
    let timings: ResultTimings | null = null;
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (typeof text === 'string' && text !== '') {
        content += text;
        firstTokenMs ??= performance.now() - started;
      }
      if (chunk.timings) timings = chunk.timings;
    }
    return { content, wallMs: performance.now() - started, firstTokenMs, timings };
  },
};

const status = document.getElementById('status');
if (status) status.textContent = 'ready';
