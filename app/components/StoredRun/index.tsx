// The banner over a run shown from history: it says, wherever the run shows, that this is a
// recording (or a replay of one), never a live run, and holds the replay's controls.

import { useState } from 'react';
import { REPLAY_SPEEDS, type ReplaySpeed } from '../../state/replay.ts';
import { formatCount, formatMs, formatUsd } from '../../format.ts';
import './StoredRun.css';
import { usePart, useRunStore, useSelected } from '../../state/context.tsx';
import { createHistory } from '../../state/history.ts';
import { taskDomainLabel } from '../../../workers/domains/taskDomainNames.ts';
import { MAX_TASK_CHARS } from '../../../workers/engine/events.ts';

const SPEED_LABELS: Record<string, string> = { 1: '1×', 4: '4×', 16: '16×', instant: 'At once' };

export function StoredRunBanner() {
  const historyFlow = usePart(createHistory);
  const stored = useRunStore((state) => state.stored);
  if (!stored) return null;
  const { summary, mode, interruptedAtStep } = stored;
  const recorded = new Date(summary.startedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className={`stored-run stored-run-${mode}`} aria-label={mode === 'replay' ? 'Replay' : 'Recorded run'} data-testid="stored-run-banner">
      <p className="stored-run-label">
        <strong>{mode === 'replay' ? 'Replay' : 'Recorded run'}</strong> of a run from {recorded} — not live: nothing is called.
        {interruptedAtStep !== null ? <> It was interrupted at step {interruptedAtStep}.</> : null}
      </p>
      <div className="stored-run-actions">
        {mode === 'replay' ? <ReplayControls /> : (
          <button type="button" onClick={() => void historyFlow.replayStoredRun(summary.id)}>
            Replay
          </button>
        )}
        <button type="button" onClick={historyFlow.closeStoredRun}>
          Close
        </button>
      </div>
      {mode === 'view' ? <RunAgain runId={summary.id} totalUsd={summary.costUsd} domain={summary.domain} /> : null}
    </section>
  );
}

function ReplayControls() {
  const replay = usePart(createHistory).replay;
  const { playing, speed, step, steps, cursor, total, atMs } = useSelected(replay.store, (state) => state);
  const done = cursor >= total;
  return (
    <div className="replay-controls" role="group" aria-label="Replay controls">
      <button type="button" onClick={replay.previousStep} disabled={cursor <= 1} aria-label="Previous step">
        ◀ Step
      </button>
      {playing ? (
        <button type="button" onClick={replay.pause}>
          Pause
        </button>
      ) : (
        <button type="button" onClick={replay.resume}>
          {done ? 'Play again' : 'Play'}
        </button>
      )}
      <button type="button" onClick={replay.nextStep} disabled={done} aria-label="Next step">
        Step ▶
      </button>
      <label className="replay-speed">
        Speed{' '}
        <select value={String(speed)} onChange={(event) => replay.setSpeed(parseSpeed(event.target.value))}>
          {REPLAY_SPEEDS.map((option) => (
            <option key={String(option)} value={String(option)}>
              {SPEED_LABELS[String(option)]}
            </option>
          ))}
        </select>
      </label>
      <span className="replay-position" aria-live="off">
        Step {formatCount(step)} of {formatCount(steps)} · {formatMs(atMs)}
      </span>
      <progress max={Math.max(total, 1)} value={cursor} aria-label="Replay progress" />
    </div>
  );
}

function parseSpeed(value: string): ReplaySpeed {
  return value === 'instant' ? 'instant' : (Number(value) as ReplaySpeed);
}

/** Up to this many finished steps are offered in a list; a longer run takes a step number (a
 * list of 100,000 options took seconds to draw). */
const LISTED_STEPS = 200;

/** "Run again from here": the task again with the current Setup and preferences, from the start
 * or after a chosen step (the steps before kept as recorded), with what it will cost said first. */
function RunAgain({ runId, totalUsd, domain }: { runId: string; totalUsd: number; domain: string | undefined }) {
  const historyFlow = usePart(createHistory);
  // The steps as the store holds them (a fresh [] from the selector while a run is still being
  // read would be a new value every render, and React would render again without end).
  const steps = useRunStore((state) => state.run?.steps) ?? [];
  const finished = steps.filter((step) => step.status === 'done' && step.latencyMs !== undefined);
  const [after, setAfter] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const keptUsd = after === 0 ? 0 : (finished.find((step) => step.step === after)?.cumulativeUsd ?? 0);
  const estimate =
    after === 0
      ? `Runs the whole task again: every model is called again and it costs money (this run cost ${formatUsd(totalUsd)}).`
      : `Steps 1–${after} are kept as recorded and call nothing; from step ${after + 1} on, models are called and cost money (this run’s later steps cost ${formatUsd(Math.max(0, totalUsd - keptUsd))}).`;
  const start = async () => {
    if (!window.confirm(`${estimate}\n\nIt uses your current Setup and preferences. Start?`)) return;
    const outcome = await historyFlow.runAgain(runId, after);
    setProblem(
      typeof outcome === 'object' && outcome !== null
        ? outcome.refused
        : outcome === 'invalid_config'
          ? 'Your current Setup has problems: the status line says which.'
          : outcome === 'busy'
            ? 'A run is going: wait for it to end.'
            : outcome === 'task_too_long'
              ? `Its task is longer than a run's task may be (${formatCount(MAX_TASK_CHARS)} characters): it cannot run again.`
              : null,
    );
  };
  return (
    <div className="run-again" role="group" aria-label="Run again">
      <label>
        Run again{' '}
        {finished.length <= LISTED_STEPS ? (
          <select value={after} onChange={(event) => setAfter(Number(event.target.value))} aria-label="Run again from">
            <option value={0}>from the start</option>
            {finished.map((step) => (
              <option key={step.step} value={step.step}>
                after step {step.step}
              </option>
            ))}
          </select>
        ) : (
          <>
            after step{' '}
            <input
              type="number"
              min={0}
              max={finished.at(-1)?.step ?? 0}
              value={after}
              aria-label="Run again after step (0: from the start)"
              onChange={(event) => setAfter(finished.some((step) => step.step === Number(event.target.value)) ? Number(event.target.value) : 0)}
            />
          </>
        )}
      </label>{' '}
      <button type="button" onClick={() => void start()}>
        Run again
      </button>
      <p className="run-again-estimate">
        {estimate} It uses your current Setup and preferences: change them first to see where the route parts.
        {domain ? ` It plays in the same domain, ${taskDomainLabel(domain) ?? `"${domain}"`}.` : ''}
      </p>
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}
