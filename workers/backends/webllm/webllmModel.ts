// A ChatModel over a web-llm engine (Qwen3 on WebGPU, in this tab). The engine is either
// web-llm's MLCEngine (when this code runs in the worker that owns the GPU) or its
// WebWorkerMLCEngine (a proxy on the page); both fit `WebLlmEngine`.
//
// What web-llm needs that an OpenAI server does not: the request's `model` is always the loaded
// id; `tools` is never sent (web-llm throws for Qwen3), so tools are rendered into the system
// prompt and calls come back as `<tool_call>` text; and web-llm's Qwen3 template has no tool
// role, so tool results travel as user turns wrapped in `<tool_response>` (qwen3/render.ts).

import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionRequestStreaming,
  CompletionUsage,
  MLCEngineInterface,
} from '@mlc-ai/web-llm';
import { toTemplateTurns } from '../../engine/qwen3/render.ts';
import type {
  ChatCompletion,
  ChatDelta,
  ChatMessage,
  ChatModel,
  ChatRequest,
  EngineTimings,
  FinishReason,
  ToolSchema,
  Usage,
} from '../../engine/types.ts';
import { BackendError } from '../../engine/errors.ts';
import { ABORTED, raceAbort } from '../../engine/abort.ts';
import { toolCallStructuralTag } from './toolCallConstraint.ts';
import { toolsToConstrain } from '../../engine/qwen3/toolsInPrompt.ts';
import { abortedError, PROVIDER, webLlmError } from './webllmErrors.ts';

/** The part of web-llm's engine this code uses, typed from web-llm's own interface. MLCEngine,
 * WebWorkerMLCEngine and e2e/fixtures/doubles/fakeWebLlmEngine.ts all fit it. */
export interface WebLlmEngine {
  chat: {
    completions: {
      create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>>;
    };
  };
  interruptGenerate: MLCEngineInterface['interruptGenerate'];
  reload: MLCEngineInterface['reload'];
  unload: MLCEngineInterface['unload'];
  setInitProgressCallback: MLCEngineInterface['setInitProgressCallback'];
  setAppConfig: MLCEngineInterface['setAppConfig'];
}

export interface WebLlmModelOptions {
  engine: WebLlmEngine;
  /** The loaded model's id; every request names it. */
  modelId: string;
  /** Default "web-llm:<modelId>". */
  label?: string;
  /** Constrain `<tool_call>` blocks to the tools listed in the system prompt (xgrammar
   * structural tag). Off by default: compiling the grammar costs time on each new tool list. */
  constrainToolCalls?: boolean;
}

export function createWebLlmModel(options: WebLlmModelOptions): ChatModel {
  const modelId = options.modelId.trim();
  if (modelId === '') throw new Error('createWebLlmModel needs the id of the loaded model.');
  return {
    model: modelId,
    label: options.label ?? `${PROVIDER}:${modelId}`,
    supportsServerTools: false,
    complete: (request, onDelta) => complete({ ...options, modelId }, request, onDelta),
  };
}

/** The conversation as web-llm's Qwen3 template takes it: system, user and assistant turns only. */
export function toWebLlmMessages(messages: ChatMessage[], tools: ToolSchema[] = []): ChatCompletionMessageParam[] {
  return toTemplateTurns(messages, tools);
}

function buildRequest(options: WebLlmModelOptions, request: ChatRequest): ChatCompletionRequestStreaming {
  const tools = request.tools ?? [];
  const body: ChatCompletionRequestStreaming = {
    model: options.modelId,
    messages: toWebLlmMessages(request.messages, tools),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.enableThinking !== undefined) body.extra_body = { enable_thinking: request.enableThinking };
  if (options.constrainToolCalls) {
    const listed = toolsToConstrain(request);
    if (listed) body.response_format = { type: 'structural_tag', structural_tag: JSON.stringify(toolCallStructuralTag(listed)) };
  }
  return body;
}

function interrupt(engine: WebLlmEngine): void {
  try {
    engine.interruptGenerate();
  } catch {
    // An engine that cannot interrupt has nothing running to stop.
  }
}

/** Stops a generation nobody waits for any more and reads its stream to the end, which frees
 * the model for the next call. interruptGenerate() is engine-wide: it stops whichever generation
 * is running, and web-llm clears it when a generation starts. So it is sent only while this
 * stream is known to be the running one: after one of its chunks arrived and before its last
 * (the engine holds the model until the stream ends). A call still queued behind another gets
 * its interrupt with its first chunk, never earlier, so it cannot stop the other call. */
async function stopAndDrain(
  engine: WebLlmEngine,
  iterator: AsyncIterator<ChatCompletionChunk>,
  pending: Promise<IteratorResult<ChatCompletionChunk>> | undefined,
  runningNow: boolean,
): Promise<void> {
  if (runningNow) interrupt(engine);
  try {
    let result = await (pending ?? iterator.next());
    while (!result.done) {
      if (result.value.choices.some((choice) => choice.finish_reason === null)) interrupt(engine);
      result = await iterator.next();
    }
  } catch {
    // The call already reported its outcome; a late failure of the abandoned stream has no one to tell.
  }
}

class CompletionBuilder {
  content = '';
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
  timings: EngineTimings | undefined;
  model: string | undefined;
  firstTokenAt: number | undefined;
  /** A chunk of this generation arrived and its last has not: the engine is running it. */
  running = false;

  constructor(
    private readonly startedAt: number,
    private readonly onDelta: ((delta: ChatDelta) => void) | undefined,
  ) {}

  absorb(chunk: ChatCompletionChunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.choices.length > 0) this.running = chunk.choices.every((choice) => choice.finish_reason === null);
    if (chunk.usage) {
      this.usage = usageOf(chunk.usage);
      this.timings = timingsOf(chunk.usage);
    }
    const choice = chunk.choices[0];
    if (!choice) return;
    const text = choice.delta.content;
    if (typeof text === 'string' && text !== '') {
      this.content += text;
      this.firstTokenAt ??= performance.now();
      this.onDelta?.({ type: 'content', text });
    }
    if (choice.finish_reason) this.finishReason = toFinishReason(choice.finish_reason);
  }

  finish(finishReason: FinishReason): ChatCompletion {
    const completion: ChatCompletion = {
      content: this.content,
      finishReason,
      latencyMs: Math.round(performance.now() - this.startedAt),
    };
    if (this.usage) completion.usage = this.usage;
    if (this.timings) completion.timings = this.timings;
    if (this.model) completion.model = this.model;
    if (this.firstTokenAt !== undefined) completion.timeToFirstTokenMs = Math.round(this.firstTokenAt - this.startedAt);
    return completion;
  }
}

/** A rejection from the engine itself, told apart from an exception thrown by the caller's onDelta. */
class EngineFailure {
  constructor(readonly error: unknown) {}
}

function fromEngine<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    throw new EngineFailure(error);
  });
}

async function complete(options: WebLlmModelOptions, request: ChatRequest, onDelta?: (delta: ChatDelta) => void): Promise<ChatCompletion> {
  const { engine, modelId } = options;
  const { signal } = request;
  if (signal?.aborted) throw abortedError(modelId);
  const builder = new CompletionBuilder(performance.now(), onDelta);
  const body = buildRequest(options, request);

  const created = engine.chat.completions.create(body);
  let iterator: AsyncIterator<ChatCompletionChunk> | undefined;
  let pending: Promise<IteratorResult<ChatCompletionChunk>> | undefined;
  try {
    const stream = await raceAbort(fromEngine(created), signal);
    iterator = stream[Symbol.asyncIterator]();
    for (;;) {
      pending = iterator.next();
      const result = await raceAbort(fromEngine(pending), signal);
      if (result.done) break;
      builder.absorb(result.value);
    }
  } catch (error) {
    if (error instanceof EngineFailure) throw webLlmError(error.error, modelId);
    // Aborted, or the caller's onDelta threw: the generation must stop either way.
    if (iterator) void stopAndDrain(engine, iterator, pending, builder.running);
    else created.then((stream) => stopAndDrain(engine, stream[Symbol.asyncIterator](), undefined, false), () => undefined);
    if (error === ABORTED) throw abortedError(modelId);
    throw error;
  }
  if (builder.finishReason === undefined) {
    throw new BackendError({
      code: 'bad_response',
      provider: PROVIDER,
      retryable: false,
      message: `web-llm's stream for "${modelId}" ended before the model finished.`,
    });
  }
  return builder.finish(builder.finishReason);
}

function toFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'tool_calls':
    case 'abort':
      return reason;
    default:
      return 'unknown';
  }
}

function finiteOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Token counts and speeds. With KV-cache reuse across turns, web-llm counts in `prompt_tokens`
 * only the tokens it had to prefill, not the part of the prompt it kept from the last turn. */
function usageOf(raw: CompletionUsage): Usage {
  const usage: Usage = {
    promptTokens: finiteOrUndefined(raw.prompt_tokens) ?? 0,
    completionTokens: finiteOrUndefined(raw.completion_tokens) ?? 0,
  };
  const prefill = finiteOrUndefined(raw.extra?.prefill_tokens_per_s);
  const decode = finiteOrUndefined(raw.extra?.decode_tokens_per_s);
  if (prefill !== undefined) usage.prefillTokensPerSecond = prefill;
  if (decode !== undefined) usage.decodeTokensPerSecond = decode;
  return usage;
}

const toMs = (seconds: number) => Math.round(seconds * 10_000) / 10;

function timingsOf(raw: CompletionUsage): EngineTimings | undefined {
  const ttft = finiteOrUndefined(raw.extra?.time_to_first_token_s);
  const total = finiteOrUndefined(raw.extra?.e2e_latency_s);
  if (ttft === undefined || total === undefined) return undefined;
  const timings: EngineTimings = {
    timeToFirstTokenMs: toMs(ttft),
    timePerOutputTokenMs: toMs(finiteOrUndefined(raw.extra.time_per_output_token_s) ?? 0),
    totalMs: toMs(total),
  };
  const grammar = finiteOrUndefined(raw.extra.grammar_init_s);
  if (grammar !== undefined) timings.grammarInitMs = toMs(grammar);
  return timings;
}
