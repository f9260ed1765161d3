// Folds a run's event stream into what the screen shows. Pure and synchronous: the store applies
// each batch from the worker in one go, and tests feed it recorded events. Nothing here is
// computed anywhere else: cost figures come from the engine's `usage` and `step_finished` events.

import type { RunEvent, RunEventOf, StopReason } from '../../workers/engine/events.ts';
import { ViewDraft } from './viewDraft.ts';

export type { ErrorView, RetryView, ModelRequestView, ModelOutputView, UserTurnView, ToolResultView, CallView, StepStatus, StepView, RunStatus, RunView } from './runViewTypes.ts';
import type { CallView, ErrorView, RetryView, RunView, StepView } from './runViewTypes.ts';

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
    slowestStep: null,
  };
}

/**
 * Applies a batch of events. Returns the same object when nothing in the batch concerned it.
 * Linear in the batch and the run's size: the batch is folded into one draft (viewDraft.ts), which
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
      const { type: _type, step: _step, runId: _runId, t: _t, ...output } = event;
      step.output = output;
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
    case 'user_turn': {
      const step = draft.step(event.step);
      if (!step) return;
      const { type: _type, step: _step, runId: _runId, ...turn } = event;
      // Before the step's request, the user opens the conversation; after it, it answers the agent.
      (step.userTurns ??= []).push(step.request || step.output ? turn : { ...turn, beforeAgent: true });
      return;
    }
    case 'tool_result': {
      const call = draft.call(event.callId);
      if (call) call.result = { ok: event.ok, content: event.content, detail: event.detail, error: event.error, latencyMs: event.latencyMs };
      return;
    }
    case 'usage':
      charged(draft, event);
      return;
    case 'retry': {
      const retry: RetryView = { attempt: event.attempt, waitMs: event.waitMs, reason: event.reason, t: event.t };
      const target = (event.callId ? draft.call(event.callId) : undefined) ?? draft.step(event.step);
      target?.retries.push(retry);
      return;
    }
    case 'step_finished':
      stepFinished(draft, event);
      return;
    case 'error':
      errored(draft, event);
      return;
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

/** A step's end: its figures, and the run's slowest step so far. */
function stepFinished(draft: ViewDraft, event: RunEventOf<'step_finished'>): void {
  const { view } = draft;
  const step = draft.step(event.step);
  if (!step) return;
  step.status = 'done';
  step.costUsd = event.costUsd;
  step.cumulativeUsd = event.cumulativeUsd;
  step.latencyMs = event.latencyMs;
  if (view.slowestStep === null || event.latencyMs > view.slowestStep.latencyMs) view.slowestStep = { step: event.step, latencyMs: event.latencyMs };
}

/** An error: on the call or step it happened in, else the run's; the first fatal one is the run's. */
function errored(draft: ViewDraft, event: RunEventOf<'error'>): void {
  const { view } = draft;
  const error: ErrorView = { code: event.code, message: event.message, fatal: event.fatal, t: event.t };
  if (error.fatal && !view.fatalError) view.fatalError = error;
  const target = (event.callId ? draft.call(event.callId) : undefined) ?? (event.step === undefined ? undefined : draft.step(event.step));
  if (target) target.errors.push(error);
  else draft.errors().push(error);
}

/** A charge: in the ledger, on the call or the step it paid for, and in the step's figures. */
function charged(draft: ViewDraft, event: RunEventOf<'usage'>): void {
  const { view } = draft;
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
