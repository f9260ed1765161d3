// Replay: a stored run re-streamed onto the same Trace and Cost panels with its recorded timing,
// at 1×, 4× or 16×, or at once; pausable and steppable. It folds the recorded events exactly as
// a live run's are folded, and calls nothing: no worker, no network.

import { create } from 'zustand';
import type { RunEvent } from '../../workers/engine/events.ts';
import { stepStarts, type RunSummary } from '../../workers/history/runLog.ts';
import { runActions, useRunStore } from './runStore.ts';
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

export const useReplayStore = create<ReplayState>()(() => ({ runId: null, playing: false, speed: 4, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 }));

const TICK_MS = 50;

let events: RunEvent[] = [];
let starts: Array<[number, number]> = [];
let view: RunView | null = null;
let timer: ReturnType<typeof setInterval> | undefined;
/** Wall clock and recorded time when the replay last (re)started playing. */
let anchor = { wall: 0, at: 0 };

function stepAt(cursor: number): number {
  let step = 0;
  for (const [index, number] of starts) if (index < cursor) step = number;
  return step;
}

/** Shows events [0, cursor): folding on from the current frame, or afresh when going back. */
function show(cursor: number): void {
  const { runId, cursor: shown } = useReplayStore.getState();
  if (!runId) return;
  view = cursor >= shown && view ? foldEvents(view, events.slice(shown, cursor)) : foldEvents(null, events.slice(0, cursor));
  const atMs = cursor > 0 ? (events[cursor - 1]?.t ?? 0) : 0;
  useReplayStore.setState({ cursor, step: stepAt(cursor), atMs });
  runActions.replayFrame(runId, view);
  if (cursor >= events.length) pause();
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
  const target = anchor.at + (performance.now() - anchor.wall) * speed;
  let next = cursor;
  while (next < events.length && (events[next]?.t ?? 0) <= target) next++;
  if (next > cursor) show(next);
}

/** Starts replaying a stored run's events from the beginning, paused or playing. */
export function startReplay(summary: RunSummary, recorded: RunEvent[], { play = true } = {}): void {
  stopReplay();
  events = recorded;
  starts = stepStarts(recorded);
  view = null;
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
  useReplayStore.setState({ runId: null, cursor: 0, total: 0, step: 0, steps: 0, atMs: 0 });
}
