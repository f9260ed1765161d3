import { explainError } from '../../errors/explain.ts';
import { clipForDisplay } from '../../format.ts';
import type { ErrorView } from '../../state/runView.ts';

/**
 * An error where it happened: what kind of problem, the message, what to do. The error that
 * ended the run is explained once, in the run's status line; where it happened only says so.
 */
export function ErrorNotice({ error }: { error: ErrorView }) {
  if (error.fatal) {
    return (
      <div className="trace-error fatal" role="note">
        <p className="trace-error-title">The run stopped here: the status above says why.</p>
      </div>
    );
  }
  const { title, hint } = explainError(error.code);
  return (
    <div className="trace-error" role="note">
      <p className="trace-error-title">{title}</p>
      {error.message ? <p className="trace-error-message">{clipForDisplay(error.message)}</p> : null}
      {hint ? <p className="trace-error-hint">{hint}</p> : null}
    </div>
  );
}
