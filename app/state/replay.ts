// Replay: a stored run re-streamed onto the same Trace and Cost panels with its recorded timing,
// at 1×, 4× or 16×, or at once; pausable and steppable. It folds the recorded events exactly as
// a live run's are folded, and calls nothing: no worker, no network. One per set of stores, made
// with the History tab (createReplay through appStores.ts's part).

import type { StoreApi } from 'zustand/vanilla';
import type { RunEvent } from '../../workers/engine/events.ts';
import { stepStarts, type RunSummary } from '../../workers/history/runLog.ts';
import type { RunStore } from './runStore.ts';
import { foldSlice, yieldToPage } from './foldInSlices.ts';
import type { RunView } from './runView.ts';
import { makeStore, plainStore } from './storeKit.ts';

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
  readonly store: StoreApi<ReplayState> = makeStore(plainStore<ReplayState>({ runId: null, playing: false, speed: 4, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 }), {}, {});
  private events: RunEvent[] = [];
  private starts: Array<[number, number]> = [];
  private view: RunView | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Wall clock and recorded time when the replay last (re)started playing. */
  private anchor = { wall: 0, at: 0 };
  /** Where the replay is going (events [0, target) shown), and how far the view has folded. */
  private target = 0;
  private folded = 0;
  private pumping = false;

  constructor(private readonly run: RunStore) {}

  private stepAt(cursor: number): number {
    let step = 0;
    for (const [index, number] of this.starts) if (index < cursor) step = number;
    return step;
  }

  /** Shows events [0, cursor): folding on from the current frame, or afresh when going back. The
   * folding goes in slices of a few milliseconds (foldInSlices.ts), so a jump across 100,000 steps
   * (instant speed, or back to the start) never holds the page's thread. */
  private show(cursor: number): void {
    if (!this.store.getState().runId) return;
    this.target = cursor;
    if (cursor < this.folded) {
      this.view = null;
      this.folded = 0;
    }
    this.pump();
  }

  /** Folds a slice toward the target, shows it, and comes back for the rest. */
  private pump(): void {
    const { runId } = this.store.getState();
    if (!runId || this.pumping) return;
    const { events } = this;
    ({ view: this.view, at: this.folded } = foldSlice(this.view, events, this.folded, this.target));
    const atMs = this.folded > 0 ? (events[this.folded - 1]?.t ?? 0) : 0;
    this.store.setState({ cursor: this.folded, step: this.stepAt(this.folded), atMs });
    this.run.actions.replayFrame(runId, this.view);
    if (this.folded >= events.length) this.pause();
    else if (this.folded < this.target) {
      this.pumping = true;
      void yieldToPage().then(() => {
        this.pumping = false;
        this.pump();
      });
    }
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
    const until = this.anchor.at + (performance.now() - this.anchor.wall) * speed;
    let next = Math.max(cursor, this.target);
    while (next < this.events.length && (this.events[next]?.t ?? 0) <= until) next++;
    if (next > this.target) this.show(next);
  };

  /** Starts replaying a stored run's events from the beginning, paused or playing. */
  start = (summary: RunSummary, recorded: RunEvent[], { play = true } = {}): void => {
    this.stop();
    this.events = recorded;
    this.starts = stepStarts(recorded);
    this.view = null;
    this.target = 0;
    this.folded = 0;
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
    this.target = 0;
    this.folded = 0;
    this.store.setState({ runId: null, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 });
  };
}

/** The replay of a set of stores (appStores.ts's part makes it once). */
export function createReplay(stores: { run: RunStore }): Replay {
  return new Replay(stores.run);
}
