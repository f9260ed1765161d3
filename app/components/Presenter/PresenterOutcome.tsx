import { isAnswered } from '../../errors/explain.ts';
import { clipForDisplay } from '../../format.ts';
import { useRunStore } from '../../state/context.tsx';

/** Presenter view's status banner, once every step is shown: the answer itself, beside the
 * outcome, the cost and the time the banner already gives. */
export function PresenterOutcome() {
  const stopReason = useRunStore((state) => state.run?.stopReason);
  const answer = useRunStore((state) => state.run?.answer ?? null);
  if (!stopReason || !isAnswered(stopReason) || answer === null) return null;
  return (
    <span className="presenter-answer">
      <span className="presenter-answer-label">Answer</span> {clipForDisplay(answer) || '(empty answer)'}
    </span>
  );
}
