import type { ReactNode } from 'react';
import { describeStopReason, explainError, isAnswered } from '../../errors/explain.ts';
import { formatMs, formatUsd } from '../../format.ts';
import { useElapsedMs } from '../../hooks/useElapsedMs.ts';
import { useRunStore } from '../../state/runStore.ts';
import './RunStatus.css';

/**
 * One line on where the run is: starting, running (step, cost, time), stopping, or how it ended.
 * Only the phase and the outcome are announced to screen readers; the ticking cost and clock sit
 * outside the live region, or they would be read out several times a second.
 */
export function RunStatus() {
  const phase = useRunStore((state) => state.phase);
  const rejection = useRunStore((state) => state.rejection);
  const crash = useRunStore((state) => state.crash);
  const lastStopMs = useRunStore((state) => state.lastStopMs);
  const hasRun = useRunStore((state) => state.run !== null);
  const stepCount = useRunStore((state) => state.run?.steps.length ?? 0);
  const totalUsd = useRunStore((state) => state.run?.totalUsd ?? 0);
  const stopReason = useRunStore((state) => state.run?.stopReason);
  const fatal = useRunStore((state) => state.run?.fatalError);
  const running = phase === 'running' || phase === 'starting' || phase === 'stopping';
  const elapsedMs = useElapsedMs();

  let tone: 'neutral' | 'success' | 'warning' | 'danger' = 'neutral';
  let announced: ReactNode = null;
  if (rejection) {
    tone = 'danger';
    announced = (
      <>
        <strong>The run could not start.</strong>
        <ul>
          {rejection.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </>
    );
  } else if (running) {
    announced = phase === 'stopping' ? 'Stopping…' : hasRun ? `Running · step ${Math.max(stepCount, 1)}` : 'Starting…';
  } else if (stopReason) {
    tone = isAnswered(stopReason) ? 'success' : stopReason === 'aborted' ? 'neutral' : stopReason === 'error' ? 'danger' : 'warning';
    announced = (
      <>
        <strong>{describeStopReason(stopReason)}</strong>
        {stopReason === 'aborted' && lastStopMs !== null && <> in {formatMs(lastStopMs)}</>}
        {' · '}
        {stepCount} {stepCount === 1 ? 'step' : 'steps'} · {formatUsd(totalUsd)} · {formatMs(elapsedMs)}
        {stopReason === 'error' && fatal && (
          <span className="run-status-detail">
            {explainError(fatal.code).title}: {fatal.message}
          </span>
        )}
      </>
    );
  }
  if (crash) tone = 'danger';

  return (
    <div className={`run-status run-status-${tone}`}>
      <div role="status" aria-label="Run status" aria-live="polite" className="run-status-announced">
        {announced}
        {crash && (
          <span className="run-status-detail">
            The orchestrator worker stopped ({crash}). A fresh one starts with the next run; keys that were kept only in
            memory must be entered again in Setup.
          </span>
        )}
      </div>
      {running && hasRun && (
        <span className="run-status-meter" aria-hidden="true">
          {formatUsd(totalUsd)} · {formatMs(elapsedMs ?? 0)}
        </span>
      )}
    </div>
  );
}
