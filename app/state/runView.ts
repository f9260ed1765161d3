// Folds a run's event stream into what the screen shows. Pure and synchronous: the store applies
// each batch from the worker in one go, and tests feed it recorded events. Nothing here is
// computed anywhere else: cost figures come from the engine's `usage` and `step_finished` events.

import type { LedgerEntry, RunEvent, RunEventOf, RunTotals, StopReason } from '../../workers/engine/events.ts';
import { ViewDraft } from './viewDraft.ts';

/** An error event as a step or call shows it (`t`: milliseconds since the run started). */
export type ErrorView = Pick<RunEventOf<'error'>, 'code' | 'message' | 'fatal' | 't'>;

/** A retry wait; `t` is when it began (ms since the run started), for a countdown. */
export type RetryView = Pick<RunEventOf<'retry'>, 'attempt' | 'waitMs' | 'reason' | 't'>;

/** "What the model saw" and what it answered, for one orchestrator turn. */
export type ModelRequestView = Pick<RunEventOf<'model_request'>, 'messages' | 'tools' | 'toolMode' | 'renderedPrompt'>;

export type ModelOutputView = Omit<RunEventOf<'model_output'>, 'type' | 'step' | 'runId' | 't'>;

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
  stopReason?: StopReason;
  answer?: string | null;
  totals?: RunTotals;
}

export function startView(event: RunEventOf<'run_started'>): RunView {
  const { type: _type, t, ...described } = event;
  return {
    ...described,
    status: 'running',
    steps: [],
    // Not a literal's prototype: a call id such as "__proto__" stays a call.
    calls: Object.create(null) as Record<string, CallView>,
    ledger: [],
    totalUsd: 0,
    elapsedMs: t,
    errors: [],
    firstEstimated: null,
    firstUnknown: null,
  };
}

/**
 * Applies a batch of events. Returns the same object when nothing in the batch concerned it.
 * Linear in the batch and the run's size: the batch is folded into one draft (draft.ts), which
 * copies the view's steps, calls and lists at most once each, however many events touch them —
 * folding event by event into fresh copies cost a 100,000-step run minutes.
 */
export function foldEvents(view: RunView | null, events: readonly RunEvent[]): RunView | null {
  let draft: ViewDraft | null = view && new ViewDraft(view);
  let changed = false;
  for (const event of events) {
    if (event.type === 'run_started') {
      draft = new ViewDraft(startView(event));
      changed = true;
      continue;
    }
    if (!draft || event.runId !== draft.view.runId) continue;
    foldEvent(draft, event);
    changed = true;
  }
  return changed && draft ? draft.view : view;
}

function newStep(event: RunEventOf<'step_started'>, cumulativeUsd: number): StepView {
  return {
    step: event.step,
    status: 'thinking',
    reasoning: '',
    content: '',
    callIds: [],
    orchestratorCosts: [],
    costUsd: 0,
    hasUnknownCost: false,
    hasEstimates: false,
    cumulativeUsd,
    startedAt: event.t,
    retries: [],
    errors: [],
  };
}

function newCall(event: RunEventOf<'tool_call'>): CallView {
  return {
    callId: event.callId,
    step: event.step,
    name: event.name,
    arguments: event.arguments,
    alias: event.alias,
    model: event.model,
    offered: event.offered,
    parentCallId: event.parentCallId,
    childCallIds: [],
    reasoning: '',
    content: '',
    costs: [],
    retries: [],
    errors: [],
  };
}

function foldEvent(draft: ViewDraft, event: RunEvent): void {
  const view = draft.view;
  view.elapsedMs = Math.max(view.elapsedMs, event.t);
  switch (event.type) {
    case 'run_started':
      return;
    case 'step_started':
      draft.addStep(newStep(event, view.totalUsd));
      return;
    case 'model_request': {
      const step = draft.step(event.step);
      if (step) step.request = { messages: event.messages, tools: event.tools, toolMode: event.toolMode, renderedPrompt: event.renderedPrompt };
      return;
    }
    case 'reasoning_delta':
    case 'content_delta': {
      const field = event.type === 'reasoning_delta' ? 'reasoning' : 'content';
      const target = event.callId ? draft.call(event.callId) : draft.step(event.step);
      if (target) target[field] += event.text;
      return;
    }
    case 'model_output': {
      const step = draft.step(event.step);
      if (!step) return;
      step.status = 'calling';
      step.output = {
        raw: event.raw,
        reasoning: event.reasoning,
        message: event.message,
        calls: event.calls,
        rejected: event.rejected,
        finishReason: event.finishReason,
        latencyMs: event.latencyMs,
        timeToFirstTokenMs: event.timeToFirstTokenMs,
      };
      return;
    }
    case 'tool_call': {
      draft.addCall(newCall(event));
      // A call is never its own parent (a file could say so): it would hang off itself.
      const parent = event.parentCallId && event.parentCallId !== event.callId ? draft.call(event.parentCallId) : undefined;
      if (parent) parent.childCallIds.push(event.callId);
      else draft.step(event.step)?.callIds.push(event.callId);
      return;
    }
    case 'tool_result': {
      const call = draft.call(event.callId);
      if (call) call.result = { ok: event.ok, content: event.content, detail: event.detail, error: event.error, latencyMs: event.latencyMs };
      return;
    }
    case 'usage': {
      const { entry } = event;
      draft.ledger().push(entry);
      view.totalUsd = event.totalUsd;
      const call = entry.callId ? draft.call(entry.callId) : undefined;
      if (call) call.costs.push(entry);
      const index = draft.indexOf(event.step);
      const step = draft.step(event.step);
      if (!step) return;
      if (!call) step.orchestratorCosts.push(entry);
      step.costUsd += entry.usd ?? 0;
      step.hasUnknownCost ||= entry.usd === null;
      step.hasEstimates ||= entry.basis === 'estimated' && entry.usd !== null;
      step.cumulativeUsd = event.totalUsd;
      if (step.hasUnknownCost) view.firstUnknown = Math.min(view.firstUnknown ?? index, index);
      if (step.hasEstimates) view.firstEstimated = Math.min(view.firstEstimated ?? index, index);
      return;
    }
    case 'retry': {
      const retry: RetryView = { attempt: event.attempt, waitMs: event.waitMs, reason: event.reason, t: event.t };
      const target = (event.callId ? draft.call(event.callId) : undefined) ?? draft.step(event.step);
      target?.retries.push(retry);
      return;
    }
    case 'step_finished': {
      const step = draft.step(event.step);
      if (!step) return;
      step.status = 'done';
      step.costUsd = event.costUsd;
      step.cumulativeUsd = event.cumulativeUsd;
      step.latencyMs = event.latencyMs;
      return;
    }
    case 'error': {
      const error: ErrorView = { code: event.code, message: event.message, fatal: event.fatal, t: event.t };
      if (error.fatal && !view.fatalError) view.fatalError = error;
      const target = (event.callId ? draft.call(event.callId) : undefined) ?? (event.step === undefined ? undefined : draft.step(event.step));
      if (target) target.errors.push(error);
      else draft.errors().push(error);
      return;
    }
    case 'run_finished':
      view.status = 'finished';
      view.stopReason = event.stopReason;
      view.answer = event.answer;
      view.totals = event.totals;
      view.totalUsd = event.totals.costUsd;
      draft.closeSteps();
      return;
  }
}

/** A step's calls with an expert's own calls after their parent, depth-first. */
export function callsOfStep(view: RunView, step: StepView): CallView[] {
  const out: CallView[] = [];
  const seen = new Set<string>();
  const visit = (callId: string) => {
    const call = view.calls[callId];
    if (!call || seen.has(callId)) return;
    seen.add(callId);
    out.push(call);
    call.childCallIds.forEach(visit);
  };
  step.callIds.forEach(visit);
  return out;
}

/**
 * Ends a run the engine could not end itself (its worker was lost, or a stop did not land in
 * time): every step is closed, and why is recorded on the run. No engine totals exist for it.
 */
export function endRun(view: RunView, stopReason: StopReason, error?: { code: string; message: string }): RunView {
  if (view.status === 'finished') return view;
  const fatal: ErrorView | undefined = error && { ...error, fatal: true, t: view.elapsedMs };
  return {
    ...view,
    fatalError: view.fatalError ?? fatal,
    status: 'finished',
    stopReason,
    answer: null,
    steps: view.steps.map((step) => (step.status === 'done' ? step : { ...step, status: 'done' })),
    errors: fatal ? [...view.errors, fatal] : view.errors,
  };
}
