// Folds a run's event stream into what the screen shows. Pure and synchronous: the store applies
// each batch from the worker in one go, and tests feed it recorded events. Nothing here is
// computed anywhere else: cost figures come from the engine's `usage` and `step_finished` events.

import type { LedgerEntry, RunEvent, RunEventOf, RunTotals, StopReason } from '../../workers/engine/events.ts';

/** An error event as a step or call shows it (`t`: milliseconds since the run started). */
export type ErrorView = Pick<RunEventOf<'error'>, 'code' | 'message' | 'fatal' | 't'>;

/** A retry wait; `t` is when it began (ms since the run started), for a countdown. */
export type RetryView = Pick<RunEventOf<'retry'>, 'attempt' | 'waitMs' | 'reason' | 't'>;

/** "What the model saw" and what it answered, for one orchestrator turn. */
export type ModelRequestView = Pick<RunEventOf<'model_request'>, 'messages' | 'tools' | 'toolMode' | 'renderedPrompt'>;

export type ModelOutputView = Omit<RunEventOf<'model_output'>, 'type' | 'step' | 'runId' | 't'>;

/** A τ² conversation's simulated user speaking (or acting on its phone) after the agent. */
export type UserTurnView = Omit<RunEventOf<'user_turn'>, 'type' | 'step' | 'runId'>;

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
  /** What the simulated user said after this turn (τ² conversations), in order. */
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
  calls: Record<string, CallView>;
  ledger: LedgerEntry[];
  totalUsd: number;
  /** Milliseconds since the start, as of the latest event. */
  elapsedMs: number;
  /** Errors that belong to no step (a config or setup failure). */
  errors: ErrorView[];
  /** The first error that ended the run, wherever it is shown. */
  fatalError?: ErrorView;
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
    calls: {},
    ledger: [],
    totalUsd: 0,
    elapsedMs: t,
    errors: [],
  };
}

/** Applies a batch of events. Returns the same object when nothing in the batch concerned it. */
export function foldEvents(view: RunView | null, events: readonly RunEvent[]): RunView | null {
  let next = view;
  for (const event of events) {
    if (event.type === 'run_started') {
      next = startView(event);
      continue;
    }
    if (!next || event.runId !== next.runId) continue;
    next = foldEvent(next, event);
  }
  return next;
}

function foldEvent(view: RunView, event: RunEvent): RunView {
  const base: RunView = { ...view, elapsedMs: Math.max(view.elapsedMs, event.t) };
  switch (event.type) {
    case 'run_started':
      return startView(event);
    case 'step_started':
      return stepStarted(base, event);
    case 'model_request':
      return updateStep(base, event.step, (step) => ({
        ...step,
        request: {
          messages: event.messages,
          tools: event.tools,
          toolMode: event.toolMode,
          renderedPrompt: event.renderedPrompt,
        },
      }));
    case 'reasoning_delta':
    case 'content_delta': {
      const field = event.type === 'reasoning_delta' ? 'reasoning' : 'content';
      if (event.callId) return updateCall(base, event.callId, (call) => ({ ...call, [field]: call[field] + event.text }));
      return updateStep(base, event.step, (step) => ({ ...step, [field]: step[field] + event.text }));
    }
    case 'model_output':
      return updateStep(base, event.step, (step) => ({
        ...step,
        status: 'calling',
        output: {
          raw: event.raw,
          reasoning: event.reasoning,
          message: event.message,
          calls: event.calls,
          rejected: event.rejected,
          finishReason: event.finishReason,
          latencyMs: event.latencyMs,
          timeToFirstTokenMs: event.timeToFirstTokenMs,
        },
      }));
    case 'tool_call':
      return callStarted(base, event);
    case 'user_turn': {
      const { type: _type, step: _step, runId: _runId, ...turn } = event;
      return updateStep(base, event.step, (step) => ({ ...step, userTurns: [...(step.userTurns ?? []), turn] }));
    }
    case 'tool_result':
      return updateCall(base, event.callId, (call) => ({
        ...call,
        result: { ok: event.ok, content: event.content, detail: event.detail, error: event.error, latencyMs: event.latencyMs },
      }));
    case 'usage':
      return charged(base, event);
    case 'retry': {
      const retry: RetryView = { attempt: event.attempt, waitMs: event.waitMs, reason: event.reason, t: event.t };
      if (event.callId && base.calls[event.callId]) {
        return updateCall(base, event.callId, (call) => ({ ...call, retries: [...call.retries, retry] }));
      }
      return updateStep(base, event.step, (step) => ({ ...step, retries: [...step.retries, retry] }));
    }
    case 'step_finished':
      return updateStep(base, event.step, (step) => ({
        ...step,
        status: 'done',
        costUsd: event.costUsd,
        cumulativeUsd: event.cumulativeUsd,
        latencyMs: event.latencyMs,
      }));
    case 'error':
      return errorFolded(base, event);
    case 'run_finished':
      return {
        ...base,
        status: 'finished',
        stopReason: event.stopReason,
        answer: event.answer,
        totals: event.totals,
        totalUsd: event.totals.costUsd,
        steps: base.steps.map((step) => (step.status === 'done' ? step : { ...step, status: 'done' })),
      };
  }
}

/** A new step on screen, thinking. */
function stepStarted(base: RunView, event: RunEventOf<'step_started'>): RunView {
  return {
    ...base,
    steps: [
      ...base.steps,
      {
        step: event.step,
        status: 'thinking',
        reasoning: '',
        content: '',
        callIds: [],
        orchestratorCosts: [],
        costUsd: 0,
        hasUnknownCost: false,
        hasEstimates: false,
        cumulativeUsd: base.totalUsd,
        startedAt: event.t,
        retries: [],
        errors: [],
      },
    ],
  };
}

/** A call of a step (or of another call: a sub-agent's), on screen under its parent. */
function callStarted(base: RunView, event: RunEventOf<'tool_call'>): RunView {
  const call: CallView = {
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
  const withCall: RunView = { ...base, calls: { ...base.calls, [call.callId]: call } };
  if (event.parentCallId && withCall.calls[event.parentCallId]) {
    return updateCall(withCall, event.parentCallId, (parent) => ({
      ...parent,
      childCallIds: [...parent.childCallIds, call.callId],
    }));
  }
  return updateStep(withCall, event.step, (step) => ({ ...step, callIds: [...step.callIds, call.callId] }));
}

/** A charge: in the ledger, on the call or the step it paid for, and in the step's figures. */
function charged(base: RunView, event: RunEventOf<'usage'>): RunView {
  const { entry } = event;
  const charged: RunView = { ...base, ledger: [...base.ledger, entry], totalUsd: event.totalUsd };
  const withEntry =
    entry.callId && charged.calls[entry.callId]
      ? updateCall(charged, entry.callId, (call) => ({ ...call, costs: [...call.costs, entry] }))
      : updateStep(charged, event.step, (step) => ({ ...step, orchestratorCosts: [...step.orchestratorCosts, entry] }));
  return updateStep(withEntry, event.step, (step) => ({
    ...step,
    costUsd: step.costUsd + (entry.usd ?? 0),
    hasUnknownCost: step.hasUnknownCost || entry.usd === null,
    hasEstimates: step.hasEstimates || (entry.basis === 'estimated' && entry.usd !== null),
    cumulativeUsd: event.totalUsd,
  }));
}

/** An error, on the call or step it belongs to, else on the run; the first fatal one ends it. */
function errorFolded(base: RunView, event: RunEventOf<'error'>): RunView {
  const error: ErrorView = { code: event.code, message: event.message, fatal: event.fatal, t: event.t };
  if (error.fatal && !base.fatalError) base.fatalError = error;
  if (event.callId && base.calls[event.callId]) {
    return updateCall(base, event.callId, (call) => ({ ...call, errors: [...call.errors, error] }));
  }
  if (event.step !== undefined && base.steps.some((step) => step.step === event.step)) {
    return updateStep(base, event.step, (step) => ({ ...step, errors: [...step.errors, error] }));
  }
  return { ...base, errors: [...base.errors, error] };
}

function updateStep(view: RunView, stepNumber: number, change: (step: StepView) => StepView): RunView {
  // Events almost always concern the newest step: search from the end.
  for (let i = view.steps.length - 1; i >= 0; i--) {
    const step = view.steps[i];
    if (step?.step === stepNumber) {
      const steps = view.steps.slice();
      steps[i] = change(step);
      return { ...view, steps };
    }
  }
  return view;
}

function updateCall(view: RunView, callId: string, change: (call: CallView) => CallView): RunView {
  const call = view.calls[callId];
  if (!call) return view;
  return { ...view, calls: { ...view.calls, [callId]: change(call) } };
}

/** A step's calls with an expert's own calls after their parent, depth-first. */
export function callsOfStep(view: RunView, step: StepView): CallView[] {
  const out: CallView[] = [];
  const visit = (callId: string) => {
    const call = view.calls[callId];
    if (!call) return;
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
