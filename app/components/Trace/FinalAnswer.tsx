import { describeStopReason, isAnswered } from '../../errors/explain.ts';
import { clipForDisplay, formatCount, formatMs } from '../../format.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { costFigure } from './summary.ts';
import { useRunStore } from '../../state/context.tsx';

/** The end of the trace: the answer (or why there is none) and what the run took. */
export function FinalAnswer() {
  const stopReason = useRunStore((state) => state.run?.stopReason);
  const answer = useRunStore((state) => state.run?.answer ?? null);
  const totals = useRunStore((state) => state.run?.totals);
  const errors = useRunStore((state) => state.run?.errors);

  // The error that ended the run is explained in the status line, not again here.
  const runErrors = errors?.filter((error) => !error.fatal).map((error, i) => <ErrorNotice key={i} error={error} />);
  if (!stopReason || !totals) return runErrors?.length ? <div className="run-errors">{runErrors}</div> : null;

  const answered = isAnswered(stopReason);
  const cost = costFigure(totals.costUsd, { estimated: totals.hasEstimates, unknown: totals.unknownCostEntries > 0 });
  return (
    <section className={`final-answer${answered ? ' answered' : ' stopped'}`} aria-label="Final answer">
      <p className="final-label">{answered ? 'Final answer' : describeStopReason(stopReason)}</p>
      {answer !== null ? <p className="final-text">{clipForDisplay(answer) || '(empty answer)'}</p> : <p className="muted">No answer.</p>}
      <p className="final-facts">
        {formatCount(totals.turns)} step{totals.turns === 1 ? '' : 's'} · {formatMs(totals.latencyMs)} ·{' '}
        <span className={cost.estimated ? 'estimate-figure' : undefined} title={cost.estimated ? 'Includes estimates' : undefined}>
          {cost.text}
        </span>
        {totals.promptTokens + totals.completionTokens > 0
          ? ` · ${formatCount(totals.promptTokens)} in · ${formatCount(totals.completionTokens)} out`
          : ''}
      </p>
      {runErrors}
    </section>
  );
}
