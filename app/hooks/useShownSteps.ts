import { heldSteps, revealedFor, shownSteps } from '../state/pacing.ts';
import { useRunStore, useViewStore } from '../state/context.tsx';

export interface ShownSteps {
  /** Steps on screen. */
  shown: number;
  /** Steps the run has (live or replayed). */
  total: number;
  /** Steps held back by presenter view's pacing: 0 outside it. */
  held: number;
}

/** How many of the run's steps are shown: all of them, except in presenter view (app/state/pacing.ts). */
export function useShownSteps(): ShownSteps {
  const total = useRunStore((state) => state.run?.steps.length ?? 0);
  const runId = useRunStore((state) => state.run?.runId ?? null);
  const revealed = useViewStore((state) => (state.presenter ? revealedFor(state.pacing, runId) : Infinity));
  return { shown: shownSteps(revealed, total), total, held: heldSteps(revealed, total) };
}
