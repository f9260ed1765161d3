// The function-calling protocol (tau2-Bench style): a real multi-turn conversation over arbitrary
// tools. The history only ever grows at the end, so an engine that keeps its KV cache (web-llm)
// reuses it turn after turn. Independent calls of one turn run concurrently; a bad call becomes
// an error observation the model can correct; `call_expert` hands the turn to a stronger model.

import { needsUserAction, toErrorInfo } from '../../backends/errors.ts';
import { CALL_EXPERT_TOOL } from '../config.ts';
import type { ParsedCall } from '../events.ts';
import { formatSeconds } from '../format.ts';
import {
  RunStop,
  stoppedMessage,
  type OrchestratorOutput,
  type Protocol,
  type ProtocolSession,
  type TurnContext,
  type TurnOutcome,
} from '../protocol.ts';
import { toPromptMessages, wrapToolResponse } from '../qwen3/render.ts';
import type { ChatMessage, ChatModel, Tool, ToolSchema } from '../types.ts';
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
}

/** The output format Orchestrator-8B uses in this mode, told to the model in our own words. */
export const OUTPUT_FORMAT_INSTRUCTION =
  'Think inside <think></think>. Write any message to the user inside <message></message>. Call tools inside <tool_call></tool_call>.';

export function buildCallExpertTool(experts: readonly AliasDescription[]): ToolSchema {
  const { choices, sentences, table } = describeAliases(experts);
  return {
    name: CALL_EXPERT_TOOL,
    description:
      'Hand this turn to a stronger expert model, which reads the conversation and writes the reply or the tool calls.',
    parameters: {
      properties: {
        expert: {
          description: `The expert to call. Choices: ${choices}. ${sentences} The table below shows the pricing and latency of each model:\n${table}`,
          type: 'string',
        },
      },
      required: ['expert'],
      title: 'parameters',
      type: 'object',
    },
  };
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
  /** A message an expert wrote to the user (ends the run). */
  finalMessage?: string;
}

type ReportedResult = CallResult & { detail?: unknown; error?: string };

/** Emits a call's tool_result (its latency counted from `started`) and returns the result. */
function reportResult(
  context: TurnContext,
  call: ParsedCall,
  started: number,
  result: ReportedResult,
  parentCallId?: string,
): ReportedResult {
  context.emit({
    type: 'tool_result',
    step: context.step,
    callId: call.id,
    name: call.name,
    ok: result.ok,
    content: result.content,
    detail: result.detail,
    error: result.ok ? undefined : (result.error ?? result.content),
    latencyMs: Math.round(performance.now() - started),
    parentCallId,
  });
  return result;
}

/** Waits for every call to report its result, then rethrows the first stop or fatal error. */
async function settleAll<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

export function createFunctionCallingProtocol(options: FunctionCallingOptions): Protocol {
  const toolsByName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const domainSchemas: ToolSchema[] = options.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const domainNames = domainSchemas.map((t) => t.name);
  const menu = options.experts.length > 0 ? [...domainSchemas, buildCallExpertTool(options.experts)] : domainSchemas;
  const system = `${options.system}\n\n${OUTPUT_FORMAT_INSTRUCTION}`;

  return {
    name: 'function-calling',
    start(task: string, instruction: string | null): ProtocolSession {
      const history: ChatMessage[] = [
        { role: 'system', content: system },
        { role: 'user', content: instruction ? `${task}\n\n${instruction}` : task },
      ];

      /** Runs one domain tool call, reporting it as events, and returns what the model will see. */
      const runDomainCall = async (
        call: ParsedCall,
        context: TurnContext,
        offered: string[],
        parentCallId?: string,
      ): Promise<CallResult> => {
        context.emit({ type: 'tool_call', step: context.step, callId: call.id, name: call.name, arguments: call.arguments, offered, parentCallId });
        const started = performance.now();
        const tool = toolsByName.get(call.name);
        const problems = tool ? validateArguments(call.arguments, tool.parameters) : [];
        let result: ReportedResult;
        let stop: unknown;
        if (!tool) {
          result = { ok: false, invalid: true, content: `Error: there is no tool named "${call.name}". Available: ${offered.join(', ')}.` };
        } else if (problems.length > 0) {
          result = { ok: false, invalid: true, content: `Error: invalid arguments for ${call.name}: ${problems.join('; ')}.` };
        } else {
          try {
            const output = await runWithDeadline((signal) => tool.run(call.arguments, { signal }), options.toolTimeoutMs, context);
            result = { ok: !output.isError, content: output.content, detail: output.detail };
            context.chargeTool({
              callId: call.id,
              tool: call.name,
              usd: output.costUsd,
              basis: output.costBasis,
              latencyMs: performance.now() - started,
            });
          } catch (error) {
            if (error instanceof RunStop || context.signal.aborted) {
              stop = error;
              result = { ok: false, content: stoppedMessage(error) };
            } else {
              const message = error instanceof Error ? error.message : String(error);
              result = { ok: false, content: `Error: ${call.name} failed: ${message}`, error: message };
            }
          }
        }
        reportResult(context, call, started, result, parentCallId);
        if (stop) throw stop;
        return result;
      };

      /** Hands the turn to an expert: it reads the conversation so far and replies or calls tools. */
      const runExpertCall = async (call: ParsedCall, context: TurnContext, offered: string[]): Promise<CallResult> => {
        const expert = options.experts.find((e) => e.alias === call.arguments.expert);
        context.emit({
          type: 'tool_call',
          step: context.step,
          callId: call.id,
          name: call.name,
          arguments: call.arguments,
          alias: expert?.alias,
          model: expert?.model.model,
          offered,
        });
        const started = performance.now();
        const finish = (result: CallResult) => reportResult(context, call, started, result);
        if (!expert) {
          return finish({
            ok: false,
            invalid: true,
            content: `Error: "expert" must be one of ${options.experts.map((e) => e.alias).join(', ')}; got ${JSON.stringify(call.arguments.expert ?? null)}.`,
          });
        }
        // The expert sees the conversation up to, not including, the turn that called it.
        const expertMessages: ChatMessage[] = history.slice(0, -1);
        const serverTools = expert.model.supportsServerTools;
        try {
          const completion = await context.callModel({
            callId: call.id,
            kind: 'expert',
            alias: expert.alias,
            model: expert.model,
            request: {
              messages: serverTools ? expertMessages : toPromptMessages(expertMessages, domainSchemas),
              tools: serverTools && domainSchemas.length > 0 ? domainSchemas : undefined,
              temperature: expert.temperature,
              maxTokens: expert.maxTokens,
            },
          });
          const reply = context.interpret(completion);
          const calls = reply.calls.filter((c) => c.name !== CALL_EXPERT_TOOL);
          if (calls.length === 0) {
            if (reply.message && reply.rejected.length === 0) {
              return finish({ ok: true, content: `${expert.alias} replied: ${reply.message}`, finalMessage: reply.message });
            }
            const why = reply.rejected.map((r) => r.reason).join('; ') || 'an empty reply';
            return finish({ ok: false, content: `Error: ${expert.alias} replied with neither a message nor a valid call (${why}).` });
          }
          const outcomes = await settleAll(calls.map((c) => runDomainCall(c, context, domainNames, call.id)));
          const lines = calls.map((c, i) => `${c.name}(${JSON.stringify(c.arguments)}) -> ${outcomes[i]?.content ?? ''}`);
          return finish({
            ok: true,
            content: [`${expert.alias} called:`, ...lines, reply.message ? `${expert.alias} said: ${reply.message}` : '']
              .filter(Boolean)
              .join('\n'),
          });
        } catch (error) {
          if (error instanceof RunStop || context.signal.aborted) {
            finish({ ok: false, content: stoppedMessage(error) });
            throw error;
          }
          const failure = finish({ ok: false, content: `Error: ${expert.alias} failed: ${toErrorInfo(error).message}` });
          if (needsUserAction(error)) throw error;
          return failure;
        }
      };

      return {
        name: 'function-calling',
        tools: () => menu,
        messages: () => history,
        async handleOutput(output: OrchestratorOutput, context: TurnContext): Promise<TurnOutcome> {
          const raw = output.completion.content;
          const serverCalls = output.calls.filter((c) => c.origin === 'server');
          const textCalls = output.calls.filter((c) => c.origin !== 'server');
          // Append the reply exactly as produced: rebuilding it would defeat KV-cache reuse.
          history.push(
            serverCalls.length > 0
              ? { role: 'assistant', content: raw, toolCalls: serverCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) }
              : { role: 'assistant', content: raw },
          );
          const rejections = output.rejected.map((r) => wrapToolResponse(`Error: ${r.reason}. Send the call again as valid JSON.`));

          if (output.calls.length === 0) {
            if (output.rejected.length === 0 && output.message) {
              return { kind: 'done', stopReason: 'final_message', answer: output.message };
            }
            const reason = output.rejected.map((r) => r.reason).join('; ') || 'the reply had neither a message nor a tool call';
            history.push({
              role: 'user',
              content:
                rejections.join('\n') ||
                wrapToolResponse(`Error: ${reason}. Reply with a <message> to the user or a valid <tool_call>.`),
            });
            return { kind: 'continue', validCall: false, invalidReason: reason };
          }

          context.assertBudget();
          const offered = menu.map((t) => t.name);
          const results = await settleAll(
            output.calls.map((call) =>
              call.name === CALL_EXPERT_TOOL ? runExpertCall(call, context, offered) : runDomainCall(call, context, offered),
            ),
          );

          // Results go back in call order: as `tool` turns for calls the server parsed, and as one
          // `<tool_response>` user turn for calls parsed from text (the server knows no ids for
          // those), with an error observation for each call that could not be read.
          const resultOf = (call: ParsedCall) => results[output.calls.indexOf(call)]?.content ?? '';
          for (const call of serverCalls) {
            history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: resultOf(call) });
          }
          const userTurn = [...textCalls.map((call) => wrapToolResponse(resultOf(call))), ...rejections];
          if (userTurn.length > 0) history.push({ role: 'user', content: userTurn.join('\n') });

          const finalMessage = results.find((r) => r.finalMessage !== undefined)?.finalMessage;
          if (finalMessage !== undefined) return { kind: 'done', stopReason: 'final_message', answer: finalMessage };
          return results.some((r) => !r.invalid)
            ? { kind: 'continue', validCall: true }
            : { kind: 'continue', validCall: false, invalidReason: results.map((r) => r.content).join('; ') };
        },
      };
    },
  };
}
