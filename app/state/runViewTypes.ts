// What the screen shows of a run: the view types runView.ts folds the event stream into, and
// viewDraft.ts edits while it folds (types only, so the two need not import each other).

import type { LedgerEntry, RunEventOf, RunTotals, StopReason } from '../../workers/engine/events.ts';

/** An error event as a step or call shows it (`t`: milliseconds since the run started). */
export type ErrorView = Pick<RunEventOf<'error'>, 'code' | 'message' | 'fatal' | 't'>;

/** A retry wait; `t` is when it began (ms since the run started), for a countdown. */
export type RetryView = Pick<RunEventOf<'retry'>, 'attempt' | 'waitMs' | 'reason' | 't'>;

/** "What the model saw" and what it answered, for one orchestrator turn. */
export type ModelRequestView = Pick<RunEventOf<'model_request'>, 'messages' | 'tools' | 'toolMode' | 'renderedPrompt'>;

export type ModelOutputView = Omit<RunEventOf<'model_output'>, 'type' | 'step' | 'runId' | 't'>;

/** A τ² conversation's simulated user speaking (or acting on its phone). */
export type UserTurnView = Omit<RunEventOf<'user_turn'>, 'type' | 'step' | 'runId'> & {
  /** Said before its step's orchestrator turn (the conversation's opening), not after it. */
  beforeAgent?: true;
};

export type ToolResultView = Pick<RunEventOf<'tool_result'>, 'ok' | 'content' | 'detail' | 'error' | 'latencyMs'>;

/** A call as its tool_call event recorded it, and what followed. */
export interface CallView extends Omit<RunEventOf<'tool_call'>, 'type' | 'runId' | 't'> {
  /** Calls an expert made inside this one (`call_expert`). */
  childCallIds: string[];
  /** An expert's streamed reasoning and text while it works. */
  reasoning: string;
  content: string;
  result?: ToolResultView;
  /** Ledger entries charged to this call (an expert's tokens, code seconds, a search). */
  costs: LedgerEntry[];
  retries: RetryView[];
  errors: ErrorView[];
}

export type StepStatus = 'thinking' | 'calling' | 'done';

export interface StepView {
  step: number;
  status: StepStatus;
  request?: ModelRequestView;
  /** The orchestrator's streamed reasoning and text of this turn. */
  reasoning: string;
  content: string;
  output?: ModelOutputView;
  /** Top-level calls of this turn, in order (an expert's own calls hang off their parent). */
  callIds: string[];
  /** What the simulated user said in this step (τ² conversations), in order: its opening before
   * the orchestrator's turn (beforeAgent), its replies after it. */
  userTurns?: UserTurnView[];
  /** The orchestrator's own ledger entries for this turn. */
  orchestratorCosts: LedgerEntry[];
  /** Known cost of the step so far; final once the step finished. */
  costUsd: number;
  /** True when some figure of this step has an unknown price (not in costUsd). */
  hasUnknownCost: boolean;
  hasEstimates: boolean;
  /** Total cost of the run up to the end of this step. */
  cumulativeUsd: number;
  /** Set when the step finished. */
  latencyMs?: number;
  startedAt: number;
  retries: RetryView[];
  errors: ErrorView[];
}

export type RunStatus = 'running' | 'finished';

/** The run as its run_started event described it, and what followed. */
export interface RunView extends Omit<RunEventOf<'run_started'>, 'type' | 't'> {
  status: RunStatus;
  steps: StepView[];
  /** Shared by a view and the views folded from it (viewDraft.ts): read, never keep, an old view's. */
  calls: Record<string, CallView>;
  ledger: LedgerEntry[];
  totalUsd: number;
  /** Milliseconds since the start, as of the latest event. */
  elapsedMs: number;
  /** Errors that belong to no step (a config or setup failure). */
  errors: ErrorView[];
  /** The first error that ended the run, wherever it is shown. */
  fatalError?: ErrorView;
  /** The index of the first step whose cost has an estimate, and of the first with an unknown
   * price, or null: a card marks its running total by them without scanning the steps before it. */
  firstEstimated: number | null;
  firstUnknown: number | null;
  /** The finished step that took longest, kept as steps finish (the Cost panel shows it without
   * walking every step on each event). */
  slowestStep: { step: number; latencyMs: number } | null;
  stopReason?: StopReason;
  answer?: string | null;
  totals?: RunTotals;
}
