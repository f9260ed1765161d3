// Presenter view's pacing: which steps of the run on screen are shown. The run goes on underneath
// (live or replayed) and nothing of it is lost; the presenter lets the steps through one at a
// time, so a class sees each decision before the next one. Pure: the view store keeps the state.

/** How far the presenter has let a run through: `revealed` steps of the run `runId`. */
export interface Pacing {
  runId: string | null;
  revealed: number;
}

/** A run the presenter has not paced yet starts at its first step. */
export function revealedFor(pacing: Pacing, runId: string | null): number {
  return pacing.runId === runId ? pacing.revealed : 1;
}

/** Steps on screen: those let through that have started (a step that has not started yet shows
 * as soon as it does). */
export function shownSteps(revealed: number, stepCount: number): number {
  return Math.max(0, Math.min(stepCount, revealed));
}

/** Steps that have started underneath but are held back. */
export function heldSteps(revealed: number, stepCount: number): number {
  return Math.max(0, stepCount - shownSteps(revealed, stepCount));
}

/** "Next step": one more step. Pressed while the last step shown is still the newest, it lets the
 * next one through as soon as it starts, never further ahead than that. */
export function revealNext(revealed: number, stepCount: number): number {
  return Math.min(Math.max(1, revealed) + 1, Math.max(1, stepCount) + 1);
}

/** "Show all": every step there is now; the steps that follow are paced again. */
export function revealAll(stepCount: number): number {
  return Math.max(1, stepCount);
}
