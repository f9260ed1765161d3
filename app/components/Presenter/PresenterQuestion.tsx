import { useId } from 'react';
import { clipForDisplay } from '../../format.ts';
import { useRunStore } from '../../state/context.tsx';

/** The projector's headline: the question the run on screen answers, large, above the trace and
 * the cost chart (the side column, where it was typed, is not shown while projecting). */
export function PresenterQuestion() {
  const task = useRunStore((state) => state.run?.task ?? '');
  const labelId = useId();
  return (
    <section className="presenter-question" aria-labelledby={labelId}>
      <h2 id={labelId} className="presenter-question-label">
        Question
      </h2>
      <p className="presenter-question-text">{clipForDisplay(task)}</p>
    </section>
  );
}
