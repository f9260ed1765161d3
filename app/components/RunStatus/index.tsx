import type { ReactNode } from 'react';
import { describeStopReason, explainError, isAnswered } from '../../errors/explain.ts';
import { formatMs, formatUsd } from '../../format.ts';
import { useRunStore } from '../../state/runStore.ts';
import { useElapsedMs } from '../../hooks/useElapsedMs.ts';
import './RunStatus.css';

/** One line on where the run is: starting, running (step, cost, time), stopping, or how it ended. */
export function RunStatus() {
  const phase = useRunStore((state) => state.phase);
  const rejection = useRunStore((state) => state.rejection);
  const crash = useRunStore((state) => state.crash);
  const lastStopMs = useRunStore((state) => state.lastStopMs);
  const status = useRunStore((state) => state.run?.status);
  const stepCount = useRunStore((state) => state.run?.steps.length ?? 0);
  const totalUsd = useRunStore((state) => state.run?.totalUsd ?? 0);
  const stopReason = useRunStore((state) => state.run?.stopReason);
  const fatal = useRunStore((state) => {
    const run = state.run;
    if (!run) return undefined;
    return [...run.errors, ...run.steps.flatMap((step) => step.errors)].find((error) => error.fatal);
  });
  const running = phase === 'running' || phase === 'starting' || phase === 'stopping';
  const elapsedMs = useElapsedMs();

  let tone: 'neutral' | 'success' | 'warning' | 'danger' = 'neutral';
  let body: ReactNode;
  if (crash) {
    tone = 'danger';
    body = <>The orchestrator stopped working: {crash} Reload the page to start it again.</>;
  } else if (rejection) {
    tone = 'danger';
    body = (
      <>
        <strong>The run could not start.</strong>
        <ul>
          {rejection.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </>
    );
  } else if (phase === 'starting' && status === undefined) {
    body = 'Starting…';
  } else if (running) {
    body = (
      <>
        {phase === 'stopping' ? 'Stopping…' : 'Running'} · step {Math.max(stepCount, 1)} · {formatUsd(totalUsd)} ·{' '}
        {formatMs(elapsedMs ?? 0)}
      </>
    );
  } else if (stopReason) {
    tone = isAnswered(stopReason) ? 'success' : stopReason === 'aborted' ? 'neutral' : stopReason === 'error' ? 'danger' : 'warning';
    body = (
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

  return (
    <div role="status" aria-label="Run status" aria-live="polite" className={`run-status run-status-${tone}`}>
      {body}
    </div>
  );
}
