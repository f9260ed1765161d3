// The orchestration loop: one orchestrator turn after another, each handed to the protocol,
// until an answer, a limit, a stop or an error. Every fact about the run leaves as an event.

import { toErrorInfo } from '../backends/errors.ts';
import type { LedgerEntry, RunEvent, RunTotals, StopReason } from './events.ts';
import { interpretCompletion } from './interpret.ts';
import { Ledger } from './ledger.ts';
import type { PricingTable } from './pricing.ts';
import { RunStop, type EventBody, type ModelCallOptions, type Protocol, type TurnContext } from './protocol.ts';
import { renderChatML, renderToolsBlock, toPromptMessages } from './qwen3/render.ts';
import { estimatePromptTokens, estimateTokensOfLength } from './tokens.ts';
import type { ChatCompletion, ChatModel } from './types.ts';

export interface OrchestratorOptions {
  model: ChatModel;
  /** `server` only takes effect when the backend supports server-side tools. */
  toolMode: 'server' | 'prompt';
  temperature?: number;
  maxTokens?: number;
  enableThinking?: boolean;
}

export interface RunLimits {
  maxTurns: number;
  maxCostUsd: number | null;
  maxWallMs: number | null;
  /** Consecutive turns without a valid call before the run gives up. */
  maxInvalidTurns: number;
}

export interface RunOptions {
  runId?: string;
  task: string;
  protocol: Protocol;
  orchestrator: OrchestratorOptions;
  pricing: PricingTable;
  /** The strongest configured model, for the "what if it made every expert call" figure. */
  counterfactualModel?: string;
  limits: RunLimits;
  /** The preference instruction added to the task, or null. */
  instruction: string | null;
  signal?: AbortSignal;
  onEvent: (event: RunEvent) => void;
}

export interface RunResult {
  runId: string;
  stopReason: StopReason;
  answer: string | null;
  totals: RunTotals;
}

type TurnResult = { stop: 'answered' | 'final_message'; answer: string } | { invalid: string | null };

export function newRunId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return random ?? `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Rejects with RunStop as soon as `signal` aborts, whether or not `promise` honours it. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, reason: () => StopReason): Promise<T> {
  if (signal.aborted) return Promise.reject(new RunStop(reason()));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RunStop(reason()));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export async function runOrchestration(options: RunOptions): Promise<RunResult> {
  const runId = options.runId ?? newRunId();
  const started = performance.now();
  const now = () => performance.now() - started;
  const { limits, orchestrator } = options;
  const ledger = new Ledger({ pricing: options.pricing, counterfactualModel: options.counterfactualModel });

  // One controller stops everything in flight, whatever the reason.
  const controller = new AbortController();
  let stopRequested: StopReason | null = options.signal?.aborted ? 'aborted' : null;
  const stop = (reason: StopReason) => {
    if (stopRequested) return;
    stopRequested = reason;
    controller.abort();
  };
  const stopReasonNow = () => stopRequested ?? 'aborted';
  const race = <T>(promise: Promise<T>) => raceAbort(promise, controller.signal, stopReasonNow);
  const onUserAbort = () => stop('aborted');
  options.signal?.addEventListener('abort', onUserAbort, { once: true });
  const wallTimer = limits.maxWallMs === null ? undefined : setTimeout(() => stop('max_time'), limits.maxWallMs);

  const toolCounts: RunTotals['toolCounts'] = { tools: {}, aliases: {} };
  let toolLatencyMs = 0;
  let turns = 0;

  const emit = (event: EventBody) => {
    const stamped = { ...event, runId, t: Math.round(now()) } as RunEvent;
    if (stamped.type === 'tool_call') {
      toolCounts.tools[stamped.name] = (toolCounts.tools[stamped.name] ?? 0) + 1;
      if (stamped.alias) toolCounts.aliases[stamped.alias] = (toolCounts.aliases[stamped.alias] ?? 0) + 1;
    } else if (stamped.type === 'tool_result' && stamped.parentCallId === undefined) {
      // Calls an expert makes inside call_expert are already inside that call's time.
      toolLatencyMs += stamped.latencyMs;
    }
    options.onEvent(stamped);
  };

  const budgetSpent = () => limits.maxCostUsd !== null && ledger.totalUsd() >= limits.maxCostUsd;

  let callCounter = 0;
  const makeContext = (step: number): TurnContext => {
    const charged = (entry: LedgerEntry) => emit({ type: 'usage', step, entry, totalUsd: ledger.totalUsd() });
    const newCallId = () => `call-${step}-${++callCounter}`;
    const context: TurnContext = {
      step,
      signal: controller.signal,
      emit,
      race,
      newCallId,
      interpret: (completion) => interpretCompletion(completion, newCallId),
      assertBudget: () => {
        if (stopRequested) throw new RunStop(stopRequested);
        if (budgetSpent()) {
          stop('max_cost');
          throw new RunStop('max_cost');
        }
      },
      chargeSearch: (charge) => charged(ledger.recordSearch({ step, ...charge })),
      chargeCode: (charge) => charged(ledger.recordCodeExecution({ step, ...charge })),
      chargeTool: (charge) => charged(ledger.recordTool({ step, ...charge })),
      callModel: (call: ModelCallOptions) => callModel(step, call, charged),
    };
    return context;
  };

  const callModel = async (
    step: number,
    call: ModelCallOptions,
    charged: (entry: LedgerEntry) => void,
  ): Promise<ChatCompletion> => {
    if (stopRequested) throw new RunStop(stopRequested);
    if (budgetSpent()) {
      stop('max_cost');
      throw new RunStop('max_cost');
    }
    const started = performance.now();
    const promptEstimate = () =>
      estimatePromptTokens(call.request.messages, call.request.tools ? renderToolsBlock(call.request.tools) : '');
    const record = (usage: ChatCompletion['usage'], completionChars: number, latencyMs: number) =>
      charged(
        ledger.recordModelCall({
          step,
          callId: call.callId,
          kind: call.kind,
          model: call.model.model,
          alias: call.alias,
          usage,
          estimatedUsage: usage
            ? undefined
            : { promptTokens: promptEstimate(), completionTokens: estimateTokensOfLength(completionChars) },
          latencyMs,
        }),
      );
    let streamedChars = 0;
    let completion: ChatCompletion;
    try {
      completion = await race(
        call.model.complete({ ...call.request, signal: controller.signal }, (delta) => {
          if (controller.signal.aborted) return;
          if (delta.type === 'retry') {
            emit({ type: 'retry', step, callId: call.callId, attempt: delta.attempt, waitMs: delta.waitMs, reason: delta.reason });
          } else {
            streamedChars += delta.text.length;
            emit({ type: delta.type === 'reasoning' ? 'reasoning_delta' : 'content_delta', step, callId: call.callId, text: delta.text });
          }
        }),
      );
    } catch (error) {
      // A call that failed or was stopped after it streamed output was most likely billed for
      // it: charge an estimate rather than nothing.
      if (streamedChars > 0) record(undefined, streamedChars, performance.now() - started);
      throw error;
    }
    record(completion.usage, (completion.reasoning ?? '').length + completion.content.length, completion.latencyMs);
    return completion;
  };

  const session = options.protocol.start(options.task, options.instruction);

  const runTurn = async (step: number): Promise<TurnResult> => {
    const context = makeContext(step);
    const tools = session.tools();
    const messages = session.messages();
    const toolMode = orchestrator.toolMode === 'server' && orchestrator.model.supportsServerTools ? 'server' : 'prompt';
    const requestMessages = toolMode === 'server' ? messages : toPromptMessages(messages, tools);
    emit({
      type: 'model_request',
      step,
      messages: requestMessages,
      tools,
      toolMode,
      renderedPrompt: renderChatML(messages, tools, {
        addGenerationPrompt: true,
        enableThinking: orchestrator.enableThinking,
      }),
    });
    const completion = await context.callModel({
      kind: 'orchestrator',
      model: orchestrator.model,
      request: {
        messages: requestMessages,
        tools: toolMode === 'server' ? tools : undefined,
        temperature: orchestrator.temperature,
        maxTokens: orchestrator.maxTokens,
        enableThinking: orchestrator.enableThinking,
      },
    });
    const output = context.interpret(completion);
    emit({
      type: 'model_output',
      step,
      raw: completion.content,
      reasoning: output.reasoning,
      message: output.message,
      calls: output.calls,
      rejected: output.rejected,
      finishReason: completion.finishReason,
      latencyMs: completion.latencyMs,
      timeToFirstTokenMs: completion.timeToFirstTokenMs,
    });
    const outcome = await session.handleOutput(output, context);
    if (outcome.kind === 'done') return { stop: outcome.stopReason, answer: outcome.answer };
    return { invalid: outcome.validCall ? null : (outcome.invalidReason ?? 'no valid tool call') };
  };

  let stopReason: StopReason | null = stopRequested;
  let answer: string | null = null;
  try {
    emit({
      type: 'run_started',
      task: options.task,
      protocol: options.protocol.name,
      orchestratorModel: orchestrator.model.model,
      tools: session.tools(),
      instruction: options.instruction,
      limits: { maxTurns: limits.maxTurns, maxCostUsd: limits.maxCostUsd, maxWallMs: limits.maxWallMs },
      pricingAsOf: options.pricing.asOf,
      counterfactualModel: options.counterfactualModel ?? null,
      startedAt: new Date().toISOString(),
    });

    let invalidStreak = 0;
    while (stopReason === null) {
      if (turns >= limits.maxTurns) {
        stopReason = 'max_turns';
        break;
      }
      if (budgetSpent()) {
        stopReason = 'max_cost';
        break;
      }
      const step = ++turns;
      const stepStarted = now();
      emit({ type: 'step_started', step });
      try {
        const result = await runTurn(step);
        if ('stop' in result) {
          stopReason = result.stop;
          answer = result.answer;
        } else if (result.invalid !== null) {
          invalidStreak += 1;
          const fatal = invalidStreak >= limits.maxInvalidTurns;
          emit({
            type: 'error',
            step,
            code: 'invalid_output',
            message: `The orchestrator made no valid tool call (${invalidStreak} in a row): ${result.invalid}`,
            fatal,
          });
          if (fatal) stopReason = 'invalid_output';
        } else {
          invalidStreak = 0;
        }
      } catch (error) {
        stopReason = stopRequested ?? classifyFailure(error, step, emit);
      }
      // A stop wins over whatever the turn concluded, except an answer already given.
      if (stopRequested && answer === null) stopReason = stopRequested;
      emit({
        type: 'step_finished',
        step,
        costUsd: ledger.stepUsd(step),
        latencyMs: Math.round(now() - stepStarted),
        cumulativeUsd: ledger.totalUsd(),
      });
    }
  } finally {
    clearTimeout(wallTimer);
    options.signal?.removeEventListener('abort', onUserAbort);
    // Anything still in flight (a call the protocol did not wait for) is cancelled.
    controller.abort();
  }

  const totals = computeTotals(ledger, {
    latencyMs: Math.round(now()),
    toolLatencyMs: Math.round(toolLatencyMs),
    turns,
    toolCounts,
  });
  emit({ type: 'run_finished', stopReason, answer, totals });
  return { runId, stopReason, answer, totals };
}

/** Reports why a turn threw and returns the stop reason. */
function classifyFailure(error: unknown, step: number, emit: (event: EventBody) => void): StopReason {
  if (error instanceof RunStop) return error.reason;
  const info = toErrorInfo(error);
  if (info.code === 'aborted') return 'aborted';
  emit({ type: 'error', step, code: info.code, message: info.message, fatal: true });
  return 'error';
}

function computeTotals(
  ledger: Ledger,
  counters: Pick<RunTotals, 'latencyMs' | 'toolLatencyMs' | 'turns' | 'toolCounts'>,
): RunTotals {
  let promptTokens = 0;
  let completionTokens = 0;
  for (const entry of ledger.entries) {
    promptTokens += entry.usage?.promptTokens ?? 0;
    completionTokens += entry.usage?.completionTokens ?? 0;
  }
  return {
    costUsd: ledger.totalUsd(),
    unknownCostEntries: ledger.unknownCount(),
    hasEstimates: ledger.hasEstimates(),
    counterfactualUsd: ledger.counterfactualUsd(),
    promptTokens,
    completionTokens,
    ...counters,
  };
}
