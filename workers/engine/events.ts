// One typed event stream is the truth about a run. The loop emits these; the UI store folds
// them into view state, the CLI prints them, exports and replays are these events as JSON.
// Nothing here may ever hold an API key.

import type { OrchestraConfig } from './config.ts';
import type { PreferenceVector } from './preferences.ts';
import type { ChatMessage, FinishReason, SandboxStartup, ToolSchema, Usage } from './types.ts';

/** The version of the stored form of a run (its event log, as history and run files keep it).
 * Raise it when an event changes shape, and teach workers/history/runLog.ts to migrate the older one. */
export const RUN_LOG_SCHEMA_VERSION = 1;

/** The longest task a run takes, as a suite's task may be (workers/eval/suite.ts): a run file
 * holding a longer one is not one a run wrote (30,000,000 characters of it stalled History for
 * seconds on every visit). */
export const MAX_TASK_CHARS = 50_000;

/** The model id a person's turns as the orchestrator are recorded under in the ledger ("You are
 * the orchestrator", humanOrchestrator.ts); priced at nothing. Their latency is the person's
 * thinking time. */
export const HUMAN_ORCHESTRATOR_MODEL = 'you';

/** `direct`: a model answers the task alone, with no tools (an evaluation baseline). */
export type ProtocolName = 'paper' | 'function-calling' | 'direct';

export type StopReason =
  /** The paper protocol's `answer` tool ran. */
  | 'answered'
  /** Function calling: the model replied to the user without calling a tool. */
  | 'final_message'
  | 'max_turns'
  | 'max_cost'
  | 'max_time'
  | 'aborted'
  /** The orchestrator kept emitting output with no valid call. */
  | 'invalid_output'
  /** A backend failed for good (after retries) or something unexpected broke. */
  | 'error';

/** How a cost figure was obtained. `measured`: the provider's own cost, or its reported token
 * usage times a known price. `estimated`: tokens we counted ourselves, or a per-second or
 * per-call rate. A figure whose price is unknown has `usd: null`, never 0. */
export type CostBasis = 'measured' | 'estimated';

/** `user`: the simulated user of a τ² conversation, kept apart from the agent's side. */
export type LedgerKind = 'orchestrator' | 'expert' | 'code' | 'search' | 'tool' | 'user';

export interface LedgerEntry {
  step: number;
  callId?: string;
  kind: LedgerKind;
  /** The provider model id (for model calls). */
  model?: string;
  /** The alias the orchestrator chose (paper protocol) or the expert slot. */
  alias?: string;
  tool?: string;
  usage?: Usage;
  /** null when the price is unknown. */
  usd: number | null;
  basis: CostBasis;
  /** Where the figure came from: the provider, the pricing table, or a flat rate. */
  source: 'provider' | 'pricing' | 'rate';
  /** How long the call took, start-up included. */
  latencyMs: number;
  /** When the charge was recorded, in ms since the run started: the end of the call, which
   * began at `endMs − latencyMs`. Calls that overlapped in time can so share the run's wall time. */
  endMs?: number;
  /** The part of `latencyMs` spent waiting for a sandbox to start before the work itself
   * (Python's interpreter takes seconds on a first run). Never charged. */
  startup?: SandboxStartup;
  /** The same tokens priced as the strongest configured model (expert calls only). */
  counterfactualUsd?: number | null;
}

export interface ToolCounts {
  /** Calls per tool name (`search`, `answer`, `get_weather`…). */
  tools: Record<string, number>;
  /** Calls per alias (`search-1`, `expert-2`…), where the call named one. */
  aliases: Record<string, number>;
}

export interface RunTotals {
  /** Sum of every known cost. */
  costUsd: number;
  /** Entries whose price was unknown (their cost is not in costUsd). */
  unknownCostEntries: number;
  /** True when some figure in costUsd is an estimate. */
  hasEstimates: boolean;
  /** What the expert calls would have cost on the strongest configured model (plus everything
   * else as it was); null if that cannot be priced. */
  counterfactualUsd: number | null;
  /** Wall-clock time of the run. */
  latencyMs: number;
  /** Sum of wall-clock time around tool calls (the paper's latency feature). */
  toolLatencyMs: number;
  turns: number;
  toolCounts: ToolCounts;
  promptTokens: number;
  completionTokens: number;
  /** The simulated user's share of costUsd (τ² conversations only; absent elsewhere). The
   * reward's cost term leaves it out: it is the benchmark's cost, not the agent's. */
  userCostUsd?: number;
}

export interface ParsedCall {
  /** Stable id for this call within the run. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Where the call was found. */
  origin: 'text' | 'server' | 'think';
  /** The JSON text it was read from: a server call's arguments string, or a text call's whole
   * `{"name", "arguments"}` object. Tools that read their own arguments (τ²'s) parse it again,
   * keeping what JSON.parse loses (2.0 stays a float). */
  raw?: string;
}

export interface RejectedCall {
  /** The raw text (or server payload) that was rejected, possibly shortened. */
  raw: string;
  reason: string;
}

interface Base {
  runId: string;
  /** Milliseconds since the run started. */
  t: number;
}

export type RunEvent = Base &
  (
    | {
        type: 'run_started';
        /** RUN_LOG_SCHEMA_VERSION when the run was recorded. */
        schemaVersion: number;
        task: string;
        protocol: ProtocolName;
        orchestratorModel: string;
        /** The orchestrator's notice (ChatModel.notice), shown with the run: a scripted demo says so. */
        orchestratorNotice?: string;
        /** The tools (menu) the orchestrator is offered, as listed to it. */
        tools: ToolSchema[];
        /** The preference instruction added to the task, or null when switched off. */
        instruction: string | null;
        limits: { maxTurns: number; maxCostUsd: number | null; maxWallMs: number | null };
        pricingAsOf: string;
        /** The model the counterfactual prices every expert call at, or null when none is priced. */
        counterfactualModel: string | null;
        startedAt: string;
        /** The config the run was prepared from (configs hold no keys: the format has no field for
         * one), or null when the run was not started from a config. */
        config: OrchestraConfig | null;
        /** The preference vector the run was given, resolved from a preset where the config named one. */
        preference: PreferenceVector | null;
        /** Set on a run forked from a stored one: the parent, and the step it was forked after. */
        parent?: { runId: string; step: number };
        /** The domain a typed task played in (the Task tab's picker: workers/hosts/taskDomain.ts), by
         * name: a built-in domain's (`retail`) or a τ² or ToolScale suite's (`tau2-retail`);
         * absent when it played in none. Running it again needs the same domain. */
        domain?: string;
      }
    | { type: 'step_started'; step: number }
    | {
        /** "What the model saw": the exact messages and tools of one orchestrator turn, and the
         * Qwen3 text they render to. */
        type: 'model_request';
        step: number;
        messages: ChatMessage[];
        tools: ToolSchema[];
        /** Whether tools went to the server (`server`) or were rendered into the prompt. */
        toolMode: 'server' | 'prompt';
        renderedPrompt: string;
      }
    | {
        /** One turn of a τ² conversation's simulated user: what it said to the agent, or the
         * calls it made on its own phone (telecom) and their results; its tokens and cost. */
        type: 'user_turn';
        step: number;
        content: string | null;
        toolCalls: { name: string; arguments: Record<string, unknown>; result: string; error: boolean }[];
        /** The user model, or null for a scripted user. */
        model: string | null;
        promptTokens: number;
        completionTokens: number;
        /** null when the price is unknown. */
        costUsd: number | null;
      }
    | { type: 'reasoning_delta'; step: number; callId?: string; text: string }
    | { type: 'content_delta'; step: number; callId?: string; text: string }
    | {
        type: 'model_output';
        step: number;
        raw: string;
        reasoning: string;
        message: string;
        calls: ParsedCall[];
        rejected: RejectedCall[];
        finishReason: FinishReason;
        latencyMs: number;
        timeToFirstTokenMs?: number;
      }
    | {
        type: 'tool_call';
        step: number;
        callId: string;
        name: string;
        arguments: Record<string, unknown>;
        alias?: string;
        /** The provider model behind the alias, when there is one. */
        model?: string;
        /** The tool names that were on offer this turn. */
        offered: string[];
        /** Set on calls an expert made inside `call_expert`. */
        parentCallId?: string;
      }
    | {
        type: 'tool_result';
        step: number;
        callId: string;
        name: string;
        ok: boolean;
        /** What the model will see. */
        content: string;
        detail?: unknown;
        error?: string;
        latencyMs: number;
        parentCallId?: string;
      }
    | { type: 'usage'; step: number; entry: LedgerEntry; totalUsd: number }
    | { type: 'retry'; step: number; callId?: string; attempt: number; waitMs: number; reason: string }
    | { type: 'step_finished'; step: number; costUsd: number; latencyMs: number; cumulativeUsd: number }
    | { type: 'error'; step?: number; callId?: string; code: string; message: string; fatal: boolean }
    | { type: 'run_finished'; stopReason: StopReason; answer: string | null; totals: RunTotals }
  );

export type RunEventType = RunEvent['type'];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** Where a fork goes on from (fork.ts): a stored run's step, and that run's event log (untrusted). */
export interface ForkFrom {
  parentRunId: string;
  /** The last step kept from the parent. */
  throughStep: number;
  /** The parent's event log. */
  events: readonly RunEvent[];
}
