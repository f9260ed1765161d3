// The current run as the screen shows it: the folded event stream plus where the page is in the
// run's life (starting, running, stopping). Only app/state/session.ts and tests change it.

import { create } from 'zustand';
import type { RunEvent } from '../../workers/engine/events.ts';
import { foldEvents, type RunView } from './runView.ts';

export type RunPhase = 'idle' | 'starting' | 'running' | 'stopping';

export interface RunState {
  run: RunView | null;
  phase: RunPhase;
  /** The id of the run the page asked for (its events may not have arrived yet). */
  pendingRunId: string | null;
  /** Why the last run could not start (an invalid config), in plain words. */
  rejection: string[] | null;
  /** The worker itself failed (it should not): shown instead of a blank screen. */
  crash: string | null;
  /** When Stop was pressed (performance.now()), to say how long stopping took. */
  stopRequestedAt: number | null;
  /** How long the last stop took from the press to the run's end, in ms. */
  lastStopMs: number | null;
}

const initialState: RunState = {
  run: null,
  phase: 'idle',
  pendingRunId: null,
  rejection: null,
  crash: null,
  stopRequestedAt: null,
  lastStopMs: null,
};

export const useRunStore = create<RunState>()(() => initialState);

export const runActions = {
  starting(runId: string): void {
    useRunStore.setState({ phase: 'starting', pendingRunId: runId, rejection: null, crash: null, stopRequestedAt: null, lastStopMs: null });
  },
  applyEvents(events: readonly RunEvent[]): void {
    useRunStore.setState((state) => {
      const relevant = events.filter((event) => event.runId === state.pendingRunId);
      if (relevant.length === 0) return state;
      const run = foldEvents(state.run?.runId === state.pendingRunId ? state.run : null, relevant);
      const finished = run?.status === 'finished';
      const phase: RunPhase = finished ? 'idle' : state.phase === 'stopping' ? 'stopping' : 'running';
      const lastStopMs = finished && state.stopRequestedAt !== null ? performance.now() - state.stopRequestedAt : state.lastStopMs;
      return { run, phase, lastStopMs, stopRequestedAt: finished ? null : state.stopRequestedAt };
    });
  },
  stopping(): void {
    useRunStore.setState({ phase: 'stopping', stopRequestedAt: performance.now() });
  },
  rejected(runId: string, problems: string[]): void {
    useRunStore.setState((state) => (state.pendingRunId === runId ? { phase: 'idle', rejection: problems } : state));
  },
  crashed(message: string): void {
    useRunStore.setState({ phase: 'idle', crash: message });
  },
  /** Shows a recorded run (an import) without running anything. */
  show(run: RunView): void {
    useRunStore.setState({ ...initialState, run, pendingRunId: run.runId });
  },
  reset(): void {
    useRunStore.setState(initialState);
  },
};
