// A test double for web-llm's engine: the one boundary a test machine cannot reach (a GPU with a
// model on it). It implements the whole `WebLlmEngine` interface and behaves as web-llm 0.2.86
// does where this code depends on it: streamed chunks then a usage chunk, one generation at a
// time per model, interruptGenerate() cleared when a generation starts, the request checks that
// throw (model not loaded, another model named, `tools` for Qwen3, message order), progress
// reports in web-llm's own words, unload() cancelling a reload, and every failure as web-llm
// raises it: an Error with its class name, or (as from a worker) the string "Name: message".
//
// It is built from plain data (a script), uses only timers, and runs in Node, on a page and in
// a worker, so a browser test can post a script to a worker and load it in place of web-llm.

import type {
  AppConfig,
  ChatCompletionChunk,
  ChatCompletionRequestStreaming,
  ChatOptions,
  CompletionUsage,
  InitProgressCallback,
  InitProgressReport,
} from '@mlc-ai/web-llm';
import type { WebLlmEngine } from '../webllmModel.ts';

/** The failures the fake can raise, each in web-llm's own words. */
export type FakeErrorKind =
  | 'webgpu_unavailable'
  | 'no_adapter'
  | 'shader_f16'
  | 'gpu_limits'
  | 'device_lost'
  | 'out_of_memory'
  | 'context_window'
  | 'model_not_found'
  | 'model_not_loaded'
  | 'quota'
  | 'download'
  | 'message_order'
  | 'unknown';

export interface FakeError {
  kind: FakeErrorKind;
  /** Reject with the string web-llm's worker sends ("Name: message") rather than an Error. */
  asString?: boolean;
}

export interface FakeReply {
  /** Content deltas, one chunk each. */
  deltas: string[];
  /** Default "stop". */
  finishReason?: 'stop' | 'length';
  /** What the usage chunk says; unscripted fields are measured on the fake's own clock. */
  usage?: { promptTokens?: number; completionTokens?: number; extra?: Partial<CompletionUsage['extra']> };
  /** Fail: when create() is called, or after this many deltas. */
  error?: FakeError & { afterDeltas?: number };
  /** Wait before each chunk (default: the script's chunkDelayMs). */
  chunkDelayMs?: number;
}

export interface FakeLoad {
  /** Bytes of each weight shard (default four of 25 MiB). */
  shardBytes?: number[];
  /** Weights already in the browser cache: no "Fetching param cache" reports. */
  cached?: boolean;
  shaderModules?: number;
  /** Wait before each progress report (default 0). */
  stepDelayMs?: number;
  /** Fail after this many progress reports (default: before any). */
  error?: FakeError & { afterReports?: number };
}

export interface FakeEngineScript {
  /** Replies to create(), in order. */
  replies?: FakeReply[];
  /** What each reload() does, in order; when they run out, a plain successful load. */
  loads?: FakeLoad[];
  /** A model already loaded, as if reload() had run. */
  loadedModelId?: string;
  /** Wait before each chunk, in ms (default 0: still asynchronous). */
  chunkDelayMs?: number;
  /** The adapter named in "Finish loading on WebGPU - …". */
  adapterDescription?: string;
}

const MIB = 1024 * 1024;

/** web-llm 0.2.86's texts (lib/index.js). */
export function webLlmErrorOf(kind: FakeErrorKind, modelId = 'the-model'): { name: string; message: string } {
  switch (kind) {
    case 'webgpu_unavailable':
      return {
        name: 'WebGPUNotAvailableError',
        message:
          'WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine. Please make sure that your browser supports WebGPU and that it is enabled in your browser settings. You can also consult your browser\'s compatibility chart to see if it supports WebGPU. For more information about WebGPU support in your browser, visit https://webgpureport.org/',
      };
    case 'no_adapter':
      return {
        name: 'Error',
        message:
          "Unable to find a compatible GPU. This issue might be because your computer doesn't have a GPU, or your system settings are not configured properly. Please check if your device has a GPU properly set up and if your your browser supports WebGPU. You can also consult your browser's compatibility chart to see if it supports WebGPU. For more information about WebGPU support in your browser, visit https://webgpureport.org/",
      };
    case 'shader_f16':
      return {
        name: 'ShaderF16SupportError',
        message:
          'This model requires WebGPU extension shader-f16, which is not enabled in this browser. You can try to launch Chrome Canary in command line with flag "--enable-dawn-features=allow_unsafe_apis".',
      };
    case 'gpu_limits':
      return {
        name: 'Error',
        message: 'Cannot initialize runtime because of requested maxStorageBufferBindingSize exceeds limit. requested=128MB, limit=64MB. ',
      };
    case 'device_lost':
      return {
        name: 'DeviceLostError',
        message:
          'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM). To resolve this, try reloading with a model that has fewer parameters or uses a smaller context length.',
      };
    case 'out_of_memory':
      return { name: 'Error', message: 'Cannot allocate 1073741824 bytes in Wasm memory' };
    case 'context_window':
      return {
        name: 'ContextWindowSizeExceededError',
        message:
          'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096\nConsider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.',
      };
    case 'model_not_found':
      return {
        name: 'ModelNotFoundError',
        message: `Cannot find model record in appConfig for ${modelId}. Please check if the model ID is correct and included in the model_list configuration.`,
      };
    case 'model_not_loaded':
      return {
        name: 'ModelNotLoadedError',
        message:
          'Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called MLCEngine.reload(model) to load the model before initiating APIs, or initialize your engine using CreateMLCEngine() with a valid model configuration.',
      };
    case 'quota':
      return { name: 'QuotaExceededError', message: 'Quota exceeded.' };
    case 'download':
      return { name: 'TypeError', message: 'Failed to fetch' };
    case 'message_order':
      return { name: 'MessageOrderError', message: 'Last message should be from either `user` or `tool`.' };
    case 'unknown':
      return { name: 'Error', message: 'Something nobody planned for happened.' };
  }
}

function raise(error: FakeError, modelId?: string): Error | string {
  const { name, message } = webLlmErrorOf(error.kind, modelId);
  if (error.asString) return `${name}: ${message}`;
  const thrown = new Error(message);
  thrown.name = name;
  return thrown;
}

function namedError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** The progress reports web-llm emits for one load, with its formulas and texts. */
export function webLlmLoadReports(load: FakeLoad = {}, adapterDescription = 'Fake GPU'): InitProgressReport[] {
  const shards = load.shardBytes ?? [25 * MIB, 25 * MIB, 25 * MIB, 25 * MIB];
  const total = shards.reduce((sum, bytes) => sum + bytes, 0);
  const reports: InitProgressReport[] = [{ progress: 0, timeElapsed: 0, text: 'Start to fetch params' }];
  let seconds = 0;
  const shardReport = (loading: boolean, index: number, bytes: number): InitProgressReport => {
    const head = loading ? 'Loading model from cache' : 'Fetching param cache';
    let text = `${head}[${index}/${shards.length}]: ${Math.ceil(bytes / MIB)}MB ${loading ? 'loaded' : 'fetched'}. `;
    text += `${Math.floor((bytes * 100) / total)}% completed, ${seconds} secs elapsed.`;
    if (!loading) text += ' It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.';
    return { progress: bytes / total, timeElapsed: seconds, text };
  };
  for (const loading of load.cached ? [true] : [false, true]) {
    let bytes = 0;
    shards.forEach((shard, index) => {
      bytes += shard;
      seconds += loading ? 1 : 3;
      reports.push(shardReport(loading, index + 1, bytes));
    });
  }
  const modules = load.shaderModules ?? 3;
  for (let done = 1; done <= modules; done++) {
    const progress = done / modules;
    reports.push({ progress, timeElapsed: done, text: `Loading GPU shader modules[${done}/${modules}]: ${Math.floor(progress * 100)}% completed, ${done} secs elapsed.` });
  }
  reports.push({ progress: 1, timeElapsed: seconds + modules, text: `Finish loading on WebGPU - ${adapterDescription}` });
  return reports;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface FakeGeneration {
  request: ChatCompletionRequestStreaming;
  deltasSent: number;
  finishReason: string | null;
}

export class FakeWebLlmEngine implements WebLlmEngine {
  /** Every create() request, as the engine received it (a structured clone, as across a worker). */
  readonly requests: ChatCompletionRequestStreaming[] = [];
  readonly generations: FakeGeneration[] = [];
  readonly reloads: Array<{ modelId: string | string[]; chatOpts?: ChatOptions | ChatOptions[] }> = [];
  interruptCount = 0;
  unloadCount = 0;
  loadedModelId: string | undefined;
  appConfig: AppConfig | undefined;

  private readonly replies: FakeReply[];
  private readonly loads: FakeLoad[];
  private progressCallback: InitProgressCallback | undefined;
  private interruptSignal = false;
  private lock: Promise<void> = Promise.resolve();
  private reloadGeneration = 0;

  readonly chat: WebLlmEngine['chat'] = {
    completions: { create: (request) => this.create(request) },
  };

  constructor(private readonly script: FakeEngineScript = {}) {
    this.replies = [...(script.replies ?? [])];
    this.loads = [...(script.loads ?? [])];
    this.loadedModelId = script.loadedModelId;
  }

  interruptGenerate = (): void => {
    this.interruptCount++;
    this.interruptSignal = true;
  };

  setInitProgressCallback = (callback: InitProgressCallback): void => {
    this.progressCallback = callback;
  };

  setAppConfig = (appConfig: AppConfig): void => {
    this.appConfig = structuredClone(appConfig);
  };

  reload = async (modelId: string | string[], chatOpts?: ChatOptions | ChatOptions[]): Promise<void> => {
    this.reloads.push(chatOpts === undefined ? { modelId } : { modelId, chatOpts });
    const id = Array.isArray(modelId) ? modelId[0] : modelId;
    if (id === undefined) throw namedError('Error', 'reload() needs a model id.');
    const generation = ++this.reloadGeneration;
    this.loadedModelId = undefined;
    if (this.appConfig && !this.appConfig.model_list.some((record) => record.model_id === id)) {
      throw raise({ kind: 'model_not_found' }, id);
    }
    const load = this.loads.shift() ?? {};
    const reports = webLlmLoadReports(load, this.script.adapterDescription);
    const failAfter = load.error ? (load.error.afterReports ?? 0) : Infinity;
    for (let index = 0; index < reports.length; index++) {
      if (index === failAfter && load.error) throw raise(load.error, id);
      await wait(load.stepDelayMs ?? 0);
      // unload() during a reload cancels it, and web-llm's reload() then resolves quietly.
      if (generation !== this.reloadGeneration) return;
      const report = reports[index];
      if (report) this.progressCallback?.(report);
    }
    if (load.error && failAfter >= reports.length) throw raise(load.error, id);
    this.loadedModelId = id;
  };

  unload = async (): Promise<void> => {
    this.unloadCount++;
    this.reloadGeneration++;
    this.loadedModelId = undefined;
    await wait(0);
  };

  private async create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> {
    const received = structuredClone(request);
    this.requests.push(received);
    await wait(0);
    this.check(received);
    const reply = this.replies.shift();
    if (!reply) throw namedError('Error', `The fake engine's script has no reply left for request #${this.requests.length}.`);
    if (reply.error && reply.error.afterDeltas === undefined) throw raise(reply.error, this.loadedModelId);
    return this.stream(received, reply);
  }

  /** The checks web-llm makes before it generates (getModelIdToUse, postInitAndCheckFields). */
  private check(request: ChatCompletionRequestStreaming): void {
    const loaded = this.loadedModelId;
    if (loaded === undefined) throw raise({ kind: 'model_not_loaded' });
    if (request.model && request.model !== loaded) {
      throw namedError(
        'SpecifiedModelNotFoundError',
        `Specified model ${request.model} for ChatCompletionRequest is not found in loaded models. Please check if the correct model is loaded/specified. Currently loaded models are:\n${loaded}`,
      );
    }
    if (request.tools != null) {
      throw namedError(
        'UnsupportedModelIdError',
        `${loaded} is not supported for ChatCompletionRequest.tools. Currently, models that support function calling are: Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC`,
      );
    }
    request.messages.forEach((message, index) => {
      if (message.role === 'system' && index !== 0) {
        throw namedError('SystemMessageOrderError', 'System prompt should always be the first message in `messages`.');
      }
    });
    const last = request.messages.at(-1);
    if (last?.role !== 'user' && last?.role !== 'tool') throw raise({ kind: 'message_order' });
    const format = request.response_format;
    if (format?.type === 'structural_tag') {
      const tag: unknown = typeof format.structural_tag === 'string' ? JSON.parse(format.structural_tag) : format.structural_tag;
      if (typeof tag !== 'object' || tag === null || !('format' in tag)) {
        throw namedError('InvalidResponseFormatStructuralTagError', 'When ResponseFormat.type is `structural_tag`, ResponseFormat.structural_tag needs to be specified.');
      }
    }
  }

  private async *stream(request: ChatCompletionRequestStreaming, reply: FakeReply): AsyncGenerator<ChatCompletionChunk> {
    // One generation at a time per model, as web-llm's per-model lock.
    const previous = this.lock;
    let release = () => {};
    this.lock = new Promise((resolve) => (release = resolve));
    await previous;
    const model = this.loadedModelId ?? '';
    const generation: FakeGeneration = { request, deltasSent: 0, finishReason: null };
    this.generations.push(generation);
    const id = `chatcmpl-fake-${this.generations.length}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choices: ChatCompletionChunk['choices'], usage?: CompletionUsage): ChatCompletionChunk => ({
      id,
      choices,
      model,
      object: 'chat.completion.chunk',
      created,
      ...(usage ? { usage } : {}),
    });
    try {
      this.interruptSignal = false;
      const started = performance.now();
      let firstTokenAt: number | undefined;
      const delay = reply.chunkDelayMs ?? this.script.chunkDelayMs ?? 0;
      const deltas = [...reply.deltas];
      if (request.extra_body?.enable_thinking === false) deltas[0] = `<think>\n\n</think>\n\n${deltas[0] ?? ''}`;
      let finishReason: 'stop' | 'length' | 'abort' = reply.finishReason ?? 'stop';
      for (const text of deltas) {
        if (this.interruptSignal) {
          finishReason = 'abort';
          break;
        }
        if (reply.error?.afterDeltas === generation.deltasSent) throw raise(reply.error, model);
        await wait(delay);
        firstTokenAt ??= performance.now();
        generation.deltasSent++;
        yield chunk([{ delta: { content: text, role: 'assistant' }, finish_reason: null, index: 0 }]);
      }
      if (reply.error?.afterDeltas !== undefined && finishReason !== 'abort') throw raise(reply.error, model);
      generation.finishReason = finishReason;
      yield chunk([{ delta: {}, finish_reason: finishReason, index: 0 }]);
      if (request.stream_options?.include_usage) {
        yield chunk([], this.usage(reply, generation.deltasSent, started, firstTokenAt));
      }
    } finally {
      release();
    }
  }

  /** The usage chunk: scripted figures, or ones measured on the fake's own clock. */
  private usage(reply: FakeReply, deltasSent: number, started: number, firstTokenAt: number | undefined): CompletionUsage {
    const now = performance.now();
    const prefillSeconds = ((firstTokenAt ?? now) - started) / 1000;
    const decodeSeconds = (now - (firstTokenAt ?? now)) / 1000;
    const promptTokens = reply.usage?.promptTokens ?? 0;
    const completionTokens = reply.usage?.completionTokens ?? deltasSent;
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      extra: {
        e2e_latency_s: (now - started) / 1000,
        prefill_tokens_per_s: prefillSeconds > 0 ? promptTokens / prefillSeconds : 0,
        decode_tokens_per_s: decodeSeconds > 0 ? completionTokens / decodeSeconds : 0,
        time_to_first_token_s: prefillSeconds,
        time_per_output_token_s: completionTokens > 0 ? decodeSeconds / completionTokens : 0,
        ...reply.usage?.extra,
      },
    };
  }
}
