// One τ² rollout as the engine runs it: the conversation partner of the function-calling
// protocol (engine/ports.ts ConversationPartner) over a Tau2Conversation. The agent is the
// engine's orchestrator; the user is a model playing the task's scenario with τ²'s guidelines
// (userSimulator.ts) or the scripted user (scripted.ts); the agent's tool calls run in the
// rollout's own environment, recorded as τ² records them (their raw argument text read with
// Python's types), so that evaluate.ts grades the conversation τ²'s way; each call's result
// carries the rows it changed for the trace, as a Task-tab run's do (rowChanges.ts). Pure
// TypeScript.

import type { ParsedCall } from '../../engine/events.ts';
import type { ConversationPartner, PartnerReply } from '../../engine/ports.ts';
import { lookupPrice, priceUsage, type PricingTable } from '../../engine/pricing.ts';
import { RunStop, type TurnContext } from '../../engine/protocol.ts';
import type { ChatCompletion, ChatModel, Tool } from '../../engine/types.ts';
import { FIRST_AGENT_MESSAGE, Tau2Conversation, TAU2_LIMITS, type Reply } from './conversation.ts';
import type { LoadedTau2Domain } from './domains.ts';
import { evaluateConversation, type Tau2Verdict, type TerminationReason } from './evaluate.ts';
import type { Tau2Message, Tau2ToolCall, ToolMessage } from './messages.ts';
import { fromPlainJson, parsePyJson, toPlainJson } from './pyJson.ts';
import type { PyValue } from './pyValues.ts';
import { RolloutClock } from './rolloutClock.ts';
import { respondWithChanges } from './rowChanges.ts';
import { ASK_USER_PREFIX, ScriptedUser } from './scripted.ts';
import { TAU2_SUITES } from './suiteNames.ts';
import type { Tau2Task } from './tasks.ts';
import type { DomainToolDetail } from '../environment.ts';
import { readUserReply, userRequest, userSystemPrompt } from './userSimulator.ts';

/** Who plays the user: a model (any ChatModel), or the scripted user of tests and the demo. */
export type Tau2UserSide = { kind: 'model'; model: ChatModel; temperature?: number } | { kind: 'scripted' };

export interface Tau2RolloutOptions {
  domain: LoadedTau2Domain;
  task: Tau2Task;
  user: Tau2UserSide;
  /** τ²'s user simulator guidelines (plain, and with tools for a user who has tools). */
  guidelines: { plain: string; tools: string };
  /** The prices the run pays, for each user turn's cost figure. */
  pricing: PricingTable;
  limits?: { maxSteps: number; maxErrors: number };
}

/** The simulated user failed: its model errored or answered what cannot be a user's turn. The
 * rollout ends as an error (not a wrong answer), and runs again when the evaluation resumes. */
export class Tau2UserError extends Error {
  override name = 'Tau2UserError';
}

/** The agent-side call as τ² records it: the arguments read from the text the model wrote. */
export function tau2CallOf(call: ParsedCall): Tau2ToolCall {
  return { id: call.id, name: call.name, arguments: argumentsOf(call), requestor: 'assistant' };
}

function argumentsOf(call: ParsedCall): Map<string, PyValue> {
  if (call.raw !== undefined) {
    try {
      let value = parsePyJson(call.raw);
      if (call.origin !== 'server' && value instanceof Map) value = value.get('arguments') ?? null;
      if (typeof value === 'string') value = parsePyJson(value);
      if (value instanceof Map) return value;
    } catch {
      // The engine read the call, so its parsed arguments stand (ints and floats then not told apart).
    }
  }
  const plain = fromPlainJson(call.arguments);
  return plain instanceof Map ? plain : new Map();
}

const toolMessages = (messages: readonly Tau2Message[]): ToolMessage[] => messages.filter((m): m is ToolMessage => m.role === 'tool');

export class Tau2Rollout implements ConversationPartner {
  readonly conversation: Tau2Conversation;
  /** The agent's tools: each answers with what the environment recorded for its call. */
  readonly tools: Tool[];
  readonly #options: Tau2RolloutOptions;
  /** Each agent call's result, and what the trace shows of it, by call id. */
  readonly #results = new Map<string, { message: ToolMessage; detail: DomainToolDetail }>();
  readonly #scripted: ScriptedUser | null;
  readonly #system: string;
  /** The times the live environment handed out, replayed to the grading's (rolloutClock.ts). */
  readonly #clock = new RolloutClock();
  #userTurns = 0;
  #ids = 0;

  constructor(options: Tau2RolloutOptions) {
    this.#options = options;
    const { domain, task } = options;
    this.conversation = new Tau2Conversation(task, domain.newEnvironment(this.#clock.live), options.limits ?? TAU2_LIMITS);
    const userActions = (task.evaluationCriteria?.actions ?? []).filter((a) => a.requestor === 'user');
    this.#scripted = options.user.kind === 'scripted' ? new ScriptedUser(task, userActions) : null;
    this.#system = userSystemPrompt(domain.userTools ? options.guidelines.tools : options.guidelines.plain, task);
    this.tools = domain.agentTools.map((schema) => ({
      ...schema,
      checksOwnArguments: true,
      run: async (_args, context) => {
        const ran = context.call ? this.#results.get(context.call.id) : undefined;
        if (!ran) return { content: 'Error: the conversation ended before this call could run.', isError: true };
        return { content: ran.message.content ?? '', isError: ran.message.error, detail: ran.detail };
      },
    }));
  }

  /** The agent's greeting (τ²'s fixed first message), then the user's first turn. */
  async open(context: TurnContext): Promise<PartnerReply> {
    const reply = await this.#userTurn(context);
    return reply.kind === 'end' ? reply : { kind: 'say', messages: [{ role: 'assistant', content: FIRST_AGENT_MESSAGE }, ...reply.messages] };
  }

  async answer(message: string, context: TurnContext): Promise<PartnerReply> {
    this.conversation.agentReplied({ content: message, toolCalls: null });
    if (this.conversation.termination) return { kind: 'end', reason: this.conversation.termination };
    return this.#userTurn(context);
  }

  agentCalls(content: string, calls: readonly ParsedCall[]): void {
    if (this.conversation.next() !== 'agent') return;
    this.conversation.agentReplied({ content: content.trim() === '' ? null : content, toolCalls: calls.map(tau2CallOf) });
    if (this.conversation.next() !== 'environment') return;
    // The domain named as the Task tab names it (its suite's name).
    const domain = TAU2_SUITES.find((suite) => suite.domain === this.#options.domain.name)?.name ?? this.#options.domain.name;
    const { environment } = this.conversation;
    this.conversation.runTools((call) => {
      const ran = respondWithChanges(environment, call, domain);
      this.#results.set(call.id, ran);
      return ran.message;
    });
  }

  ended(): string | null {
    return this.conversation.termination;
  }

  /** Grades the conversation as τ² does. A run that ended without the conversation ending (the
   * orchestrator's turn limit, its invalid output) is graded as τ² grades a cut conversation. */
  grade(options: { judge?: ChatModel; signal?: AbortSignal } = {}): Promise<Tau2Verdict> {
    const termination: TerminationReason = this.conversation.termination ?? 'max_steps';
    const messages: Tau2Message[] = this.conversation.messages;
    return evaluateConversation(this.#options.task, messages, termination, {
      newEnvironment: () => this.#options.domain.newEnvironment(this.#clock.replay()),
      ...(options.judge ? { judge: options.judge } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** The user's turn: its phone calls (telecom) and their results until it says something to the
   * agent, each a `user_turn` event; the end when it gives a stop signal or a limit is reached. */
  async #userTurn(context: TurnContext): Promise<PartnerReply> {
    for (;;) {
      if (this.conversation.termination) return { kind: 'end', reason: this.conversation.termination };
      this.#userTurns += 1;
      const { reply, completion } = await this.#userReply(context);
      let message;
      try {
        message = this.conversation.userReplied(reply);
      } catch (error) {
        throw this.#failure(error);
      }
      const results = message.toolCalls ? toolMessages(this.conversation.runTools()) : [];
      this.#emit(context, message.content, message.toolCalls ?? [], results, completion);
      if (message.toolCalls) continue;
      if (this.conversation.termination) return { kind: 'end', reason: this.conversation.termination };
      return { kind: 'say', messages: [{ role: 'user', content: message.content ?? '' }] };
    }
  }

  async #userReply(context: TurnContext): Promise<{ reply: Reply; completion: ChatCompletion | null }> {
    if (this.#scripted) {
      const last = this.conversation.messages.findLast((m) => m.role === 'assistant' && m.toolCalls === null);
      const text = last?.role === 'assistant' ? last.content : null;
      // The scripted user acts on what it is asked, and says goodbye at the agent's first other
      // message after its opening (the golden conversation's closing message).
      const agentDone = this.#userTurns > 1 && text !== null && !text.startsWith(ASK_USER_PREFIX);
      return { reply: this.#scripted.reply(text, agentDone), completion: null };
    }
    const side = this.#options.user as Extract<Tau2UserSide, { kind: 'model' }>;
    const request = userRequest(this.#system, this.conversation.userHistory(), this.#options.domain.userTools);
    try {
      const completion = await context.callModel({
        callId: context.newCallId(),
        kind: 'user',
        model: side.model,
        request: { ...request, ...(side.temperature === undefined ? {} : { temperature: side.temperature }) },
      });
      return { reply: readUserReply(completion, () => `user_call_${++this.#ids}`), completion };
    } catch (error) {
      throw this.#failure(error);
    }
  }

  #failure(error: unknown): unknown {
    if (error instanceof RunStop || (error as { code?: string } | null)?.code === 'aborted') return error;
    const model = this.#options.user.kind === 'model' ? this.#options.user.model.model : 'the scripted user';
    const why = error instanceof Error ? error.message : String(error);
    return new Tau2UserError(`The simulated user (${model}) failed at its turn ${this.#userTurns} of task ${this.#options.task.id}: ${why}`, { cause: error });
  }

  #emit(context: TurnContext, content: string | null, calls: readonly Tau2ToolCall[], results: readonly ToolMessage[], completion: ChatCompletion | null): void {
    const usage = completion?.usage;
    const model = this.#options.user.kind === 'model' ? this.#options.user.model.model : null;
    const price = model === null ? undefined : lookupPrice(this.#options.pricing, model);
    const providerCost = usage?.costUsd;
    const costUsd = model === null ? 0 : providerCost !== undefined && providerCost >= 0 ? providerCost : usage && price ? priceUsage(price, usage) : null;
    context.emit({
      type: 'user_turn',
      step: context.step,
      content,
      toolCalls: calls.map((call, i) => ({
        name: call.name,
        arguments: toPlainJson(call.arguments) as Record<string, unknown>,
        result: results[i]?.content ?? '',
        error: results[i]?.error ?? false,
      })),
      model,
      promptTokens: usage?.promptTokens ?? 0,
      completionTokens: usage?.completionTokens ?? 0,
      costUsd,
    });
  }
}
