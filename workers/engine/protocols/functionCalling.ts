// The function-calling protocol (tau2-Bench style): a real multi-turn conversation over arbitrary
// tools. The history only ever grows at the end, so an engine that keeps its KV cache (web-llm)
// reuses it turn after turn. Independent calls of one turn run concurrently; a bad call becomes
// an error observation the model can correct; `call_expert` hands the turn to a stronger model.

import { CALL_EXPERT_TOOL } from '../config.ts';
import type { ParsedCall } from '../events.ts';
import type { ModelPrice } from '../pricing.ts';
import { RunStop, type OrchestratorOutput, type Protocol, type ProtocolSession, type TurnContext, type TurnOutcome } from '../protocol.ts';
import { parseModelOutput, parseServerToolCalls } from '../qwen3/parse.ts';
import { toPromptMessages, wrapToolResponse } from '../qwen3/render.ts';
import type { ChatMessage, ChatModel, Tool, ToolSchema } from '../types.ts';
import { validateArguments } from '../validateArguments.ts';
import { toErrorInfo } from '../../backends/errors.ts';
import { PRICE_TABLE_HEADER } from './paper.ts';
import { formatSeconds } from '../format.ts';

export interface FunctionCallingExpert {
  alias: string;
  model: ChatModel;
  description: string;
  price?: ModelPrice;
  latencySeconds?: number;
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

function formatPrice(perMillion: number | undefined): string {
  return perMillion === undefined ? 'unknown' : `$${Number(perMillion.toFixed(6))}`;
}

export function buildCallExpertTool(experts: readonly FunctionCallingExpert[]): ToolSchema {
  const choices = `[${experts.map((e) => `'${e.alias}'`).join(', ')}]`;
  const sentences = experts.map((e) => `${e.alias} ${e.description}`.trim()).join(' ');
  const rows = experts.map((e) => {
    const latency = e.latencySeconds === undefined ? 'unknown' : `${Math.round(e.latencySeconds)}s`;
    return `${e.alias} | ${formatPrice(e.price?.inputPerM)} | ${formatPrice(e.price?.outputPerM)} | ${latency}`;
  });
  return {
    name: CALL_EXPERT_TOOL,
    description:
      'Hand this turn to a stronger expert model, which reads the conversation and writes the reply or the tool calls.',
    parameters: {
      properties: {
        expert: {
          description: `The expert to call. Choices: ${choices}. ${sentences} The table below shows the pricing and latency of each model:\n${[PRICE_TABLE_HEADER, ...rows].join('\n')}`,
          type: 'string',
        },
      },
      required: ['expert'],
      title: 'parameters',
      type: 'object',
    },
  };
}

function toSchema(tool: Tool): ToolSchema {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

/** Races a tool against a deadline and the run's signal; the tool's own signal aborts on either. */
async function runWithDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  outer: AbortSignal,
): Promise<T> {
  if (outer.aborted) throw new RunStop('aborted');
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  try {
    return await Promise.race([
      work(controller.signal),
      new Promise<never>((_, reject) => {
        // Each settles the race first, so the tool's own reaction to the abort cannot win it.
        timer = setTimeout(() => {
          reject(new Error(`timed out after ${formatSeconds(timeoutMs)} and was stopped`));
          controller.abort();
        }, timeoutMs);
        onAbort = () => {
          reject(new RunStop('aborted'));
          controller.abort();
        };
        outer.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
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

export function createFunctionCallingProtocol(options: FunctionCallingOptions): Protocol {
  const toolsByName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const domainSchemas = options.tools.map(toSchema);
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
      const runDomainCall = async (call: ParsedCall, context: TurnContext, offered: string[]): Promise<CallResult> => {
        context.emit({ type: 'tool_call', step: context.step, callId: call.id, name: call.name, arguments: call.arguments, offered });
        const started = performance.now();
        const tool = toolsByName.get(call.name);
        let result: { ok: boolean; content: string; detail?: unknown; error?: string; usd?: number; invalid?: boolean };
        const problems = tool ? validateArguments(call.arguments, tool.parameters) : [];
        if (!tool) {
          result = { ok: false, invalid: true, content: `Error: there is no tool named "${call.name}". Available: ${offered.join(', ')}.` };
        } else if (problems.length > 0) {
          result = { ok: false, invalid: true, content: `Error: invalid arguments for ${call.name}: ${problems.join('; ')}.` };
        } else {
          try {
            const output = await runWithDeadline((signal) => tool.run(call.arguments, { signal }), options.toolTimeoutMs, context.signal);
            result = { ok: !output.isError, content: output.content, detail: output.detail, usd: output.costUsd };
          } catch (error) {
            if (error instanceof RunStop) throw error;
            const message = error instanceof Error ? error.message : String(error);
            result = { ok: false, content: `Error: ${call.name} failed: ${message}`, error: message };
          }
        }
        const latencyMs = Math.round(performance.now() - started);
        if (tool) {
          context.charged(context.ledger.recordTool({ step: context.step, callId: call.id, tool: call.name, usd: result.usd, latencyMs }));
        }
        context.emit({
          type: 'tool_result',
          step: context.step,
          callId: call.id,
          name: call.name,
          ok: result.ok,
          content: result.content,
          detail: result.detail,
          error: result.ok ? undefined : (result.error ?? result.content),
          latencyMs,
        });
        return { ok: result.ok, content: result.content, invalid: result.invalid };
      };

      /** Hands the turn to an expert: it reads the conversation so far and replies or calls tools. */
      const runExpertCall = async (call: ParsedCall, context: TurnContext, offered: string[]): Promise<CallResult> => {
        const expert = options.experts.find((e) => e.alias === call.arguments.expert);
        if (!expert) {
          const content = `Error: "expert" must be one of ${options.experts.map((e) => e.alias).join(', ')}; got ${JSON.stringify(call.arguments.expert ?? null)}.`;
          context.emit({ type: 'tool_call', step: context.step, callId: call.id, name: call.name, arguments: call.arguments, offered });
          context.emit({ type: 'tool_result', step: context.step, callId: call.id, name: call.name, ok: false, content, error: content, latencyMs: 0 });
          return { ok: false, content, invalid: true };
        }
        context.emit({
          type: 'tool_call',
          step: context.step,
          callId: call.id,
          name: call.name,
          arguments: call.arguments,
          alias: expert.alias,
          model: expert.model.model,
          offered,
        });
        const started = performance.now();
        const expertMessages = [{ role: 'system' as const, content: system }, ...history.slice(1)];
        const serverTools = expert.model.supportsServerTools;
        let result: CallResult;
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
          const parsed = parseModelOutput(completion.content);
          const server = completion.toolCalls?.length ? parseServerToolCalls(completion.toolCalls) : { calls: [], rejected: [] };
          const expertCalls: ParsedCall[] = [
            ...server.calls.map((c) => ({ ...c, origin: 'server' as const })),
            ...parsed.calls.map((c) => ({ ...c, id: context.newCallId() })),
          ].filter((c) => c.name !== CALL_EXPERT_TOOL);
          if (expertCalls.length === 0) {
            result = { ok: true, content: `${expert.alias} replied: ${parsed.message}`, finalMessage: parsed.message };
          } else {
            const domainMenu = domainSchemas.map((t) => t.name);
            const outcomes = await Promise.all(expertCalls.map((c) => runDomainCall(c, context, domainMenu)));
            const lines = expertCalls.map((c, i) => `${c.name}(${JSON.stringify(c.arguments)}) -> ${outcomes[i]?.content ?? ''}`);
            result = {
              ok: true,
              content: [`${expert.alias} called:`, ...lines, parsed.message ? `${expert.alias} said: ${parsed.message}` : '']
                .filter(Boolean)
                .join('\n'),
            };
          }
        } catch (error) {
          if (error instanceof RunStop || context.signal.aborted) throw error;
          const info = toErrorInfo(error);
          if (info.code === 'auth' || info.code === 'cors' || info.code === 'not_found') throw error;
          result = { ok: false, content: `Error: ${expert.alias} failed: ${info.message}` };
        }
        context.emit({
          type: 'tool_result',
          step: context.step,
          callId: call.id,
          name: call.name,
          ok: result.ok,
          content: result.content,
          error: result.ok ? undefined : result.content,
          latencyMs: Math.round(performance.now() - started),
        });
        return result;
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

          if (output.calls.length === 0) {
            if (output.rejected.length === 0 && output.message) {
              return { kind: 'done', stopReason: 'final_message', answer: output.message };
            }
            const reason = output.rejected.map((r) => r.reason).join('; ') || 'the reply had neither a message nor a tool call';
            history.push({
              role: 'user',
              content: wrapToolResponse(`Error: ${reason}. Reply with a <message> to the user or a valid <tool_call>.`),
            });
            return { kind: 'continue', validCall: false, invalidReason: reason };
          }

          const offered = menu.map((t) => t.name);
          const results = await Promise.all(
            output.calls.map((call) =>
              call.name === CALL_EXPERT_TOOL ? runExpertCall(call, context, offered) : runDomainCall(call, context, offered),
            ),
          );
          // Results go back in call order: as `tool` turns for calls the server parsed, and as one
          // `<tool_response>` user turn for calls parsed from text (the server knows no ids for those).
          serverCalls.forEach((call) => {
            const result = results[output.calls.indexOf(call)];
            history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result?.content ?? '' });
          });
          if (textCalls.length > 0) {
            const responses = textCalls.map((call) => wrapToolResponse(results[output.calls.indexOf(call)]?.content ?? ''));
            history.push({ role: 'user', content: responses.join('\n') });
          }

          const finalMessage = results.find((r) => r.finalMessage !== undefined)?.finalMessage;
          if (finalMessage !== undefined) return { kind: 'done', stopReason: 'final_message', answer: finalMessage };
          const anyValid = results.some((r) => !r.invalid);
          return anyValid
            ? { kind: 'continue', validCall: true }
            : { kind: 'continue', validCall: false, invalidReason: results.map((r) => r.content).join('; ') };
        },
      };
    },
  };
}
