// A τ² conversation as τ² records it (tau2/data_model/message.py): the agent's and the user's
// messages, their tool calls (each with its requestor) and the tool messages that answer them.
// Grading reads these. Pure TypeScript.

import type { PyValue } from './pyValues.ts';

export type Requestor = 'assistant' | 'user';

export interface Tau2ToolCall {
  id: string;
  name: string;
  /** The arguments as Python values (parsed with parsePyJson, so `2.0` stays a float). */
  arguments: Map<string, PyValue>;
  requestor: Requestor;
}

export type Tau2Message =
  | { role: 'system'; content: string | null }
  | { role: 'assistant' | 'user'; content: string | null; toolCalls: Tau2ToolCall[] | null }
  | { role: 'tool'; id: string; content: string | null; requestor: Requestor; error: boolean };

export type ParticipantMessage = Extract<Tau2Message, { role: 'assistant' | 'user' }>;
export type ToolMessage = Extract<Tau2Message, { role: 'tool' }>;

/** `has_text_content`: content that is not empty once stripped. */
export function hasTextContent(message: ParticipantMessage): boolean {
  return message.content !== null && message.content.trim() !== '';
}

/** `is_tool_call`: tool_calls is not None (an empty list counts). */
export function isToolCall(message: Tau2Message): message is ParticipantMessage & { toolCalls: Tau2ToolCall[] } {
  return (message.role === 'assistant' || message.role === 'user') && message.toolCalls !== null;
}

/** Every tool call of the conversation, the agent's and the user's, in order. */
export function toolCallsOf(messages: readonly Tau2Message[]): Tau2ToolCall[] {
  return messages.flatMap((m) => (isToolCall(m) ? m.toolCalls : []));
}
