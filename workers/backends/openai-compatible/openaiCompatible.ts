// A ChatModel over any OpenAI-compatible chat completions endpoint (vLLM, Ollama, OpenRouter,
// OpenAI), streamed; a request that asks for it goes to the Responses API (openaiResponses.ts).

import type {
  ChatCompletion,
  ChatDelta,
  ChatMessage,
  ChatModel,
  ChatRequest,
  FinishReason,
  Usage,
} from '../../engine/types.ts';
import { toPythonJson } from '../../engine/qwen3/render.ts';
import { BackendError, errorFromStatus, redactThenCut } from '../../engine/errors.ts';
import { formatCount } from '../../engine/format.ts';
import { MAX_TOOL_CALLS_PER_REPLY } from '../../engine/callLimits.ts';
import { modelCallPost, postWithRetry, type Attempt } from '../http/http.ts';
import { readWholeAnswer, ReplyBudget, sseLimits } from '../http/limits.ts';
import { readSse } from '../http/sse.ts';
import { absorbResponsesAnswer, absorbResponsesEvent, responsesBody, type ResponsesSink } from './openaiResponses.ts';

export interface OpenAICompatibleOptions {
  /** Up to and including the version path, e.g. `http://localhost:8000/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** A name for labels and error messages (default "openai-compatible"). */
  provider?: string;
  /** Whether the server renders `tools` and parses `tool_calls` (vLLM with a tool parser). Default true. */
  supportsServerTools?: boolean;
  /** OpenAI's newer models want `max_completion_tokens`. Default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Extra top-level body fields (OpenRouter routing, vLLM sampling settings…). */
  extraBody?: Record<string, unknown>;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  maxRetries?: number;
  /** The first backoff wait (default 500 ms); tests shorten it. */
  retryBaseDelayMs?: number;
  fetch?: typeof fetch;
}

export function createOpenAICompatibleModel(options: OpenAICompatibleOptions): ChatModel {
  const provider = options.provider ?? 'openai-compatible';
  const base = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const secrets = options.apiKey ? [options.apiKey] : [];

  return {
    model: options.model,
    label: `${provider}:${options.model}`,
    supportsServerTools: options.supportsServerTools ?? true,
    async complete(request: ChatRequest, onDelta?: (delta: ChatDelta) => void): Promise<ChatCompletion> {
      const startedAt = Date.now();
      const responses = request.api === 'responses';
      const url = `${base}/${responses ? 'responses' : 'chat/completions'}`;
      const body = responses ? responsesBody(options.model, request, options.extraBody ?? {}) : requestBody(options, request);
      return postWithRetry(
        modelCallPost(options, request, onDelta, { provider, url, headers, body, model: options.model, secrets }),
        (attempt) => {
          const context = { provider, url, model: options.model, startedAt, secrets, ...(onDelta ? { onDelta } : {}) };
          return responses ? readResponses(attempt, context) : readCompletion(attempt, context);
        },
      );
    },
  };
}

function requestBody(options: OpenAICompatibleOptions, request: ChatRequest): Record<string, unknown> {
  const extra = options.extraBody ?? {};
  const body: Record<string, unknown> = {
    ...extra,
    model: options.model,
    messages: request.messages.map(toOpenAIMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body[options.maxTokensField ?? 'max_tokens'] = request.maxTokens;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.enableThinking !== undefined) {
    const kwargs = typeof extra.chat_template_kwargs === 'object' && extra.chat_template_kwargs !== null ? extra.chat_template_kwargs : {};
    body.chat_template_kwargs = { ...kwargs, enable_thinking: request.enableThinking };
  }
  return body;
}

function toOpenAIMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      if (!message.toolCalls || message.toolCalls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          // As tau2 sends them (json.dumps), so a model that reads the string sees the reference's bytes.
          function: { name: call.name, arguments: toPythonJson(call.arguments, { ensureAscii: true }) },
        })),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

interface ReadContext {
  provider: string;
  /** For error messages about a failure reported inside the stream. */
  url: string;
  model: string;
  startedAt: number;
  secrets: string[];
  onDelta?: (delta: ChatDelta) => void;
}

/** What one attempt has gathered so far. */
class CompletionBuilder implements ResponsesSink {
  content = '';
  reasoning = '';
  /** By the stream's slot (its `index`), any number a server sends: a Map, never a sparse array
   * (a slot of 4,294,967,294 would make every walk of an array 4 billion long). */
  private readonly toolCalls = new Map<number, { id: string; name: string; arguments: string }>();
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
  model: string | undefined;
  firstTokenAt: number | undefined;
  private readonly budget: ReplyBudget;

  constructor(
    private readonly attempt: Attempt,
    private readonly context: ReadContext,
  ) {
    this.budget = new ReplyBudget(context.provider);
  }

  emit(delta: { type: 'reasoning' | 'content'; text: string }): void {
    if (delta.text === '') return;
    this.budget.spend(delta.text.length);
    if (delta.type === 'content') this.content += delta.text;
    else this.reasoning += delta.text;
    this.touch();
    this.context.onDelta?.(delta);
  }

  addToolCallPiece(piece: unknown, position: number): void {
    if (typeof piece !== 'object' || piece === null) return;
    const { index, id, function: fn } = piece as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const args =
      typeof fn?.arguments === 'string' ? fn.arguments : typeof fn?.arguments === 'object' && fn.arguments !== null ? JSON.stringify(fn.arguments) : '';
    this.addToToolCall(typeof index === 'number' && Number.isFinite(index) ? index : position, { id, name: fn?.name, arguments: args });
  }

  addToToolCall(slot: number, piece: { id?: unknown; name?: unknown; arguments?: string }): void {
    let call = this.toolCalls.get(slot);
    if (!call) {
      if (this.toolCalls.size >= MAX_TOOL_CALLS_PER_REPLY) {
        throw this.badResponse(`more than ${formatCount(MAX_TOOL_CALLS_PER_REPLY)} tool calls in one reply, the most the playground reads`);
      }
      this.toolCalls.set(slot, (call = { id: '', name: '', arguments: '' }));
    }
    if (typeof piece.id === 'string' && piece.id !== '' && call.id === '') call.id = piece.id;
    if (typeof piece.name === 'string' && piece.name !== '' && call.name === '') {
      this.budget.spend(piece.name.length);
      call.name = piece.name;
    }
    const args = piece.arguments ?? '';
    this.budget.spend(args.length);
    call.arguments += args;
    this.touch();
  }

  hasToolArguments(slot: number): boolean {
    return (this.toolCalls.get(slot)?.arguments ?? '') !== '';
  }

  hasToolCalls(): boolean {
    return this.toolCalls.size > 0;
  }

  badResponse(what: string): BackendError {
    return badResponse(this.context, what);
  }

  failure(status: number, body: unknown): BackendError {
    const { provider, url, model, secrets } = this.context;
    return errorFromStatus({ provider, status, bodyText: JSON.stringify(body), url, model, secrets });
  }

  private touch(): void {
    this.firstTokenAt ??= Date.now();
    this.attempt.markDelivered();
  }

  finish(): ChatCompletion {
    const completion: ChatCompletion = {
      content: this.content,
      finishReason: this.finishReason ?? 'unknown',
      latencyMs: Date.now() - this.context.startedAt,
    };
    if (this.reasoning) completion.reasoning = this.reasoning;
    const calls = [...this.toolCalls].sort(([a], [b]) => a - b).map(([, call]) => call);
    if (calls.length > 0) completion.toolCalls = calls.map((call, i) => ({ ...call, id: call.id || `call_${i}` }));
    if (this.usage) completion.usage = this.usage;
    if (this.model) completion.model = this.model;
    if (this.firstTokenAt !== undefined) completion.timeToFirstTokenMs = this.firstTokenAt - this.context.startedAt;
    return completion;
  }
}

async function readCompletion(attempt: Attempt, context: ReadContext): Promise<ChatCompletion> {
  const builder = new CompletionBuilder(attempt, context);
  const contentType = attempt.response.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) {
    // The server ignored `stream: true` and answered in one piece.
    const text = await readWholeAnswer(attempt.response.body, context.provider);
    absorbChunk(parseJson(text, context), builder, context, 'message');
    return builder.finish();
  }
  let ended = false;
  for await (const event of readSse(attempt.response.body, attempt.signal, sseLimits(context.provider))) {
    absorbChunk(parseJson(event.data, context), builder, context, 'delta');
    if (builder.finishReason !== undefined) ended = true;
  }
  if (!ended) {
    throw new BackendError({
      code: 'network',
      provider: context.provider,
      message: `The stream from ${context.provider} ended before the model finished.`,
    });
  }
  return builder.finish();
}

/** A Responses API answer: its events as they stream, or the whole answer in one piece. */
async function readResponses(attempt: Attempt, context: ReadContext): Promise<ChatCompletion> {
  const builder = new CompletionBuilder(attempt, context);
  const contentType = attempt.response.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) {
    absorbResponsesAnswer(parseJson(await readWholeAnswer(attempt.response.body, context.provider), context), builder);
    return builder.finish();
  }
  for await (const event of readSse(attempt.response.body, attempt.signal, sseLimits(context.provider))) {
    if (absorbResponsesEvent(parseJson(event.data, context), builder)) return builder.finish();
  }
  throw new BackendError({
    code: 'network',
    provider: context.provider,
    message: `The stream from ${context.provider} ended before the model finished.`,
  });
}

function parseJson(text: string, context: ReadContext): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badResponse(context, `a chunk that is not valid JSON: ${JSON.stringify(redactThenCut(text, context.secrets, 80))}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badResponse(context, `a chunk that is not a JSON object: ${JSON.stringify(redactThenCut(text, context.secrets, 80))}`);
  }
  return parsed as Record<string, unknown>;
}

function badResponse(context: ReadContext, what: string): BackendError {
  return new BackendError({
    code: 'bad_response',
    provider: context.provider,
    message: `${context.provider} sent ${what}.`,
    secrets: context.secrets,
  });
}

/** Folds one streamed chunk (`part` = "delta") or a whole non-streamed answer (`part` = "message"). */
function absorbChunk(chunk: Record<string, unknown>, builder: CompletionBuilder, context: ReadContext, part: 'delta' | 'message'): void {
  if (chunk.error !== undefined && chunk.error !== null) {
    // OpenRouter and vLLM report failures inside an open stream this way.
    const error = chunk.error as { code?: unknown; status?: unknown };
    const status = [error.code, error.status].find((value): value is number => typeof value === 'number' && value >= 400) ?? 500;
    throw errorFromStatus({
      provider: context.provider,
      status,
      bodyText: JSON.stringify(chunk),
      url: context.url,
      model: context.model,
      secrets: context.secrets,
    });
  }
  if (typeof chunk.model === 'string' && chunk.model !== '') builder.model = chunk.model;
  if (typeof chunk.usage === 'object' && chunk.usage !== null) builder.usage = parseUsage(chunk.usage as Record<string, unknown>);
  if (!Array.isArray(chunk.choices)) {
    if (part === 'message') throw badResponse(context, 'an answer without `choices`');
    return;
  }
  const choice = chunk.choices[0] as Record<string, unknown> | undefined;
  if (!choice) return;
  const body = choice[part] as Record<string, unknown> | undefined;
  if (body) {
    const reasoning = body.reasoning_content ?? body.reasoning;
    if (typeof reasoning === 'string') builder.emit({ type: 'reasoning', text: reasoning });
    if (typeof body.content === 'string') builder.emit({ type: 'content', text: body.content });
    if (Array.isArray(body.tool_calls)) body.tool_calls.forEach((piece, i) => builder.addToolCallPiece(piece, i));
  }
  if (typeof choice.finish_reason === 'string') builder.finishReason = toFinishReason(choice.finish_reason);
}

function toFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
    case 'eos':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'abort':
      return 'abort';
    case 'error':
      return 'error';
    default:
      return 'unknown';
  }
}

function parseUsage(raw: Record<string, unknown>): Usage {
  const usage: Usage = { promptTokens: numberOr(raw.prompt_tokens, 0), completionTokens: numberOr(raw.completion_tokens, 0) };
  const promptDetails = raw.prompt_tokens_details as Record<string, unknown> | undefined;
  const completionDetails = raw.completion_tokens_details as Record<string, unknown> | undefined;
  const cached = promptDetails?.cached_tokens;
  const reasoning = completionDetails?.reasoning_tokens;
  if (typeof cached === 'number') usage.cachedPromptTokens = cached;
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  if (typeof raw.cost === 'number') usage.costUsd = raw.cost;
  return usage;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
