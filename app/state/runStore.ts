// The current run as the screen shows it: the folded event stream plus where the page is in the
// run's life (starting, running, stopping). Only the flows in app/state/ change it (the session,
// history and replay); each set of stores has its own (createRunStore).

import type { StoreApi } from 'zustand/vanilla';
import type { RunEvent } from '../../workers/engine/events.ts';
import type { HumanTurn } from '../../workers/engine/types.ts';
import type { RunSummary } from '../../workers/history/runLog.ts';
import { endRun, foldEvents, type RunView } from './runView.ts';
import { makeStore, plainStore, type StoreWithActions } from './storeKit.ts';

export type RunPhase = 'idle' | 'starting' | 'running' | 'stopping';

/** A run shown from history rather than live: as it was recorded, or re-streamed as a replay. */
export interface StoredRunShown {
  summary: RunSummary;
  mode: 'view' | 'replay';
  /** The step the recording stops at when the run was cut off (its tab or browser closed), else null. */
  interruptedAtStep: number | null;
  /** Its events are still being read and folded (a long run opens step by step): the trace grows. */
  reading?: boolean;
}

export interface RunState {
  run: RunView | null;
  phase: RunPhase;
  /** The id of the run the page asked for (its events may not have arrived yet). */
  pendingRunId: string | null;
  /** Why the last run could not start (an invalid config), in plain words. */
  rejection: string[] | null;
  /** The worker itself was lost (it should not be): shown instead of a blank screen. */
  crash: string | null;
  /** When Stop was pressed (performance.now()), to say how long stopping took. */
  stopRequestedAt: number | null;
  /** How long the last stop took from the press to the run's end, in ms. */
  lastStopMs: number | null;
  /** The run is manual: the person takes the orchestrator's turns. */
  manual: boolean;
  /** The turn waiting for the person's choice, in a manual run. */
  humanTurn: HumanTurn | null;
  /** Set while the run on screen comes from history (never while a run is live). */
  stored: StoredRunShown | null;
  /** The finished run that was on screen when this one started: the Task screen's "before" to
   * this run's "after" (state/beforeAfter.ts). */
  previous: RunView | null;
}

export const initialRunState: RunState = {
  run: null,
  phase: 'idle',
  pendingRunId: null,
  rejection: null,
  crash: null,
  stopRequestedAt: null,
  lastStopMs: null,
  manual: false,
  humanTurn: null,
  stored: null,
  previous: null,
};

const initialState = initialRunState;

/** How long one fold of events may take: `slice` events at a time, until `now()` passes `deadline`. */
export interface FoldBudget {
  now(): number;
  deadline: number;
  slice: number;
}
type Store = StoreApi<RunState>;

const runActions = {
  /** A new run replaces the last one on screen at once; its events follow. */
  starting(store: Store, runId: string, manual = false): void {
    store.setState((state) => ({
      ...initialState,
      phase: 'starting',
      pendingRunId: runId,
      manual,
      previous: state.run?.status === 'finished' ? state.run : state.previous,
    }));
  },
  /** A run from history on screen (a view, or a replay's latest frame). */
  showStored(store: Store, run: RunView | null, stored: StoredRunShown): void {
    store.setState((state) => (state.phase === 'idle' ? { ...initialState, run, stored } : state));
  },
  /** The next frame of a replay: only while that replay is what the screen shows. */
  replayFrame(store: Store, runId: string, run: RunView | null): void {
    store.setState((state) => (state.phase === 'idle' && state.stored?.mode === 'replay' && state.stored.summary.id === runId ? { run } : state));
  },
  /** The view so far of a stored run being opened, while that opening (its summary) is on screen. */
  storedFrame(store: Store, summary: RunSummary, run: RunView | null, reading: boolean): void {
    store.setState((state) =>
      state.phase === 'idle' && state.stored?.mode === 'view' && state.stored.summary === summary ? { run, stored: { ...state.stored, reading } } : state,
    );
  },
  /** Leaves a stored run or replay: back to the empty workspace. */
  closeStored(store: Store): void {
    store.setState((state) => (state.stored ? initialState : state));
  },
  /** The person's turn in a manual run. */
  humanTurn(store: Store, runId: string, turn: HumanTurn): void {
    store.setState((state) => (state.pendingRunId === runId && state.phase !== 'idle' ? { humanTurn: turn } : state));
  },
  /** The person chose; the turn goes on in the worker. */
  humanChose(store: Store): void {
    store.setState({ humanTurn: null });
  },
  /**
   * Folds a run's events into the run, in one store update. With a `budget` it folds them a slice
   * at a time and stops between slices once the budget's time is up (after one slice at least).
   * Returns how many events it took, from the first: the caller keeps the rest for later.
   */
  applyEvents(store: Store, events: readonly RunEvent[], budget?: FoldBudget): number {
    let taken = 0;
    store.setState((state) => {
      if (state.run?.status === 'finished') {
        taken = events.length;
        return state;
      }
      let run = state.run;
      let folded = false;
      while (taken < events.length) {
        const slice = budget ? events.slice(taken, taken + budget.slice) : events;
        taken += slice.length;
        const relevant = slice.filter((event) => event.runId === state.pendingRunId);
        if (relevant.length > 0) {
          run = foldEvents(run, relevant);
          folded = true;
        }
        if (!budget || budget.now() >= budget.deadline) break;
      }
      if (!folded) return state;
      return run?.status === 'finished' ? { run, ...ended(state) } : { run, phase: state.phase === 'stopping' ? 'stopping' : 'running' };
    });
    return taken;
  },
  stopping(store: Store): void {
    store.setState({ phase: 'stopping', stopRequestedAt: performance.now() });
  },
  /** Run was refused before it started (the config has problems): the last run stays on screen. */
  refused(store: Store, problems: string[]): void {
    store.setState({ rejection: problems });
  },
  /** The worker refused the run it was asked to start. */
  rejected(store: Store, runId: string, problems: string[]): void {
    store.setState((state) => (state.pendingRunId === runId ? { phase: 'idle', rejection: problems } : state));
  },
  /** The engine broke without finishing the run. */
  failed(store: Store, runId: string, message: string): void {
    store.setState((state) => {
      if (state.pendingRunId !== runId) return state;
      return { ...ended(state), run: state.run && endRun(state.run, 'error', { code: 'engine', message }) };
    });
  },
  /** A stop that did not land in time: the worker was ended under the run. */
  forceStopped(store: Store, runId: string): void {
    store.setState((state) => {
      if (state.pendingRunId !== runId || state.phase === 'idle') return state;
      return { ...ended(state), run: state.run && endRun(state.run, 'aborted') };
    });
  },
  /** The worker was lost; whatever ran in it is over. */
  workerLost(store: Store, message: string): void {
    store.setState((state) => ({
      ...ended(state),
      crash: message,
      run: state.run && endRun(state.run, 'error', { code: 'worker', message }),
    }));
  },
};

export type RunStore = StoreWithActions<RunState, typeof runActions>;

export function createRunStore(): RunStore {
  return makeStore(plainStore(initialRunState), {}, runActions);
}

/** The page's side of a run's end: idle again, and how long a requested stop took. */
function ended(state: RunState): Pick<RunState, 'phase' | 'stopRequestedAt' | 'lastStopMs' | 'humanTurn'> {
  return {
    phase: 'idle',
    humanTurn: null,
    stopRequestedAt: null,
    lastStopMs: state.stopRequestedAt === null ? state.lastStopMs : performance.now() - state.stopRequestedAt,
  };
}
