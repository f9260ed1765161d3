import { explainError } from '../../errors/explain.ts';
import { clipForDisplay } from '../../format.ts';
import type { ErrorView } from '../../state/runView.ts';

/** An error where it happened: what kind of problem, the message, what to do. */
export function ErrorNotice({ error }: { error: ErrorView }) {
  const { title, hint } = explainError(error.code);
  return (
    <div className={`trace-error${error.fatal ? ' fatal' : ''}`} role={error.fatal ? 'alert' : 'note'}>
      <p className="trace-error-title">{title}</p>
      {error.message ? <p className="trace-error-message">{clipForDisplay(error.message)}</p> : null}
      {hint ? <p className="trace-error-hint">{hint}</p> : null}
    </div>
  );
}
