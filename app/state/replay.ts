// Replay: a stored run re-streamed onto the same Trace and Cost panels with its recorded timing,
// at 1×, 4× or 16×, or at once; pausable and steppable. It folds the recorded events exactly as
// a live run's are folded, and calls nothing: no worker, no network.

import { create } from 'zustand';
import type { RunEvent } from '../../workers/engine/events.ts';
import { stepStarts, type RunSummary } from '../../workers/history/runLog.ts';
import { runActions, useRunStore } from './runStore.ts';
import { foldSlice, yieldToPage } from './foldInSlices.ts';
import type { RunView } from './runView.ts';

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

export const useReplayStore = create<ReplayState>()(() => ({ runId: null, playing: false, speed: 4, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 }));

const TICK_MS = 50;

let events: RunEvent[] = [];
let starts: Array<[number, number]> = [];
let view: RunView | null = null;
let timer: ReturnType<typeof setInterval> | undefined;
/** Wall clock and recorded time when the replay last (re)started playing. */
let anchor = { wall: 0, at: 0 };
/** Where the replay is going (events [0, target) shown), and how far the view has folded. */
let target = 0;
let folded = 0;
let pumping = false;

function stepAt(cursor: number): number {
  let step = 0;
  for (const [index, number] of starts) if (index < cursor) step = number;
  return step;
}

/** Shows events [0, cursor): folding on from the current frame, or afresh when going back. The
 * folding goes in slices of a few milliseconds (foldInSlices.ts), so a jump across 100,000 steps
 * (instant speed, or back to the start) never holds the page's thread. */
function show(cursor: number): void {
  if (!useReplayStore.getState().runId) return;
  target = cursor;
  if (cursor < folded) {
    view = null;
    folded = 0;
  }
  pump();
}

/** Folds a slice toward `target`, shows it, and comes back for the rest. */
function pump(): void {
  const { runId } = useReplayStore.getState();
  if (!runId || pumping) return;
  ({ view, at: folded } = foldSlice(view, events, folded, target));
  const atMs = folded > 0 ? (events[folded - 1]?.t ?? 0) : 0;
  useReplayStore.setState({ cursor: folded, step: stepAt(folded), atMs });
  runActions.replayFrame(runId, view);
  if (folded >= events.length) pause();
  else if (folded < target) {
    pumping = true;
    void yieldToPage().then(() => {
      pumping = false;
      pump();
    });
  }
}

function stillShown(): boolean {
  const { runId } = useReplayStore.getState();
  const { stored } = useRunStore.getState();
  return runId !== null && stored?.mode === 'replay' && stored.summary.id === runId;
}

function tick(): void {
  if (!stillShown()) {
    stopReplay();
    return;
  }
  const { speed, cursor } = useReplayStore.getState();
  if (speed === 'instant') {
    show(events.length);
    return;
  }
  const until = anchor.at + (performance.now() - anchor.wall) * speed;
  let next = Math.max(cursor, target);
  while (next < events.length && (events[next]?.t ?? 0) <= until) next++;
  if (next > target) show(next);
}

/** Starts replaying a stored run's events from the beginning, paused or playing. */
export function startReplay(summary: RunSummary, recorded: RunEvent[], { play = true } = {}): void {
  stopReplay();
  events = recorded;
  starts = stepStarts(recorded);
  view = null;
  target = 0;
  folded = 0;
  useReplayStore.setState({ runId: summary.id, playing: false, cursor: 0, total: recorded.length, step: 0, steps: starts.length, atMs: 0 });
  runActions.showStored(null, { summary, mode: 'replay', interruptedAtStep: null });
  // The run's start (its task and menu) shows at once, as it did live.
  show(Math.min(1, events.length));
  if (play) resume();
}

export function resume(): void {
  const state = useReplayStore.getState();
  if (!state.runId || state.playing) return;
  if (state.cursor >= events.length) show(0);
  anchor = { wall: performance.now(), at: useReplayStore.getState().atMs };
  useReplayStore.setState({ playing: true });
  clearInterval(timer);
  timer = setInterval(tick, TICK_MS);
  tick();
}

export function pause(): void {
  clearInterval(timer);
  timer = undefined;
  useReplayStore.setState({ playing: false });
}

export function setReplaySpeed(speed: ReplaySpeed): void {
  useReplayStore.setState({ speed });
  anchor = { wall: performance.now(), at: useReplayStore.getState().atMs };
  if (useReplayStore.getState().playing) tick();
}

/** Where each step ends (exclusive): at the next step's start, the last at the end of the log. */
function stepEnds(): number[] {
  return [...starts.slice(1).map(([index]) => index), events.length];
}

/** Shows the rest of the step under way, up to the start of the next one, paused. */
export function nextStep(): void {
  pause();
  const { cursor } = useReplayStore.getState();
  show(stepEnds().find((end) => end > cursor) ?? events.length);
}

/** Goes back to the end of the step before, paused (to the run's start from the first step). */
export function previousStep(): void {
  pause();
  const { cursor } = useReplayStore.getState();
  show(stepEnds().findLast((end) => end < cursor) ?? Math.min(1, events.length));
}

export function stopReplay(): void {
  pause();
  events = [];
  starts = [];
  view = null;
  target = 0;
  folded = 0;
  useReplayStore.setState({ runId: null, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 });
}
