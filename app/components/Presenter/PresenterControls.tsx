import { useEffect, useRef } from 'react';
import { useShownSteps } from '../../hooks/useShownSteps.ts';
import { useRunStore, useViewActions } from '../../state/context.tsx';

/** Presenter view's pacing in the trace's toolbar: where the class is, Next step, Show all. */
export function PresenterControls() {
  const viewActions = useViewActions();
  const { shown, total, held } = useShownSteps();
  const running = useRunStore((state) => state.run?.status === 'running');
  // Nothing to let through yet: the next step shows as soon as it starts once asked for.
  const waiting = held === 0 && !running;
  const runId = useRunStore((state) => state.run?.runId ?? null);
  const next = useRef<HTMLButtonElement>(null);
  // The run's start took the side column (and Run, Stop, "Try the demo") off the projector: the
  // keyboard's focus goes where the next action is, to "Show next step", not to the page's body.
  useEffect(() => {
    const focused = document.activeElement;
    const lost = focused === null || focused === document.body || (focused instanceof HTMLElement && !focused.checkVisibility());
    if (lost) next.current?.focus({ preventScroll: true });
  }, [runId, shown, running]);
  return (
    <div className="presenter-controls" role="group" aria-label="Presenter pacing">
      <span className="presenter-position" aria-live="polite">
        Step {shown} of {total}
      </span>
      <button ref={next} type="button" className="primary small" onClick={viewActions.revealNextStep} disabled={waiting} aria-keyshortcuts="Space">
        Show next step <kbd aria-hidden="true">Space</kbd>
      </button>
      <button type="button" className="small" onClick={viewActions.revealAllSteps} disabled={held === 0}>
        Show all
      </button>
    </div>
  );
}

/** At the end of the shown steps while more are held back. */
export function HeldSteps() {
  const { shown, held } = useShownSteps();
  if (held === 0) return null;
  return (
    <p className="presenter-held" role="note">
      Step {shown + 1} is ready{held > 1 ? ` (and ${held - 1} more)` : ''}. Press <kbd>Space</kbd> or <strong>Show next step</strong>.
    </p>
  );
}
