// The banner over a run shown from history: it says, wherever the run shows, that this is a
// recording (or a replay of one), never a live run, and holds the replay's controls.

import { closeStoredRun, replayStoredRun } from '../../state/history.ts';
import { pause, nextStep, previousStep, REPLAY_SPEEDS, resume, setReplaySpeed, useReplayStore, type ReplaySpeed } from '../../state/replay.ts';
import { useRunStore } from '../../state/runStore.ts';
import { formatMs } from '../../format.ts';
import './StoredRun.css';

const SPEED_LABELS: Record<string, string> = { 1: '1×', 4: '4×', 16: '16×', instant: 'At once' };

export function StoredRunBanner() {
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
          <button type="button" onClick={() => void replayStoredRun(summary.id)}>
            Replay
          </button>
        )}
        <button type="button" onClick={closeStoredRun}>
          Close
        </button>
      </div>
    </section>
  );
}

function ReplayControls() {
  const { playing, speed, step, steps, cursor, total, atMs } = useReplayStore();
  const done = cursor >= total;
  return (
    <div className="replay-controls" role="group" aria-label="Replay controls">
      <button type="button" onClick={previousStep} disabled={cursor <= 1} aria-label="Previous step">
        ◀ Step
      </button>
      {playing ? (
        <button type="button" onClick={pause}>
          Pause
        </button>
      ) : (
        <button type="button" onClick={resume}>
          {done ? 'Play again' : 'Play'}
        </button>
      )}
      <button type="button" onClick={nextStep} disabled={done} aria-label="Next step">
        Step ▶
      </button>
      <label className="replay-speed">
        Speed{' '}
        <select value={String(speed)} onChange={(event) => setReplaySpeed(parseSpeed(event.target.value))}>
          {REPLAY_SPEEDS.map((option) => (
            <option key={String(option)} value={String(option)}>
              {SPEED_LABELS[String(option)]}
            </option>
          ))}
        </select>
      </label>
      <span className="replay-position" aria-live="off">
        Step {step} of {steps} · {formatMs(atMs)}
      </span>
      <progress max={Math.max(total, 1)} value={cursor} aria-label="Replay progress" />
    </div>
  );
}

function parseSpeed(value: string): ReplaySpeed {
  return value === 'instant' ? 'instant' : (Number(value) as ReplaySpeed);
}
