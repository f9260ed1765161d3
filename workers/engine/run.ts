// The orchestration loop: one orchestrator turn after another, each handed to the protocol,
// until an answer, a limit, a stop or an error. Every fact about the run leaves as an event.
// What the run owns besides the loop (stopping, budget, wall time, the ledger, emission) is its
// RunContext (runContext.ts); what a tool call does, in either protocol, is toolStep.ts.

import type { OrchestraConfig } from './config.ts';
import { toErrorInfo } from './errors.ts';
import { RUN_LOG_SCHEMA_VERSION, type ForkFrom, type RunEvent, type RunEventOf, type RunTotals, type StopReason } from './events.ts';
import type { PreferenceVector } from './preferences.ts';
import type { PricingTable } from './pricing.ts';
import { RunStop, type EventBody, type Protocol, type ProtocolSession } from './protocol.ts';
import { renderChatML, toPromptMessages } from './qwen3/render.ts';
import { goOnFrom, keptSteps } from './fork.ts';
import { newRunId } from './ids.ts';
import type { Secret } from './redact.ts';
import { RunContext } from './runContext.ts';
import type { ChatModel } from './types.ts';

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
  /** Recorded in run_started, so a stored run says what it was run with. */
  config?: OrchestraConfig;
  preference?: PreferenceVector;
  /** Go on from a stored run's step instead of from the start (fork.ts). */
  fork?: ForkFrom;
  /** The domain the run plays in, by name, recorded in run_started (the host gave the protocol
   * its tools and policy). */
  domain?: string;
  signal?: AbortSignal;
  /** The keys the host holds: no event and no completion the protocol reads on carries one (redact.ts). */
  secrets?: readonly Secret[];
  onEvent: (event: RunEvent) => void;
}

export interface RunResult {
  runId: string;
  stopReason: StopReason;
  answer: string | null;
  totals: RunTotals;
}

type TurnResult = { stop: 'answered' | 'final_message'; answer: string } | { invalid: string | null };

export async function runOrchestration(options: RunOptions): Promise<RunResult> {
  const runId = options.runId ?? newRunId();
  const { limits } = options;
  const kept = options.fork ? keptSteps(options.fork, options.protocol.name) : null;
  const run = new RunContext({
    runId,
    pricing: options.pricing,
    counterfactualModel: options.counterfactualModel,
    maxCostUsd: limits.maxCostUsd,
    maxWallMs: limits.maxWallMs,
    signal: options.signal,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    onEvent: options.onEvent,
    ...(kept?.ok ? { clockStartMs: kept.endMs } : {}),
  });
  const session = options.protocol.start(options.task, options.instruction);

  let turns = 0;
  let stopReason: StopReason | null = run.stopReason;
  let answer: string | null = null;
  try {
    run.emit(runStarted(options, session));
    if (kept) {
      const resumed = goOnFrom(kept, run, session);
      if (resumed === null) stopReason = 'error';
      else turns = resumed;
    }

    let invalidStreak = 0;
    while (stopReason === null) {
      stopReason = turns >= limits.maxTurns ? 'max_turns' : run.budgetSpent() ? 'max_cost' : null;
      if (stopReason !== null) break;
      const step = ++turns;
      const stepStarted = run.now();
      run.emit({ type: 'step_started', step });
      try {
        const result = await runTurn(run, session, options.orchestrator, step);
        if ('stop' in result) {
          stopReason = result.stop;
          answer = result.answer;
        } else if (result.invalid !== null) {
          invalidStreak += 1;
          const fatal = invalidStreak >= limits.maxInvalidTurns;
          run.emit({
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
        stopReason = run.stopReason ?? classifyFailure(error, step, (event) => run.emit(event));
      }
      // A stop wins over whatever the turn concluded, except an answer already given.
      if (run.stopReason && answer === null) stopReason = run.stopReason;
      run.emit({
        type: 'step_finished',
        step,
        costUsd: run.ledger.stepUsd(step),
        latencyMs: Math.round(run.now() - stepStarted),
        cumulativeUsd: run.ledger.totalUsd(),
      });
    }
  } finally {
    run.dispose();
  }

  const totals = run.totals(turns);
  run.emit({ type: 'run_finished', stopReason, answer, totals });
  return { runId, stopReason, answer, totals };
}

/** The event that opens a run: what it was asked, with what, under which limits. */
function runStarted(options: RunOptions, session: ProtocolSession): Omit<RunEventOf<'run_started'>, 'runId' | 't'> {
  const { limits } = options;
  return {
    type: 'run_started',
    schemaVersion: RUN_LOG_SCHEMA_VERSION,
    task: options.task,
    protocol: options.protocol.name,
    orchestratorModel: options.orchestrator.model.model,
    ...(options.orchestrator.model.notice ? { orchestratorNotice: options.orchestrator.model.notice } : {}),
    tools: session.tools(),
    instruction: options.instruction,
    limits: { maxTurns: limits.maxTurns, maxCostUsd: limits.maxCostUsd, maxWallMs: limits.maxWallMs },
    pricingAsOf: options.pricing.asOf,
    counterfactualModel: options.counterfactualModel ?? null,
    startedAt: new Date().toISOString(),
    config: options.config ?? null,
    preference: options.preference ?? null,
    ...(options.fork ? { parent: { runId: options.fork.parentRunId, step: options.fork.throughStep } } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
  };
}

/** One orchestrator turn: the request (as the orchestrator will see it), the model's output, and
 * the protocol's handling of it. */
async function runTurn(run: RunContext, session: ProtocolSession, orchestrator: OrchestratorOptions, step: number): Promise<TurnResult> {
  const context = run.turn(step);
  const before = session.beforeTurn ? await session.beforeTurn(context) : null;
  if (before?.kind === 'done') return { stop: before.stopReason, answer: before.answer };
  const tools = session.tools();
  const messages = session.messages();
  const toolMode = orchestrator.toolMode === 'server' && orchestrator.model.supportsServerTools ? 'server' : 'prompt';
  const requestMessages = toolMode === 'server' ? messages : toPromptMessages(messages, tools);
  context.emit({
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
  context.emit({
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
}

/** Reports why a turn threw and returns the stop reason. */
function classifyFailure(error: unknown, step: number, emit: (event: EventBody) => void): StopReason {
  if (error instanceof RunStop) return error.reason;
  const info = toErrorInfo(error);
  if (info.code === 'aborted') return 'aborted';
  emit({ type: 'error', step, code: info.code, message: info.message, fatal: true });
  return 'error';
}
