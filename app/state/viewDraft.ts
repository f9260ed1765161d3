// A run view being folded: the view of the last batch, copied on first write — its steps array,
// its ledger and errors, each step and call a batch touches — at most once per batch. Unchanged
// steps and calls keep their identity, so the cards that show them do not re-render. The record
// of calls by id is the exception: it is shared by a view and the views folded from it, and
// written in place (its entries replaced, never changed), because copying a record of 100,000
// calls takes 300 ms, and a view folded from is never shown again.

import type { CallView, RunView, StepView } from './runViewTypes.ts';

export class ViewDraft {
  readonly view: RunView;
  private stepsCopied = false;
  private ledgerCopied = false;
  private errorsCopied = false;
  private readonly ownSteps = new Set<StepView>();
  private readonly ownCalls = new Set<CallView>();
  /** Each step number's newest index, built only when an event names a step other than the last. */
  private stepIndex: Map<number, number> | null = null;

  constructor(view: RunView) {
    this.view = { ...view };
  }

  private steps(): StepView[] {
    if (!this.stepsCopied) {
      this.view.steps = this.view.steps.slice();
      this.stepsCopied = true;
    }
    return this.view.steps;
  }

  ledger(): RunView['ledger'] {
    if (!this.ledgerCopied) {
      this.view.ledger = this.view.ledger.slice();
      this.ledgerCopied = true;
    }
    return this.view.ledger;
  }

  /** The run's own errors (those of no step). */
  errors(): RunView['errors'] {
    if (!this.errorsCopied) {
      this.view.errors = this.view.errors.slice();
      this.errorsCopied = true;
    }
    return this.view.errors;
  }

  addStep(step: StepView): void {
    const steps = this.steps();
    this.stepIndex?.set(step.step, steps.length);
    steps.push(step);
    this.ownSteps.add(step);
  }

  /** Where the newest step with this number is in the steps, or -1. */
  indexOf(number: number): number {
    const steps = this.view.steps;
    if (steps.at(-1)?.step === number) return steps.length - 1;
    if (!this.stepIndex) {
      this.stepIndex = new Map();
      steps.forEach((step, at) => this.stepIndex!.set(step.step, at));
    }
    return this.stepIndex.get(number) ?? -1;
  }

  /** The newest step with this number, writable; undefined when there is none. */
  step(number: number): StepView | undefined {
    const index = this.indexOf(number);
    const step = this.view.steps[index];
    if (!step) return undefined;
    return this.own(index, step);
  }

  /** The step at `index`, copied (lists and all) unless this batch copied it already. */
  private own(index: number, step: StepView): StepView {
    if (this.ownSteps.has(step)) return step;
    const copy: StepView = {
      ...step,
      callIds: step.callIds.slice(),
      orchestratorCosts: step.orchestratorCosts.slice(),
      retries: step.retries.slice(),
      errors: step.errors.slice(),
      ...(step.userTurns ? { userTurns: step.userTurns.slice() } : {}),
    };
    this.steps()[index] = copy;
    this.ownSteps.add(copy);
    return copy;
  }

  addCall(call: CallView): void {
    this.view.calls[call.callId] = call;
    this.ownCalls.add(call);
  }

  /** The call with this id, writable; undefined when there is none. */
  call(callId: string): CallView | undefined {
    const call = Object.hasOwn(this.view.calls, callId) ? this.view.calls[callId] : undefined;
    if (!call || this.ownCalls.has(call)) return call;
    const copy: CallView = {
      ...call,
      childCallIds: call.childCallIds.slice(),
      costs: call.costs.slice(),
      retries: call.retries.slice(),
      errors: call.errors.slice(),
    };
    this.view.calls[callId] = copy;
    this.ownCalls.add(copy);
    return copy;
  }

  /** The run is over: every step is done. */
  closeSteps(): void {
    this.view.steps.forEach((step, index) => {
      if (step.status !== 'done') this.own(index, step).status = 'done';
    });
  }
}
