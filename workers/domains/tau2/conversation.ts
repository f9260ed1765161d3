// A τ² conversation's state, step by step, as τ²'s Orchestrator runs it
// (tau2/orchestrator/orchestrator.py): the agent opens with "Hi! How can I help you today?"; each
// step delivers one message (agent → user, user → agent, agent or user → environment, environment
// → whoever called); after every step the environment syncs; the user ends the conversation with
// ###STOP###, ###TRANSFER### or ###OUT-OF-SCOPE###, the agent with ###STOP###; 200 steps end it as
// max_steps. Who produces the messages is not this module's business: the host asks
// `next()`, gets a reply from the agent or the user (a model, a person, a script) and hands it in.
// Pure TypeScript.

import type { TerminationReason } from './evaluate.ts';
import type { Tau2Environment } from './environment.ts';
import type { ParticipantMessage, Tau2Message, Tau2ToolCall, ToolMessage } from './messages.ts';
import type { Tau2Task } from './tasks.ts';

export const FIRST_AGENT_MESSAGE = 'Hi! How can I help you today?';
export const USER_STOP_SIGNALS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;
export const AGENT_STOP_TOKEN = '###STOP###';

/** τ²'s limits as the reference ran them: `--max-steps 200` (ToolOrchestra's run.py; τ²'s own
 * default too) and 10 errors (τ²'s default; the vendored orchestrator never counts errors, so
 * there it never triggers; here each tool message that is an error counts). */
export const TAU2_LIMITS = { maxSteps: 200, maxErrors: 10 } as const;

export interface Reply {
  content: string | null;
  toolCalls: Tau2ToolCall[] | null;
}

export class ConversationError extends Error {
  override name = 'ConversationError';
}

export type Turn = 'agent' | 'user' | 'environment' | 'done';

/** `UserSimulator.is_stop`: a text message holding one of the stop signals. */
export function isUserStop(reply: Reply): boolean {
  return reply.toolCalls === null && reply.content !== null && USER_STOP_SIGNALS.some((s) => reply.content!.includes(s));
}

export class Tau2Conversation {
  readonly messages: Tau2Message[] = [];
  steps = 0;
  errors = 0;
  termination: TerminationReason | null = null;
  #turn: Turn = 'user';
  /** Who asked for the pending tool calls, and so gets their results. */
  #caller: 'agent' | 'user' = 'agent';

  constructor(
    readonly task: Tau2Task,
    readonly environment: Tau2Environment,
    readonly limits: { maxSteps: number; maxErrors: number } = TAU2_LIMITS,
  ) {
    const initial = task.initialState;
    environment.setState(initial?.initializationData ?? null, initial?.initializationActions ?? null, []);
    this.messages.push({ role: 'assistant', content: FIRST_AGENT_MESSAGE, toolCalls: null });
    environment.sync();
  }

  /** Whose move it is. */
  next(): Turn {
    return this.termination ? 'done' : this.#turn;
  }

  /** The messages the user has seen and said (τ²'s is_valid_user_history_message). */
  userHistory(): Tau2Message[] {
    return this.messages.filter((m) => m.role === 'user' || (m.role === 'assistant' && m.toolCalls === null) || (m.role === 'tool' && m.requestor === 'user'));
  }

  /** The agent's own history: everything but the user's tool calls and their results. */
  agentHistory(): Tau2Message[] {
    return this.messages.filter((m) => !(m.role === 'user' && m.toolCalls !== null) && !(m.role === 'tool' && m.requestor === 'user'));
  }

  #expect(turn: Turn): void {
    if (this.next() !== turn) throw new ConversationError(`it is the ${this.next()}'s move, not the ${turn}'s`);
  }

  #validate(reply: Reply, who: string): void {
    const hasText = reply.content !== null && reply.content.trim() !== '';
    if (!hasText && reply.toolCalls === null) throw new ConversationError(`the ${who}'s reply has neither text nor tool calls`);
  }

  #endStep(): void {
    this.steps += 1;
    this.environment.sync();
    // As in τ²'s run loop, the limits are checked after every step and win over a stop signal
    // given on the last allowed step.
    if (this.steps >= this.limits.maxSteps) this.termination = 'max_steps';
    if (this.errors >= this.limits.maxErrors) this.termination = 'too_many_errors';
  }

  /** The user's message (to the agent, or tool calls on their phone). */
  userReplied(reply: Reply): ParticipantMessage {
    this.#expect('user');
    this.#validate(reply, 'user');
    const message: ParticipantMessage = { role: 'user', content: reply.content, toolCalls: reply.toolCalls?.map((c) => ({ ...c, requestor: 'user' })) ?? null };
    if (isUserStop(reply)) this.termination = 'user_stop';
    this.messages.push(message);
    this.#caller = 'user';
    this.#turn = message.toolCalls !== null ? 'environment' : 'agent';
    this.#endStep();
    return message;
  }

  /** The agent's message (to the user, or tool calls). */
  agentReplied(reply: Reply): ParticipantMessage {
    this.#expect('agent');
    this.#validate(reply, 'agent');
    const message: ParticipantMessage = { role: 'assistant', content: reply.content, toolCalls: reply.toolCalls?.map((c) => ({ ...c, requestor: 'assistant' })) ?? null };
    if (reply.content !== null && reply.content.includes(AGENT_STOP_TOKEN)) this.termination = 'agent_stop';
    this.messages.push(message);
    this.#caller = 'agent';
    this.#turn = message.toolCalls !== null ? 'environment' : 'user';
    this.#endStep();
    return message;
  }

  /** Runs the pending tool calls, in order, and hands their results to whoever asked. `respond`
   * answers one call in the environment (by default `get_response`; a rollout also notes the rows
   * each call changed: rowChanges.ts). */
  runTools(respond: (call: Tau2ToolCall) => ToolMessage = (call) => this.environment.getResponse(call)): Tau2Message[] {
    this.#expect('environment');
    const last = this.messages.at(-1);
    if (!last || (last.role !== 'assistant' && last.role !== 'user') || last.toolCalls === null) throw new ConversationError('no tool calls are pending');
    const results = last.toolCalls.map(respond);
    this.errors += results.filter((r) => r.error).length;
    this.messages.push(...results);
    this.#turn = this.#caller;
    this.#endStep();
    return results;
  }
}
