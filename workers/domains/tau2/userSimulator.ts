// τ²'s user simulator (tau2/user/user_simulator.py, user/base.py), for any ChatModel: its system
// prompt (τ²'s simulation guidelines, verbatim, then the task's scenario), the conversation seen
// from the user's side (roles flipped: the agent speaks as "user", the simulated user's own turns
// are "assistant"), and the model's reply read back as the user's next turn. Whether the turn
// ends the conversation is conversation.ts's `isUserStop`. The guidelines are τ²-Bench's (MIT,
// Sierra Research): simulation_guidelines*.md beside this file. Pure TypeScript.

import { MAX_REPLY_NESTING, MAX_USER_TURN_CALLS, MAX_USER_TURN_CHARS } from '../../engine/callLimits.ts';
import { formatCount } from '../../engine/format.ts';
import { nestingPast } from '../../engine/jsonDepth.ts';
import type { ChatCompletion, ChatMessage, ToolCallRequest, ToolSchema } from '../../engine/types.ts';
import type { Reply } from './conversation.ts';
import type { Tau2Message, Tau2ToolCall } from './messages.ts';
import { parsePyJson } from './pyJson.ts';
import { scenarioText, type Tau2Task } from './tasks.ts';

/** τ²'s SYSTEM_PROMPT template, after its `.strip()`. */
export function userSystemPrompt(guidelines: string, task: Tau2Task): string {
  return `${guidelines}\n\n<scenario>\n${scenarioText(task.userScenario)}\n</scenario>`;
}

/** `UserState.flip_roles`: the user's history as the user model reads it. */
export function flipRoles(userHistory: readonly Tau2Message[]): ChatMessage[] {
  const names = new Map<string, string>();
  const out: ChatMessage[] = [];
  for (const message of userHistory) {
    if (message.role === 'user') {
      for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
      out.push({
        role: 'assistant',
        content: message.content ?? '',
        ...(message.toolCalls ? { toolCalls: message.toolCalls.map((c): ToolCallRequest => ({ id: c.id, name: c.name, arguments: Object.fromEntries([...c.arguments].map(([k, v]) => [k, plain(v)])) })) } : {}),
      });
    } else if (message.role === 'assistant') {
      if (message.toolCalls !== null) throw new Error('the agent\'s tool calls never reach the user');
      out.push({ role: 'user', content: message.content ?? '' });
    } else if (message.role === 'tool') {
      if (message.requestor !== 'user') throw new Error("the agent's tool results never reach the user");
      out.push({ role: 'tool', toolCallId: message.id, name: names.get(message.id) ?? '', content: message.content ?? '' });
    }
  }
  return out;
}

function plain(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object' && 'value' in value) return (value as { value: number }).value;
  return value;
}

/** The user model's request: the system prompt, then the flipped history; the user's tools when
 * the domain gives the user any (telecom), whose guidelines then are the "tools" version. */
export function userRequest(system: string, userHistory: readonly Tau2Message[], tools: readonly ToolSchema[] | null): { messages: ChatMessage[]; tools?: ToolSchema[] } {
  return { messages: [{ role: 'system', content: system }, ...flipRoles(userHistory)], ...(tools && tools.length > 0 ? { tools: [...tools] } : {}) };
}

/** Why a user model's turn cannot be taken (callLimits.ts: MAX_USER_TURN_CALLS and _CHARS), or null. */
function oversizedTurn(completion: ChatCompletion): string | null {
  const calls = completion.toolCalls?.length ?? 0;
  if (calls > MAX_USER_TURN_CALLS) return `its turn makes ${formatCount(calls)} tool calls; a user's turn may make ${formatCount(MAX_USER_TURN_CALLS)}`;
  const chars = completion.content.length + (completion.toolCalls ?? []).reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  if (chars > MAX_USER_TURN_CHARS) return `its turn is ${formatCount(chars)} characters long; a user's turn may be ${formatCount(MAX_USER_TURN_CHARS)}`;
  return null;
}

/** The user model's completion as the user's turn: its text, or its tool calls (arguments read
 * with Python's number types). Calls whose arguments are not a JSON object, or nest deeper than
 * a reply may, are refused, and so is a turn past MAX_USER_TURN_CALLS or MAX_USER_TURN_CHARS. */
export function readUserReply(completion: ChatCompletion, newId: () => string): Reply {
  const oversized = oversizedTurn(completion);
  if (oversized) throw new Error(oversized);
  const calls = completion.toolCalls ?? [];
  const toolCalls: Tau2ToolCall[] = calls.map((call) => {
    if (nestingPast(call.arguments, MAX_REPLY_NESTING) !== -1) {
      throw new Error(`the user model called ${call.name} with arguments nested more than ${MAX_REPLY_NESTING} levels deep`);
    }
    let args;
    try {
      args = parsePyJson(call.arguments || '{}');
    } catch (error) {
      throw new Error(`the user model called ${call.name} with arguments that are not JSON: ${(error as Error).message}`, { cause: error });
    }
    if (!(args instanceof Map)) throw new Error(`the user model called ${call.name} with arguments that are not a JSON object`);
    return { id: call.id || newId(), name: call.name, arguments: args, requestor: 'user' };
  });
  return { content: completion.content === '' && toolCalls.length > 0 ? null : completion.content, toolCalls: toolCalls.length > 0 ? toolCalls : null };
}


