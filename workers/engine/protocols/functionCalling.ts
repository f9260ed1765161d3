// The function-calling protocol (tau2-Bench style): a real multi-turn conversation over arbitrary
// tools, laid out as the reference's tau2 harness lays it out for Orchestrator-8B
// (NVlabs/ToolOrchestra evaluation/tau2-bench/tau2/utils/llm_utils.py at upstream commit d882ee7:
// to_litellm_messages, to_responses_api_messages, generate, extra_tool). The history only grows at the end; each orchestrator
// turn is stored as tau2 stores it (its message without the reasoning, its calls as structured
// calls); `call_expert` hands the turn to a stronger model, whose reply then stands as the turn.
// Independent calls of one turn run concurrently; a bad call becomes an error observation.

import { needsUserAction, toErrorInfo } from '../errors.ts';
import { CALL_EXPERT_TOOL } from '../config.ts';
import type { ParsedCall } from '../events.ts';
import { cutText, formatSeconds } from '../format.ts';
import {
  type OrchestratorOutput,
  type Protocol,
  type ProtocolSession,
  type RecordedSteps,
  type TurnContext,
  type TurnOutcome,
} from '../protocol.ts';
import { pythonStrip } from '../pythonStrings.ts';
import { toPromptMessages, wrapToolResponse } from '../qwen3/render.ts';
import { isStop, withToolCall } from '../toolStep.ts';
import { MAX_TOOL_RESULT_CHARS } from '../truncate.ts';
import type { ConversationPartner } from '../ports.ts';
import type { ChatMessage, ChatModel, Tool, ToolCallRequest, ToolSchema } from '../types.ts';
import { validateArguments } from '../validateArguments.ts';
import { describeAliases, type AliasDescription } from './paper.ts';

export interface FunctionCallingExpert extends AliasDescription {
  model: ChatModel;
  temperature?: number;
  maxTokens?: number;
}

export interface FunctionCallingOptions {
  /** The domain policy. */
  system: string;
  tools: Tool[];
  experts: FunctionCallingExpert[];
  /** A tool that takes longer is stopped and reported as timed out. */
  toolTimeoutMs: number;
  /** The conversation's user (τ²'s simulated user): the run opens with it instead of the task,
   * and a message to the user goes to it instead of ending the run. */
  partner?: ConversationPartner;
}

/** What the reference appends to the policy in the orchestrator's system turn (to_litellm_messages;
 * the training copy, training/rollout/tau2, omits the first sentence). Two spaces lead it. */
export const SYSTEM_SUFFIX =
  '  You are dedicated to provide the best service. Wrap thinking process between <think> </think>, message between <message> </message> and the tool call between <tool_call> </tool_call> .';
/** tau2 keeps at most this many calls of a turn (`if len(tool_calls)>5: break` after appending). */
export const MAX_CALLS_PER_TURN = 6;

/** The reference's `call_expert` tool (llm_utils.py, `extra_tool`), generated from the aliases. */
export function buildCallExpertTool(experts: readonly AliasDescription[]): ToolSchema {
  const { choices, sentences, table } = describeAliases(experts);
  return {
    name: CALL_EXPERT_TOOL,
    description: 'Call the expert such that the user request can be better solved compared to existing functions',
    parameters: {
      properties: {
        expert: {
          description: `The expert. Choices: ${choices}. ${sentences} The table below shows the pricing and latency of each model:\n${table}`,
          title: 'Expression',
          type: 'string',
        },
      },
      required: ['expert'],
      title: 'parameters',
      type: 'object',
    },
  };
}

/** What tau2 keeps of the orchestrator's reply as the turn's content (generate): the text after
 * the reasoning, stripped; the inside of the last `<message>` when there is one. Calls written as
 * text are cut off first, as vLLM's hermes parser leaves only the text before the first call. */
export function orchestratorTurnContent(raw: string, hasTextCalls: boolean): string {
  const beforeCalls = hasTextCalls && raw.includes('<tool_call>') ? raw.slice(0, raw.indexOf('<tool_call>')) : raw;
  const content = pythonStrip(beforeCalls.split('</think>').pop()!);
  if (content.length > 5 && content.includes('<message>') && content.includes('</message>')) {
    return content.split('<message>').pop()!.split('</message>')[0]!;
  }
  return content;
}

/** How the reference asks an expert to take a turn (generate): a Qwen-family expert reads the
 * orchestrator's own conversation, system suffix included; a GPT-5-family expert the conversation
 * as tau2 keeps it, the policy alone as its system turn, through OpenAI's Responses API with high
 * reasoning effort (to_responses_api_messages); any other model, which the reference does not
 * call, the policy alone through Chat Completions. */
export function expertRequest(
  history: readonly ChatMessage[],
  policy: string,
  expertModel: string,
): { messages: ChatMessage[]; api?: 'responses'; reasoningEffort?: 'high' } {
  const model = expertModel.toLowerCase();
  if (['qwen', 'train', 'huggingface'].some((part) => model.includes(part))) return { messages: [...history] };
  const messages = history.map((message, index): ChatMessage => (index === 0 && message.role === 'system' ? { role: 'system', content: policy } : message));
  return model.includes('gpt-5') ? { messages, api: 'responses', reasoningEffort: 'high' } : { messages };
}

/** Races a tool against a deadline and the run; the tool's own signal aborts on either. */
async function runWithDeadline<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, context: TurnContext): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onStop = () => controller.abort();
  context.signal.addEventListener('abort', onStop, { once: true });
  try {
    return await context.race(
      Promise.race([
        work(controller.signal),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            // Settle first, so the tool's own reaction to the abort cannot win the race.
            reject(new Error(`timed out after ${formatSeconds(timeoutMs)} and was stopped`));
            controller.abort();
          }, timeoutMs);
        }),
      ]),
    );
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', onStop);
  }
}

interface CallResult {
  content: string;
  ok: boolean;
  /** The call itself was wrong (unknown tool or expert, bad arguments), not merely unsuccessful. */
  invalid?: boolean;
}

/** Waits for every call to report its result, then rethrows the first stop or fatal error. */
async function settleAll<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

export function createFunctionCallingProtocol(options: FunctionCallingOptions): Protocol {
  const domainSchemas: ToolSchema[] = options.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const menu = {
    toolsByName: new Map(options.tools.map((tool) => [tool.name, tool])),
    domainSchemas,
    domainNames: domainSchemas.map((t) => t.name),
    offered: options.experts.length > 0 ? [...domainSchemas, buildCallExpertTool(options.experts)] : domainSchemas,
  };
  const system = options.system + SYSTEM_SUFFIX;
  return {
    name: 'function-calling',
    start: (task: string, instruction: string | null): ProtocolSession => new Conversation(options, menu, system, task, instruction),
  };
}

/** The tools of a function-calling run, as the orchestrator is offered them. */
interface Menu {
  toolsByName: ReadonlyMap<string, Tool>;
  /** The domain's tools, without call_expert. */
  domainSchemas: ToolSchema[];
  domainNames: string[];
  /** What the orchestrator is offered: the domain's tools and, with experts, call_expert. */
  offered: ToolSchema[];
}

type Turn = { content: string; calls: ParsedCall[] };

/** One task under the function-calling protocol: the conversation, which only grows at the end. */
class Conversation implements ProtocolSession {
  readonly name = 'function-calling';
  private readonly history: ChatMessage[];
  private readonly partner: ConversationPartner | undefined;
  private opened = false;

  constructor(
    private readonly options: FunctionCallingOptions,
    private readonly menu: Menu,
    system: string,
    task: string,
    instruction: string | null,
  ) {
    this.partner = options.partner;
    // With a partner the conversation opens with what it says, as the reference's does (the
    // agent's greeting, the user's first message); the task is the scenario it plays.
    this.history = this.partner
      ? [{ role: 'system', content: system }]
      : [
          { role: 'system', content: system },
          { role: 'user', content: instruction ? `${task}\n\n${instruction}` : task },
        ];
  }

  tools(): ToolSchema[] {
    return this.menu.offered;
  }

  messages(): ChatMessage[] {
    return this.history;
  }

  async beforeTurn(context: TurnContext): Promise<TurnOutcome | null> {
    if (!this.partner || this.opened) return null;
    this.opened = true;
    const reply = await this.partner.open(context);
    if (reply.kind === 'end') return { kind: 'done', stopReason: 'final_message', answer: '' };
    this.history.push(...reply.messages);
    return null;
  }

  // A fork's kept steps: the conversation as the orchestrator was sent it on the step after
  // them (the parent recorded that request), after this run's own system prompt and task
  // (which carry the new preference).
  restore({ throughStep, nextRequest }: RecordedSteps): void {
    if (!nextRequest) {
      throw new Error(`the recording has no orchestrator request after step ${throughStep}, so the conversation there is not known: fork from an earlier step`);
    }
    // Rendered into the prompt, tool results became user turns: the conversation cannot be
    // read back from that form.
    if (nextRequest.toolMode !== 'server') {
      throw new Error('its orchestrator had the tools rendered into its prompt (toolMode "prompt"), from which the conversation cannot be read back; a function-calling run can be forked when its tools went to the server');
    }
    this.history.push(...nextRequest.messages.slice(this.history.length));
  }

  async handleOutput(output: OrchestratorOutput, context: TurnContext): Promise<TurnOutcome> {
    const content = orchestratorTurnContent(output.completion.content, output.calls.some((c) => c.origin !== 'server'));
    if (output.calls.length === 0) return this.turnWithoutCalls(output, content, context);

    context.assertBudget();
    // As in the reference, a call_expert naming a known expert (the last one, if several)
    // hands the whole turn over; the orchestrator's other calls do not run.
    const { experts } = this.options;
    const expertCall = output.calls.findLast((call) => call.name === CALL_EXPERT_TOOL && experts.some((e) => e.alias === call.arguments.expert));
    const calls = output.calls.slice(0, MAX_CALLS_PER_TURN);
    if (expertCall) {
      const expert = experts.find((e) => e.alias === expertCall.arguments.expert)!;
      return this.runExpertTurn(expertCall, expert, { content, calls }, context);
    }

    const offered = this.menu.offered.map((t) => t.name);
    this.callsToPartner(content, calls);
    const results = await this.runTurnCalls({ content, calls }, (call) =>
      call.name === CALL_EXPERT_TOOL ? this.unknownExpert(call, context, offered) : this.runDomainCall(call, context, offered),
    );
    const rejections = rejectionNotes(output);
    if (rejections.length > 0) this.history.push({ role: 'user', content: rejections.join('\n') });
    return this.endedAfterCalls(content) ?? afterCalls(results);
  }

  /** A turn with no valid call: a message to the user, or a reply the orchestrator must correct. */
  private turnWithoutCalls(output: OrchestratorOutput, content: string, context: TurnContext): Promise<TurnOutcome> | TurnOutcome {
    if (output.rejected.length === 0 && content) {
      this.history.push({ role: 'assistant', content });
      return this.toUser(content, pythonStrip(content), context);
    }
    const reason = output.rejected.map((r) => r.reason).join('; ') || 'the reply had neither a message nor a tool call';
    this.history.push({ role: 'assistant', content });
    this.history.push({
      role: 'user',
      content: rejectionNotes(output).join('\n') || wrapToolResponse(`Error: ${reason}. Reply with a <message> to the user or a valid <tool_call>.`),
    });
    return { kind: 'continue', validCall: false, invalidReason: reason };
  }

  /** The agent's message to the user: with a partner, its reply goes on the conversation. */
  private async toUser(message: string, answer: string, context: TurnContext): Promise<TurnOutcome> {
    if (!this.partner) return { kind: 'done', stopReason: 'final_message', answer };
    const reply = await this.partner.answer(message, context);
    if (reply.kind === 'end') return { kind: 'done', stopReason: 'final_message', answer };
    this.history.push(...reply.messages);
    return { kind: 'continue', validCall: true };
  }

  /** Tells the partner of a turn's domain calls before they run. */
  private callsToPartner(content: string, calls: readonly ParsedCall[]): void {
    const domainCalls = calls.filter((c) => c.name !== CALL_EXPERT_TOOL);
    if (this.partner && domainCalls.length > 0) this.partner.agentCalls(content, domainCalls);
  }

  /** A conversation that ended on its own after the calls (τ²'s step or error limit). */
  private endedAfterCalls(content: string): TurnOutcome | null {
    return this.partner?.ended() ? { kind: 'done', stopReason: 'final_message', answer: pythonStrip(content) } : null;
  }

  /** Runs one domain tool call, reporting it as events, and returns what the model will see. */
  private runDomainCall(call: ParsedCall, context: TurnContext, offered: string[], parentCallId?: string): Promise<CallResult> {
    return withToolCall(context, { callId: call.id, name: call.name, arguments: call.arguments, offered, parentCallId }, async (report) => {
      const tool = this.menu.toolsByName.get(call.name);
      if (!tool) {
        return report({ ok: false, invalid: true, content: `Error: there is no tool named "${call.name}". Available: ${offered.join(', ')}.` });
      }
      const problems = tool.checksOwnArguments ? [] : validateArguments(call.arguments, tool.parameters);
      if (problems.length > 0) {
        return report({ ok: false, invalid: true, content: `Error: invalid arguments for ${call.name}: ${problems.join('; ')}.` });
      }
      const started = performance.now();
      try {
        const output = await runWithDeadline(
          (signal) => tool.run(call.arguments, { signal, call: { id: call.id, origin: call.origin, ...(call.raw === undefined ? {} : { raw: call.raw }) } }),
          this.options.toolTimeoutMs,
          context,
        );
        context.chargeTool({
          callId: call.id,
          tool: call.name,
          usd: output.costUsd,
          basis: output.costBasis,
          latencyMs: performance.now() - started,
          startup: output.startup,
        });
        return report({ ok: !output.isError, content: output.content, detail: output.detail });
      } catch (error) {
        if (isStop(error, context)) throw error;
        const message = error instanceof Error ? error.message : String(error);
        return report({ ok: false, content: `Error: ${call.name} failed: ${message}`, error: message });
      }
    });
  }

  /** Runs a turn's calls concurrently and appends the turn and its results to the history. */
  private async runTurnCalls(turn: Turn, run: (call: ParsedCall) => Promise<CallResult>): Promise<CallResult[]> {
    this.history.push({ role: 'assistant', content: turn.content, toolCalls: turn.calls.map(asRequest) });
    const results = await settleAll(turn.calls.map(run));
    turn.calls.forEach((call, i) => this.history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: results[i]?.content ?? '' }));
    return results;
  }

  /**
   * Hands the turn to an expert, as the reference does: the expert reads the conversation so far
   * (not this turn), and its reply stands as the turn: its calls run and its message ends the
   * run. The orchestrator's own turn, call_expert included, is not kept.
   */
  private runExpertTurn(call: ParsedCall, expert: FunctionCallingExpert, fallback: Turn, context: TurnContext): Promise<TurnOutcome> {
    const offered = this.menu.offered.map((t) => t.name);
    const record = { callId: call.id, name: call.name, arguments: call.arguments, alias: expert.alias, model: expert.model.model, offered };
    return withToolCall(context, record, async (report): Promise<TurnOutcome> => {
      /** An expert that failed: the orchestrator's own turn stays, with the failure as the result. */
      const failed = (content: string): TurnOutcome => {
        const reported = report({ ok: false, content });
        this.history.push({ role: 'assistant', content: fallback.content, toolCalls: [asRequest(call)] });
        this.history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: reported.content });
        return { kind: 'continue', validCall: true };
      };
      let reply: OrchestratorOutput;
      try {
        reply = await this.askExpert(call, expert, context);
      } catch (error) {
        if (isStop(error, context)) throw error;
        const outcome = failed(`Error: ${expert.alias} failed: ${toErrorInfo(error).message}`);
        if (needsUserAction(error)) throw error;
        return outcome;
      }
      const calls = reply.calls.filter((c) => c.name !== CALL_EXPERT_TOOL).slice(0, MAX_CALLS_PER_TURN);
      const content = expertTurnContent(reply, calls);
      if (calls.length === 0) {
        if (reply.message && reply.rejected.length === 0) {
          report({ ok: true, content: `${expert.alias} replied: ${reply.message}` });
          this.history.push({ role: 'assistant', content });
          return this.toUser(content, cutText(reply.message, MAX_TOOL_RESULT_CHARS), context);
        }
        const why = reply.rejected.map((r) => r.reason).join('; ') || 'an empty reply';
        return failed(`Error: ${expert.alias} replied with neither a message nor a valid call (${why}).`);
      }
      // A stop or fatal error among the expert's calls ends the turn; withToolCall reports it.
      this.callsToPartner(content, calls);
      const outcomes = await this.runTurnCalls({ content, calls }, (c) => this.runDomainCall(c, context, this.menu.domainNames, call.id));
      const lines = calls.map((c, i) => `${c.name}(${JSON.stringify(c.arguments)}) -> ${outcomes[i]?.content ?? ''}`);
      report({
        ok: true,
        content: [`${expert.alias} called:`, ...lines, reply.message ? `${expert.alias} said: ${reply.message}` : ''].filter(Boolean).join('\n'),
      });
      return this.endedAfterCalls(content) ?? afterCalls(outcomes);
    });
  }

  /** Asks the expert to take the turn, with the conversation as the reference lays it out for it. */
  private async askExpert(call: ParsedCall, expert: FunctionCallingExpert, context: TurnContext): Promise<OrchestratorOutput> {
    const { domainSchemas } = this.menu;
    const { messages, ...how } = expertRequest(this.history, this.options.system, expert.model.model);
    const serverTools = expert.model.supportsServerTools;
    const completion = await context.callModel({
      callId: call.id,
      kind: 'expert',
      alias: expert.alias,
      model: expert.model,
      request: {
        messages: serverTools ? messages : toPromptMessages(messages, domainSchemas),
        tools: serverTools && domainSchemas.length > 0 ? domainSchemas : undefined,
        temperature: expert.temperature,
        maxTokens: expert.maxTokens,
        ...how,
      },
    });
    return context.interpret(completion);
  }

  /** A call_expert naming no configured expert: an error the orchestrator can correct. */
  private unknownExpert(call: ParsedCall, context: TurnContext, offered: string[]): Promise<CallResult> {
    return withToolCall(context, { callId: call.id, name: call.name, arguments: call.arguments, offered }, async (report) =>
      report({
        ok: false,
        invalid: true,
        content: `Error: "expert" must be one of ${this.options.experts.map((e) => e.alias).join(', ')}; got ${JSON.stringify(call.arguments.expert ?? null)}.`,
      }),
    );
  }
}

/** The orchestrator's rejected calls, as the notes it is sent back. */
function rejectionNotes(output: OrchestratorOutput): string[] {
  return output.rejected.map((r) => wrapToolResponse(`Error: ${r.reason}. Send the call again as valid JSON.`));
}

/** A turn whose calls ran: valid when one of them was. */
function afterCalls(results: readonly CallResult[]): TurnOutcome {
  return results.some((r) => !r.invalid)
    ? { kind: 'continue', validCall: true }
    : { kind: 'continue', validCall: false, invalidReason: results.map((r) => r.content).join('; ') };
}

/** The expert's text stands as it wrote it (the reference keeps it whole), less any calls written
 * as text, which become structured calls as a server's parser would make them; and cut, with a
 * note, past MAX_TOOL_RESULT_CHARS, like any answer (docs/protocol.md). */
function expertTurnContent(reply: OrchestratorOutput, calls: readonly ParsedCall[]): string {
  const raw = reply.completion.content;
  return cutText(calls.some((c) => c.origin !== 'server') && raw.includes('<tool_call>') ? raw.slice(0, raw.indexOf('<tool_call>')) : raw, MAX_TOOL_RESULT_CHARS);
}

function asRequest(call: ParsedCall): ToolCallRequest {
  return { id: call.id, name: call.name, arguments: call.arguments };
}
