// A ChatModel over llama.cpp in this tab (wllama: llama.cpp compiled to WebAssembly, with
// llama-server's request handling inside), for GGUF models. The engine is the model worker's
// port (workers/hosts/models/ggufEngine.ts); this file only shapes requests and reads the stream.
//
// As for web-llm: tools are rendered into the system prompt by the engine (toolMode "prompt") and
// calls come back as `<tool_call>` text, parsed by our tolerant Qwen3 parser; the GGUF's own chat
// template (Jinja, read from its metadata by llama.cpp) lays the turns out. `reasoning_format`
// "none" at load keeps `<think>` in the text, as the parser expects. Optionally a grammar
// (toolCallGrammar.ts) constrains the reply to one call of an offered tool, the thinking before it
// left free where the model's vocabulary has the thinking tokens.
//
// `cache_prompt` keeps each prompt's KV cache in llama.cpp's slot: the next request that starts
// with the same tokens prefills only the rest. wllama loads four slots sharing one KV cache, and
// llama-server gives a request the idle slot whose cached prompt it shares the most with (else the
// least recently used one), so an orchestrator and the experts on the same loaded model keep
// their own caches between turns (docs/orchestrator-8b-in-the-browser.md, Context reuse).

import type { ChatCompletionChunk, ChatCompletionParams, ResultTimings } from '@wllama/wllama';
import { BackendError } from '../../engine/errors.ts';
import type { ChatCompletion, ChatDelta, ChatModel, ChatRequest, EngineTimings, FinishReason, Usage } from '../../engine/types.ts';
import { ABORTED, raceAbort } from '../../engine/abort.ts';
import { toolsToConstrain } from '../../engine/qwen3/toolsInPrompt.ts';
import { toTemplateTurns } from '../../engine/qwen3/render.ts';
import { toolCallGrammar } from './toolCallGrammar.ts';

export const GGUF_PROVIDER = 'gguf';

/** A chat request as it crosses to the model worker: wllama's parameters, minus the signal. */
export type GgufChatBody = Omit<ChatCompletionParams, 'abortSignal' | 'stream'>;
export type GgufChunk = ChatCompletionChunk;

/** What the ChatModel needs from the model worker. `chat` resolves when the stream ends and
 * rejects with a BackendError (aborted: code `aborted`). */
export interface GgufEngine {
  chat(body: GgufChatBody, onChunk: (chunk: GgufChunk) => void, signal?: AbortSignal): Promise<void>;
}

export interface GgufModelOptions {
  engine: GgufEngine;
  modelId: string;
  label?: string;
  /** Constrain the reply to one call of an offered tool (a GBNF grammar). */
  constrainToolCalls?: boolean;
  /** Whether the model's vocabulary has `<think>` and `</think>` as tokens (GgufRuntime's
   * `thinkTokens`, read from the loaded file): the grammar then leaves a thinking block free
   * before the call. Without them (the default) it allows the call alone, which parses on any
   * vocabulary. */
  thinkTokens?: boolean;
}

export function ggufAbortedError(modelId: string): BackendError {
  return new BackendError({ code: 'aborted', provider: GGUF_PROVIDER, retryable: false, message: `The call to ${modelId} was cancelled.` });
}

export function createGgufModel(options: GgufModelOptions): ChatModel {
  return {
    model: options.modelId,
    label: options.label ?? `${GGUF_PROVIDER}:${options.modelId}`,
    supportsServerTools: false,
    complete: (request, onDelta) => complete(options, request, onDelta),
  };
}

export function buildGgufBody(options: Pick<GgufModelOptions, 'constrainToolCalls' | 'thinkTokens'>, request: ChatRequest): GgufChatBody {
  const tools = request.tools ?? [];
  const body: GgufChatBody = { messages: toTemplateTurns(request.messages, tools), cache_prompt: true };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.enableThinking !== undefined) body.chat_template_kwargs = { enable_thinking: request.enableThinking };
  if (options.constrainToolCalls) {
    const listed = toolsToConstrain(request);
    // With thinking off, Qwen3's template has already written an empty `<think>` block.
    const thinking = options.thinkTokens && request.enableThinking !== false ? 'free' : 'none';
    const grammar = listed ? toolCallGrammar(listed, { thinking }) : undefined;
    if (grammar) body.grammar = grammar;
  }
  return body;
}

async function complete(options: GgufModelOptions, request: ChatRequest, onDelta?: (delta: ChatDelta) => void): Promise<ChatCompletion> {
  const { modelId, engine } = options;
  const { signal } = request;
  if (signal?.aborted) throw ggufAbortedError(modelId);
  const startedAt = performance.now();
  let content = '';
  let firstTokenAt: number | undefined;
  let finishReason: FinishReason | undefined;
  let usage: Usage | undefined;
  let timings: EngineTimings | undefined;
  // The caller's onDelta may throw; the generation must stop then too.
  const inner = new AbortController();
  const onAbort = () => inner.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let thrownByCaller: unknown;
  const onChunk = (chunk: GgufChunk) => {
    if (thrownByCaller !== undefined) return;
    try {
      const choice = chunk.choices[0];
      const text = choice?.delta.content;
      if (typeof text === 'string' && text !== '') {
        content += text;
        firstTokenAt ??= performance.now();
        onDelta?.({ type: 'content', text });
      }
      if (choice?.finish_reason) finishReason = toFinishReason(choice.finish_reason);
      if (chunk.timings) {
        usage = usageOf(chunk.timings);
        timings = timingsOf(chunk.timings);
      }
    } catch (error) {
      thrownByCaller = error;
      inner.abort();
    }
  };
  try {
    await raceAbort(engine.chat(buildGgufBody(options, request), onChunk, inner.signal), signal);
  } catch (error) {
    if (thrownByCaller !== undefined) throw thrownByCaller;
    if (error === ABORTED || (error instanceof BackendError && error.code === 'aborted')) {
      inner.abort();
      throw ggufAbortedError(modelId);
    }
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (thrownByCaller !== undefined) throw thrownByCaller;
  if (finishReason === undefined) {
    throw new BackendError({
      code: 'bad_response',
      provider: GGUF_PROVIDER,
      retryable: false,
      message: `llama.cpp's stream for "${modelId}" ended before the model finished.`,
    });
  }
  const completion: ChatCompletion = { content, finishReason, latencyMs: Math.round(performance.now() - startedAt), model: modelId };
  if (usage) completion.usage = usage;
  if (timings) completion.timings = timings;
  if (firstTokenAt !== undefined) completion.timeToFirstTokenMs = Math.round(firstTokenAt - startedAt);
  return completion;
}

function toFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'tool_calls':
      return reason;
    default:
      return 'unknown';
  }
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

/** llama-server's timings: `prompt_n` tokens prefilled, `cache_n` kept from the last turn's KV
 * cache (a prefix of the prompt it did not prefill again), `predicted_n` generated. */
function usageOf(raw: ResultTimings): Usage {
  const usage: Usage = { promptTokens: count(raw.prompt_n) + count(raw.cache_n), completionTokens: count(raw.predicted_n) };
  if (count(raw.cache_n) > 0) usage.cachedPromptTokens = count(raw.cache_n);
  if (count(raw.prompt_per_second) > 0) usage.prefillTokensPerSecond = raw.prompt_per_second;
  if (count(raw.predicted_per_second) > 0) usage.decodeTokensPerSecond = raw.predicted_per_second;
  return usage;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function timingsOf(raw: ResultTimings): EngineTimings {
  return {
    timeToFirstTokenMs: round(count(raw.prompt_ms)),
    timePerOutputTokenMs: round(count(raw.predicted_per_token_ms)),
    totalMs: round(count(raw.prompt_ms) + count(raw.predicted_ms)),
  };
}
