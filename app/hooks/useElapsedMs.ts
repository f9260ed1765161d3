import { useNow } from './useNow.ts';
import { useRunStore } from '../state/context.tsx';

const TICK_MS = 200;

/** Wall-clock time of the current run: ticking while it runs (also between events, during a
 * long call), the engine's own figure once it finished; null before any run. */
export function useElapsedMs(): number | null {
  const startedAt = useRunStore((state) => state.run?.startedAt);
  const running = useRunStore((state) => state.run?.status === 'running');
  const reportedMs = useRunStore((state) => state.run?.totals?.latencyMs ?? state.run?.elapsedMs ?? null);
  const now = useNow(running ? TICK_MS : null);
  if (startedAt === undefined || reportedMs === null) return null;
  if (!running) return reportedMs;
  return Math.max(reportedMs, now - Date.parse(startedAt));
}
