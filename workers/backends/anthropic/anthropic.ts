// A ChatModel over Anthropic's Messages API, streamed. Used for experts only: it takes plain
// messages (tool results become user text) and never server-side tools.

import { ANTHROPIC_BROWSER_HEADERS, anthropicOrigin } from './baseUrl.ts';
import type { ChatCompletion, ChatDelta, ChatMessage, ChatModel, ChatRequest, FinishReason, Usage } from '../../engine/types.ts';
import { BackendError, errorFromStatus, redactThenCut } from '../../engine/errors.ts';
import { modelCallPost, postWithRetry, type Attempt } from '../http/http.ts';
import { readWholeAnswer, ReplyBudget, sseLimits } from '../http/limits.ts';
import { readSse } from '../http/sse.ts';

export interface AnthropicOptions {
  /** Default https://api.anthropic.com (a trailing `/v1` is accepted too). */
  baseUrl?: string;
  model: string;
  apiKey?: string;
  /** Anthropic requires a cap on output; used when the request gives none (default 4096). */
  maxTokens?: number;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  maxRetries?: number;
  /** The first backoff wait (default 500 ms); tests shorten it. */
  retryBaseDelayMs?: number;
  fetch?: typeof fetch;
}

const PROVIDER = 'Anthropic';
const DEFAULT_MAX_TOKENS = 4096;

/** Anthropic's error types, as the HTTP status each stands for. */
const ERROR_TYPE_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

export function createAnthropicModel(options: AnthropicOptions): ChatModel {
  const url = `${anthropicOrigin(options.baseUrl)}/v1/messages`;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...ANTHROPIC_BROWSER_HEADERS };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const secrets = options.apiKey ? [options.apiKey] : [];

  return {
    model: options.model,
    label: `anthropic:${options.model}`,
    supportsServerTools: false,
    async complete(request: ChatRequest, onDelta?: (delta: ChatDelta) => void): Promise<ChatCompletion> {
      const startedAt = Date.now();
      return postWithRetry(
        modelCallPost(options, request, onDelta, { provider: PROVIDER, url, headers, body: requestBody(options, request), model: options.model, secrets }),
        (attempt) => readMessage(attempt, { url, model: options.model, startedAt, secrets, ...(onDelta ? { onDelta } : {}) }),
      );
    },
  };
}

function requestBody(options: AnthropicOptions, request: ChatRequest): Record<string, unknown> {
  const { system, messages } = toAnthropicMessages(request.messages);
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: request.maxTokens ?? options.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages,
    stream: true,
  };
  if (system) body.system = system;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

/** System turns → `system`; tool results → user text; consecutive same-role turns merged
 * (the API wants user and assistant to alternate). */
export function toAnthropicMessages(messages: ChatMessage[]): {
  system: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
} {
  const systemParts: string[] = [];
  const merged: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const message of messages) {
    if (message.role === 'system') {
      systemParts.push(message.content);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const text = message.role === 'tool' ? `Result of the tool "${message.name}" (call ${message.toolCallId}):\n${message.content}` : message.content;
    // The API refuses empty turns (an assistant turn that only made server-parsed calls).
    if (!text.trim()) continue;
    const last = merged.at(-1);
    if (last?.role === role) last.content = `${last.content}\n\n${text}`;
    else merged.push({ role, content: text });
  }
  // ... and a conversation that does not open with the user.
  if (merged[0]?.role === 'assistant') merged.unshift({ role: 'user', content: '(The conversation so far:)' });
  return { system: systemParts.join('\n\n'), messages: merged };
}

interface ReadContext {
  /** For error messages about a failure reported inside the stream. */
  url: string;
  model: string;
  startedAt: number;
  secrets: string[];
  onDelta?: (delta: ChatDelta) => void;
}

type AnthropicUsage = Partial<
  Record<'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens', number>
>;

interface Gathered {
  content: string;
  reasoning: string;
  /** Undefined until the provider sends any usage. */
  usage?: AnthropicUsage;
  finishReason?: FinishReason;
  model?: string;
  firstTokenAt?: number;
}

async function readMessage(attempt: Attempt, context: ReadContext): Promise<ChatCompletion> {
  const gathered: Gathered = { content: '', reasoning: '' };
  const budget = new ReplyBudget(PROVIDER);
  const emit = (type: 'reasoning' | 'content', text: string) => {
    if (text === '') return;
    budget.spend(text.length);
    if (type === 'content') gathered.content += text;
    else gathered.reasoning += text;
    gathered.firstTokenAt ??= Date.now();
    attempt.markDelivered();
    context.onDelta?.({ type, text });
  };

  const contentType = attempt.response.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) {
    const message = parseJson(await readWholeAnswer(attempt.response.body, PROVIDER), context);
    absorbMessageStart(message, gathered);
    for (const block of Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : []) {
      if (block.type === 'text' && typeof block.text === 'string') emit('content', block.text);
      if (block.type === 'thinking' && typeof block.thinking === 'string') emit('reasoning', block.thinking);
    }
    if (typeof message.stop_reason === 'string') gathered.finishReason = toFinishReason(message.stop_reason);
    return finish(gathered, context);
  }

  let stopped = false;
  for await (const event of readSse(attempt.response.body, attempt.signal, sseLimits(PROVIDER))) {
    const data = parseJson(event.data, context);
    const type = typeof data.type === 'string' ? data.type : event.event;
    switch (type) {
      case 'message_start':
        absorbMessageStart((data.message ?? {}) as Record<string, unknown>, gathered);
        break;
      case 'content_block_delta': {
        const delta = (data.delta ?? {}) as Record<string, unknown>;
        if (delta.type === 'text_delta' && typeof delta.text === 'string') emit('content', delta.text);
        if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') emit('reasoning', delta.thinking);
        break;
      }
      case 'message_delta': {
        const delta = (data.delta ?? {}) as Record<string, unknown>;
        if (typeof delta.stop_reason === 'string') gathered.finishReason = toFinishReason(delta.stop_reason);
        if (typeof data.usage === 'object' && data.usage !== null) {
          absorbUsage(data.usage as Record<string, unknown>, (gathered.usage ??= {}));
        }
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        throw streamError(data, context);
      default:
        // ping, content_block_start/stop, signature deltas: nothing to gather.
        break;
    }
  }
  if (!stopped) {
    throw new BackendError({ code: 'network', provider: PROVIDER, message: `The stream from ${PROVIDER} ended before the message was complete.` });
  }
  return finish(gathered, context);
}

function absorbMessageStart(message: Record<string, unknown>, gathered: Gathered): void {
  if (typeof message.model === 'string') gathered.model = message.model;
  if (typeof message.usage === 'object' && message.usage !== null) {
    absorbUsage(message.usage as Record<string, unknown>, (gathered.usage ??= {}));
  }
}

/** Later events repeat or update counters, so each one present replaces the earlier figure. */
function absorbUsage(raw: Record<string, unknown>, counters: AnthropicUsage): void {
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const value = raw[key];
    if (typeof value === 'number') counters[key] = value;
  }
}

/** Anthropic's `input_tokens` excludes cache reads and writes; our promptTokens includes them. */
function toUsage(counters: AnthropicUsage): Usage {
  const cacheRead = counters.cache_read_input_tokens ?? 0;
  const cacheWrite = counters.cache_creation_input_tokens ?? 0;
  const usage: Usage = {
    promptTokens: (counters.input_tokens ?? 0) + cacheRead + cacheWrite,
    completionTokens: counters.output_tokens ?? 0,
  };
  if (counters.cache_read_input_tokens !== undefined) usage.cachedPromptTokens = cacheRead;
  if (counters.cache_creation_input_tokens !== undefined) usage.cacheWritePromptTokens = cacheWrite;
  return usage;
}

function streamError(data: Record<string, unknown>, context: ReadContext): BackendError {
  const error = (data.error ?? {}) as { type?: unknown };
  const status = (typeof error.type === 'string' ? ERROR_TYPE_STATUS[error.type] : undefined) ?? 500;
  return errorFromStatus({
    provider: PROVIDER,
    status,
    bodyText: JSON.stringify(data),
    url: context.url,
    model: context.model,
    secrets: context.secrets,
  });
}

function parseJson(text: string, context: ReadContext): Record<string, unknown> {
  const badResponse = (what: string) =>
    new BackendError({
      code: 'bad_response',
      provider: PROVIDER,
      message: `${PROVIDER} sent an event that is ${what}: ${JSON.stringify(redactThenCut(text, context.secrets, 80))}.`,
      secrets: context.secrets,
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badResponse('not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badResponse('not a JSON object');
  return parsed as Record<string, unknown>;
}

function toFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    default:
      return 'unknown';
  }
}

function finish(gathered: Gathered, context: ReadContext): ChatCompletion {
  const completion: ChatCompletion = {
    content: gathered.content,
    finishReason: gathered.finishReason ?? 'unknown',
    latencyMs: Date.now() - context.startedAt,
  };
  if (gathered.reasoning) completion.reasoning = gathered.reasoning;
  if (gathered.usage) completion.usage = toUsage(gathered.usage);
  if (gathered.model) completion.model = gathered.model;
  if (gathered.firstTokenAt !== undefined) completion.timeToFirstTokenMs = gathered.firstTokenAt - context.startedAt;
  return completion;
}
