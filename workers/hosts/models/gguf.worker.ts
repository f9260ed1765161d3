/// <reference lib="webworker" />
// The GGUF model worker: llama.cpp (wllama) with one model. The page starts one per GGUF model
// and sends it one end of a MessageChannel (`connect`, as for web-llm); the orchestrator worker
// drives it over that port (workers/hosts/models/ggufEngine.ts), so tokens never cross the page.
//
// wllama starts its own worker from a blob: URL (llama.cpp's Emscripten module, and its pthreads
// when multi-threaded), which is why this script's policy allows blob: workers and scripts
// (server/securityHeaders.ts). Its .wasm comes from the app's own build, never a CDN.

import { LogLevel, ModelManager, Wllama, type LoadModelParams } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { checkGgufModel, gpuLayersMemory, readGgufBlobHeader, readGgufUrlHeader, type GgufHeader } from '../../backends/gguf/ggufHeader.ts';
import { hasThinkTokens } from '../../backends/gguf/toolCallGrammar.ts';
import { CPU_REASONS } from '../../backends/gguf/cpuReasons.ts';
import type { FromGgufWorker, ModelWorkerRequests, ToGgufWorker } from './modelMessages.ts';
import { serveRequests } from '../requests.ts';
import type { GgufGpuLayers, GgufRuntime, GgufSource } from './modelState.ts';

declare const self: DedicatedWorkerGlobalScope;

let port: MessagePort | undefined;
let wllama: Wllama | undefined;
let loadController: AbortController | undefined;
const chats = new Map<number, AbortController>();
/** llama.cpp's log lines of the current load: they say how many layers went to the GPU. */
let loadLog: string[] = [];

const send = (message: FromGgufWorker) => port?.postMessage(message);

function createWllama(): Wllama {
  const keep = (...args: unknown[]) => {
    if (loadLog.length < 400) loadLog.push(args.map(String).join(' '));
  };
  return new Wllama(
    { default: new URL(wasmUrl, self.location.href).href },
    { logger: { debug: keep, log: keep, warn: keep, error: keep }, allowOffline: true },
  );
}

interface Adapter {
  features: ReadonlySet<string>;
}

/** Why llama.cpp will not use WebGPU here, or undefined when it may. llama.cpp's WebGPU backend
 * registers no device on an adapter without `shader-f16` (SwiftShader, Chromium's software
 * adapter, has none: it then loads every layer on the CPU without a word). */
async function webGpuAbsence(): Promise<string | undefined> {
  const gpu = (self.navigator as Navigator & { gpu?: { requestAdapter(): Promise<Adapter | null> } }).gpu;
  if (!gpu) return CPU_REASONS.noApi;
  const adapter = await gpu.requestAdapter().catch(() => null);
  if (!adapter) return CPU_REASONS.noAdapter;
  if (!adapter.features.has('shader-f16')) return CPU_REASONS.noF16;
  return undefined;
}

/** Whether llama.cpp put weights anywhere but the CPU: it logs one "<buffer> model buffer size"
 * line per buffer type it loaded weights into (CPU, CPU_Mapped, WebGPU…). */
function offloadedToGpu(): boolean {
  return loadLog.some((line) => {
    const match = /(\S+) model buffer size/.exec(line);
    return match !== null && !match[1]!.startsWith('CPU');
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function loadInto(instance: Wllama, message: Extract<ToGgufWorker, { type: 'load' }>, gpuLayers: number, signal: AbortSignal): Promise<boolean> {
  let downloaded = false;
  const params: LoadModelParams = {
    n_ctx: message.contextWindow,
    n_threads: message.threads,
    n_gpu_layers: gpuLayers,
    // `<think>` stays in the text, where our Qwen3 parser reads it.
    reasoning_format: 'none',
    warmup: false,
    // INFO: llama.cpp then logs where it put the weights (offloadedToGpu).
    log_level: LogLevel.INFO,
  };
  if (message.seed !== undefined) params.seed = message.seed;
  if (message.source.kind === 'file') {
    await instance.loadModel([message.source.file], params);
  } else {
    await instance.loadModelFromUrl(message.source.url, {
      ...params,
      signal,
      progressCallback: ({ loaded, total }) => {
        downloaded = true;
        send({ type: 'progress', loaded, total });
      },
    });
  }
  return !downloaded && message.source.kind === 'url';
}

/** The loaded file's headers, every part of a split model as wllama keeps them in its cache; read
 * once, for the tool-call grammar (the vocabulary) and the layers' memory figure. Undefined when a
 * part cannot be read. */
async function loadedHeaders(instance: Wllama, message: Extract<ToGgufWorker, { type: 'load' }>): Promise<GgufHeader[] | undefined> {
  try {
    const blobs =
      message.source.kind === 'file'
        ? [message.source.file]
        : await Promise.all(ModelManager.parseModelUrl(message.source.url).map((url) => instance.cacheManager.open(url)));
    if (blobs.some((blob) => blob === null)) return undefined;
    return await Promise.all(blobs.map((blob) => readGgufBlobHeader(blob!)));
  } catch {
    return undefined;
  }
}

/** The memory the asked-for layers take, from the file's own header; undefined when it names no
 * architecture. */
function gpuLayersFigure(headers: GgufHeader[], gpuLayers: number, contextWindow: number): GgufGpuLayers | undefined {
  try {
    return gpuLayersMemory(headers, gpuLayers, contextWindow);
  } catch {
    return undefined;
  }
}

/** The model's headers, checked before llama.cpp is handed the file (ggufHeader.ts): from the
 * file itself, from the parts kept in wllama's cache, or from the first bytes of every part at its
 * address, before anything is downloaded. Throws with what is wrong. */
async function checkModel(instance: Wllama, source: GgufSource, signal: AbortSignal): Promise<void> {
  if (source.kind === 'file') return checkGgufModel([await readGgufBlobHeader(source.file)]);
  const urls = ModelManager.parseModelUrl(source.url);
  const kept = await Promise.all(urls.map((url) => instance.cacheManager.open(url).catch(() => null)));
  const parts = await Promise.all(urls.map((url, index) => (kept[index] ? readGgufBlobHeader(kept[index]) : readGgufUrlHeader(url, signal))));
  checkGgufModel(parts);
}

async function load(message: Extract<ToGgufWorker, { type: 'load' }>): Promise<void> {
  if (wllama) {
    send({ type: 'load_failed', code: 'bad_request', message: 'This model worker already holds a model.' });
    return;
  }
  const started = performance.now();
  const controller = new AbortController();
  loadController = controller;
  loadLog = [];
  let cpuReason = message.gpuLayers > 0 ? await webGpuAbsence() : 'Set to run on the CPU.';
  let gpuLayers = cpuReason ? 0 : message.gpuLayers;
  let instance = createWllama();
  try {
    await checkModel(instance, message.source, controller.signal);
    let fromCache: boolean;
    try {
      fromCache = await loadInto(instance, message, gpuLayers, controller.signal);
    } catch (error) {
      if (gpuLayers === 0 || controller.signal.aborted) throw error;
      // llama.cpp's WebGPU backend refused the adapter (a software adapter without shader-f16,
      // too little memory): the same model on the CPU.
      cpuReason = `llama.cpp's WebGPU backend could not use this adapter (${describe(error)}): it runs on the CPU.`;
      gpuLayers = 0;
      await instance.exit().catch(() => undefined);
      instance = createWllama();
      fromCache = await loadInto(instance, message, 0, controller.signal);
    }
    const offloaded = gpuLayers > 0 && offloadedToGpu();
    if (gpuLayers > 0 && !offloaded) {
      const said = loadLog.find((line) => line.includes('ggml_webgpu'));
      cpuReason = `llama.cpp offloaded no layer to WebGPU${said ? ` (${said.trim()})` : ''}: it runs on the CPU.`;
    }
    wllama = instance;
    const headers = await loadedHeaders(instance, message);
    const runtime: GgufRuntime = {
      contextWindow: instance.getLoadedContextInfo().n_ctx,
      threads: instance.getNumThreads(),
      webgpu: offloaded,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      fromCache,
      thinkTokens: headers !== undefined && hasThinkTokens(headers),
    };
    if (!offloaded && cpuReason) runtime.cpuReason = cpuReason;
    if (message.gpuLayers > 0 && headers) {
      const figure = gpuLayersFigure(headers, message.gpuLayers, runtime.contextWindow);
      if (figure) runtime.gpuLayers = figure;
    }
    send({ type: 'loaded', runtime });
  } catch (error) {
    await instance.exit().catch(() => undefined);
    if (controller.signal.aborted) send({ type: 'load_failed', code: 'aborted', message: 'The load was cancelled.' });
    else send({ type: 'load_failed', code: 'load_failed', message: describe(error) });
  } finally {
    if (loadController === controller) loadController = undefined;
  }
}

async function chat(message: Extract<ToGgufWorker, { type: 'chat' }>): Promise<void> {
  const controller = new AbortController();
  chats.set(message.id, controller);
  try {
    if (!wllama) throw new Error('No model is loaded in this model worker.');
    const stream = await wllama.createChatCompletion({ ...message.body, stream: true, abortSignal: controller.signal });
    for await (const chunk of stream) send({ type: 'chunk', id: message.id, chunk });
    send(controller.signal.aborted ? { type: 'chat_failed', id: message.id, code: 'aborted', message: 'cancelled' } : { type: 'done', id: message.id });
  } catch (error) {
    const aborted = controller.signal.aborted;
    send({ type: 'chat_failed', id: message.id, code: aborted ? 'aborted' : 'inference', message: describe(error) });
  } finally {
    chats.delete(message.id);
  }
}

function onPortMessage(event: MessageEvent<ToGgufWorker>): void {
  const message = event.data;
  switch (message.type) {
    case 'load':
      void load(message);
      return;
    case 'cancel_load':
      loadController?.abort();
      return;
    case 'chat':
      void chat(message);
      return;
    case 'abort':
      chats.get(message.id)?.abort();
      return;
  }
}

const serve = serveRequests<ModelWorkerRequests>(
  {
    connect: ({ port: connected }) => {
      port = connected;
      port.onmessage = onPortMessage;
    },
  },
  (reply) => self.postMessage(reply),
);
self.onmessage = (event) => serve(event.data);
