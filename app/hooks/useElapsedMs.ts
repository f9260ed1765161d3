import { useNow } from './useNow.ts';
import { useRunStore } from '../state/context.tsx';

const TICK_MS = 200;

/** Wall-clock time of the current run: ticking while it runs live (also between events, during a
 * long call), the engine's own figure once it finished; null before any run. A run from history
 * (a replay) has no wall clock of its own: its time is the recorded time the replay has reached,
 * the replay's position, not the time since it was recorded. */
export function useElapsedMs(): number | null {
  const startedAt = useRunStore((state) => state.run?.startedAt);
  const live = useRunStore((state) => state.run?.status === 'running' && state.stored === null);
  // While a live run goes, the engine's figure moves with every event: read to the tick, so the
  // panels that show it re-render with the clock, not with each streamed token.
  const reportedMs = useRunStore((state) => {
    const run = state.run;
    if (!run) return null;
    if (run.totals) return run.totals.latencyMs;
    return run.status === 'running' && state.stored === null ? Math.floor(run.elapsedMs / TICK_MS) * TICK_MS : run.elapsedMs;
  });
  const now = useNow(live ? TICK_MS : null);
  if (startedAt === undefined || reportedMs === null) return null;
  if (!live) return reportedMs;
  return Math.max(reportedMs, now - Date.parse(startedAt));
}
