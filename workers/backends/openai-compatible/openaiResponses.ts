// OpenAI's Responses API (`POST {baseUrl}/responses`), for a request that asks for it
// (`api: 'responses'`): the reference sends a GPT-5 expert in function calling this way
// (NVlabs/ToolOrchestra at d882ee7: llm_utils.py to_responses_api_messages and
// convert_tools_for_responses_api, LLM_CALL.py get_llm_response with openai_response). The
// conversation becomes input items, tools lose their `function` wrapper, the reply length is
// `max_output_tokens`. Streamed here (the reference waits for the whole answer; the model receives
// the same); a stream's events and a whole answer fold into the same sink.

import { toPythonJson } from '../../engine/qwen3/render.ts';
import type { ChatDelta, ChatMessage, ChatRequest, FinishReason, Usage } from '../../engine/types.ts';

/** What the events fill in: openaiCompatible.ts's CompletionBuilder. */
export interface ResponsesSink {
  content: string;
  reasoning: string;
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
  model: string | undefined;
  emit(delta: Extract<ChatDelta, { type: 'reasoning' | 'content' }>): void;
  /** Adds to the call in `slot` (its id and name when not yet known, a piece of its arguments). */
  addToToolCall(slot: number, piece: { id?: unknown; name?: unknown; arguments?: string }): void;
  /** Whether the call in `slot` has received any arguments yet. */
  hasToolArguments(slot: number): boolean;
  hasToolCalls(): boolean;
  /** The error for what the provider sent that is not the Responses API's shape. */
  badResponse(what: string): Error;
  /** The error for a failure the provider reported, as its HTTP status would be. */
  failure(status: number, body: unknown): Error;
}

/** The request body: the reference's fields, then `stream`. */
export function responsesBody(model: string, request: ChatRequest, extra: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...extra, model, input: toResponsesInput(request.messages) };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters }));
  }
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.reasoningEffort !== undefined) body.reasoning = { effort: request.reasoningEffort };
  body.stream = true;
  return body;
}

/** The conversation as input items, as to_responses_api_messages lays out tau2's messages: an
 * assistant turn's text only when it has any, then one item per call; a tool result as the output
 * of the call it answers. */
export function toResponsesInput(messages: readonly ChatMessage[]): Array<Record<string, unknown>> {
  return messages.flatMap((message): Array<Record<string, unknown>> => {
    switch (message.role) {
      case 'system':
      case 'user':
        return [{ role: message.role, content: message.content }];
      case 'assistant':
        return [
          ...(message.content ? [{ role: 'assistant', content: message.content }] : []),
          ...(message.toolCalls ?? []).map((call) => ({
            type: 'function_call',
            call_id: call.id,
            name: call.name,
            // json.dumps, as the reference writes a call's arguments.
            arguments: toPythonJson(call.arguments, { ensureAscii: true }),
          })),
        ];
      case 'tool':
        return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
    }
  });
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** Folds one streamed event; true once the stream has reached its end. */
export function absorbResponsesEvent(event: Record<string, unknown>, sink: ResponsesSink): boolean {
  const type = event.type;
  const slot = typeof event.output_index === 'number' ? event.output_index : 0;
  const delta = typeof event.delta === 'string' ? event.delta : '';
  switch (type) {
    case 'response.output_text.delta':
    case 'response.refusal.delta':
      sink.emit({ type: 'content', text: delta });
      return false;
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      sink.emit({ type: 'reasoning', text: delta });
      return false;
    case 'response.output_item.added':
    case 'response.output_item.done': {
      const item = event.item as Record<string, unknown> | undefined;
      if (item?.type !== 'function_call') return false;
      // The whole arguments come with `done` too; take them only when no piece has arrived.
      const whole = type === 'response.output_item.done' && !sink.hasToolArguments(slot) && typeof item.arguments === 'string' ? item.arguments : '';
      sink.addToToolCall(slot, { id: item.call_id, name: item.name, arguments: whole });
      return false;
    }
    case 'response.function_call_arguments.delta':
      sink.addToToolCall(slot, { arguments: delta });
      return false;
    case 'error':
      throw sink.failure(statusOf(event.code), { error: { code: event.code, message: event.message } });
    default:
      if (typeof type === 'string' && TERMINAL.has(type)) {
        absorbFinal(event.response, sink);
        return true;
      }
      return false;
  }
}

/** A whole answer (the server did not stream), or a stream's final response. */
export function absorbResponsesAnswer(answer: Record<string, unknown>, sink: ResponsesSink): void {
  if (typeof answer.object !== 'string' && !Array.isArray(answer.output)) {
    if (answer.error !== undefined && answer.error !== null) throw sink.failure(statusOf((answer.error as { code?: unknown }).code), answer);
    throw sink.badResponse('an answer that is not a Responses API response');
  }
  absorbFinal(answer, sink);
}

function absorbFinal(value: unknown, sink: ResponsesSink): void {
  if (typeof value !== 'object' || value === null) throw sink.badResponse('a final event without its response');
  const response = value as Record<string, unknown>;
  if (response.status === 'failed') {
    const error = (response.error ?? {}) as { code?: unknown };
    throw sink.failure(statusOf(error.code), { error: response.error });
  }
  if (typeof response.model === 'string' && response.model !== '') sink.model = response.model;
  if (typeof response.usage === 'object' && response.usage !== null) sink.usage = parseResponsesUsage(response.usage as Record<string, unknown>);
  // What was not streamed (a whole answer, or a server that sent only the final event).
  if (sink.content === '' && sink.reasoning === '' && !sink.hasToolCalls() && Array.isArray(response.output)) {
    response.output.forEach((item: unknown, slot) => absorbItem(item, slot, sink));
  }
  const incomplete = (response.incomplete_details as { reason?: unknown } | null | undefined)?.reason;
  sink.finishReason =
    response.status === 'incomplete' ? (incomplete === 'max_output_tokens' ? 'length' : 'unknown') : sink.hasToolCalls() ? 'tool_calls' : 'stop';
}

function absorbItem(value: unknown, slot: number, sink: ResponsesSink): void {
  if (typeof value !== 'object' || value === null) return;
  const item = value as Record<string, unknown>;
  const texts = (parts: unknown, kind: string) =>
    (Array.isArray(parts) ? parts : []).flatMap((part: { type?: unknown; text?: unknown }) => (part?.type === kind && typeof part.text === 'string' ? [part.text] : []));
  if (item.type === 'message') {
    for (const text of [...texts(item.content, 'output_text'), ...texts(item.content, 'refusal')]) sink.emit({ type: 'content', text });
  } else if (item.type === 'reasoning') {
    for (const text of texts(item.summary, 'summary_text')) sink.emit({ type: 'reasoning', text });
  } else if (item.type === 'function_call') {
    sink.addToToolCall(slot, { id: item.call_id, name: item.name, arguments: typeof item.arguments === 'string' ? item.arguments : '' });
  }
}

/** The HTTP status a reported error code stands for (codes are numbers on some servers). */
function statusOf(code: unknown): number {
  if (typeof code === 'number' && code >= 400 && code <= 599) return code;
  const text = String(code ?? '');
  if (/rate_limit|quota/.test(text)) return 429;
  if (/invalid|unsupported|not_supported|content_policy/.test(text)) return 400;
  if (/not_found/.test(text)) return 404;
  return 500;
}

/** The Responses API's usage: input and output tokens, with cached and reasoning ones inside. */
export function parseResponsesUsage(raw: Record<string, unknown>): Usage {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const usage: Usage = { promptTokens: count(raw.input_tokens) ?? 0, completionTokens: count(raw.output_tokens) ?? 0 };
  const cached = count((raw.input_tokens_details as Record<string, unknown> | undefined)?.cached_tokens);
  const reasoning = count((raw.output_tokens_details as Record<string, unknown> | undefined)?.reasoning_tokens);
  if (cached !== undefined) usage.cachedPromptTokens = cached;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  const cost = count(raw.cost);
  if (cost !== undefined) usage.costUsd = cost;
  return usage;
}
