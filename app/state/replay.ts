// Replay: a stored run re-streamed onto the same Trace and Cost panels with its recorded timing,
// at 1×, 4× or 16×, or at once; pausable and steppable. It folds the recorded events exactly as
// a live run's are folded, and calls nothing: no worker, no network. One per set of stores, made
// with the History tab (createReplay through appStores.ts's part).

import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RunEvent } from '../../workers/engine/events.ts';
import { stepStarts, type RunSummary } from '../../workers/history/runLog.ts';
import type { RunStore } from './runStore.ts';
import { foldEvents, type RunView } from './runView.ts';

export type ReplaySpeed = 1 | 4 | 16 | 'instant';
export const REPLAY_SPEEDS: readonly ReplaySpeed[] = [1, 4, 16, 'instant'];

export interface ReplayState {
  runId: string | null;
  playing: boolean;
  speed: ReplaySpeed;
  /** Events shown so far (of `total`). */
  cursor: number;
  total: number;
  /** The step the replay is in (0 before the first), and how many the run has. */
  step: number;
  steps: number;
  /** The recorded time the replay has reached, ms since the run started. */
  atMs: number;
}

const TICK_MS = 50;

export class Replay {
  /** What the replay controls show. */
  readonly store: StoreApi<ReplayState> = createStore<ReplayState>()(() => ({ runId: null, playing: false, speed: 4, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 }));
  private events: RunEvent[] = [];
  private starts: Array<[number, number]> = [];
  private view: RunView | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Wall clock and recorded time when the replay last (re)started playing. */
  private anchor = { wall: 0, at: 0 };

  constructor(private readonly run: RunStore) {}

  private stepAt(cursor: number): number {
    let step = 0;
    for (const [index, number] of this.starts) if (index < cursor) step = number;
    return step;
  }

  /** Shows events [0, cursor): folding on from the current frame, or afresh when going back. */
  private show(cursor: number): void {
    const { runId, cursor: shown } = this.store.getState();
    if (!runId) return;
    const { events } = this;
    this.view = cursor >= shown && this.view ? foldEvents(this.view, events.slice(shown, cursor)) : foldEvents(null, events.slice(0, cursor));
    const atMs = cursor > 0 ? (events[cursor - 1]?.t ?? 0) : 0;
    this.store.setState({ cursor, step: this.stepAt(cursor), atMs });
    this.run.actions.replayFrame(runId, this.view);
    if (cursor >= events.length) this.pause();
  }

  private stillShown(): boolean {
    const { runId } = this.store.getState();
    const { stored } = this.run.getState();
    return runId !== null && stored?.mode === 'replay' && stored.summary.id === runId;
  }

  private tick = (): void => {
    if (!this.stillShown()) {
      this.stop();
      return;
    }
    const { speed, cursor } = this.store.getState();
    if (speed === 'instant') {
      this.show(this.events.length);
      return;
    }
    const target = this.anchor.at + (performance.now() - this.anchor.wall) * speed;
    let next = cursor;
    while (next < this.events.length && (this.events[next]?.t ?? 0) <= target) next++;
    if (next > cursor) this.show(next);
  };

  /** Starts replaying a stored run's events from the beginning, paused or playing. */
  start = (summary: RunSummary, recorded: RunEvent[], { play = true } = {}): void => {
    this.stop();
    this.events = recorded;
    this.starts = stepStarts(recorded);
    this.view = null;
    this.store.setState({ runId: summary.id, playing: false, cursor: 0, total: recorded.length, step: 0, steps: this.starts.length, atMs: 0 });
    this.run.actions.showStored(null, { summary, mode: 'replay', interruptedAtStep: null });
    // The run's start (its task and menu) shows at once, as it did live.
    this.show(Math.min(1, this.events.length));
    if (play) this.resume();
  };

  resume = (): void => {
    const state = this.store.getState();
    if (!state.runId || state.playing) return;
    if (state.cursor >= this.events.length) this.show(0);
    this.anchor = { wall: performance.now(), at: this.store.getState().atMs };
    this.store.setState({ playing: true });
    clearInterval(this.timer);
    this.timer = setInterval(this.tick, TICK_MS);
    this.tick();
  };

  pause = (): void => {
    clearInterval(this.timer);
    this.timer = undefined;
    this.store.setState({ playing: false });
  };

  setSpeed = (speed: ReplaySpeed): void => {
    this.store.setState({ speed });
    this.anchor = { wall: performance.now(), at: this.store.getState().atMs };
    if (this.store.getState().playing) this.tick();
  };

  /** Where each step ends (exclusive): at the next step's start, the last at the end of the log. */
  private stepEnds(): number[] {
    return [...this.starts.slice(1).map(([index]) => index), this.events.length];
  }

  /** Shows the rest of the step under way, up to the start of the next one, paused. */
  nextStep = (): void => {
    this.pause();
    const { cursor } = this.store.getState();
    this.show(this.stepEnds().find((end) => end > cursor) ?? this.events.length);
  };

  /** Goes back to the end of the step before, paused (to the run's start from the first step). */
  previousStep = (): void => {
    this.pause();
    const { cursor } = this.store.getState();
    this.show(this.stepEnds().findLast((end) => end < cursor) ?? Math.min(1, this.events.length));
  };

  stop = (): void => {
    this.pause();
    this.events = [];
    this.starts = [];
    this.view = null;
    this.store.setState({ runId: null, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 });
  };
}

/** The replay of a set of stores (appStores.ts's part makes it once). */
export function createReplay(stores: { run: RunStore }): Replay {
  return new Replay(stores.run);
}
