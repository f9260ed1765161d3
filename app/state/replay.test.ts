// Replay (replay.ts) on a fresh run store, under fake timers: a stored run re-streams with its
// recorded timing at the chosen speed, pauses, steps, and stops when the screen moves on.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syntheticRun } from '../../e2e/fixtures/syntheticRun.ts';
import type { RunEvent } from '../../workers/engine/events.ts';
import { summarize, type RunSummary } from '../../workers/history/runLog.ts';
import { createReplay, type Replay } from './replay.ts';
import { createRunStore, type RunStore } from './runStore.ts';

let run: RunStore;
let replay: Replay;
let events: RunEvent[];
let summary: RunSummary;

beforeEach(() => {
  vi.useFakeTimers();
  run = createRunStore();
  replay = createReplay({ run });
  // Three steps, an event every 37 ms of recorded time (syntheticRun), the last at `lastT`.
  events = syntheticRun('stored-run', 1, 3);
  summary = summarize(null, events)!;
});

afterEach(() => {
  replay.stop();
  vi.useRealTimers();
});

const lastT = () => events.at(-1)!.t;
const shown = () => replay.store.getState().cursor;

describe('replay', () => {
  it('shows the run’s start at once, then each event when its recorded time comes, at 1×', () => {
    replay.start(summary, events);
    replay.setSpeed(1);
    expect(run.getState().stored).toMatchObject({ mode: 'replay', summary: { id: 'stored-run' } });
    expect(shown()).toBe(1);
    expect(run.getState().run?.task).toBe(summary.task);
    // 37 ms of recorded time per event: at 1× the next one shows within a tick of 37 ms.
    vi.advanceTimersByTime(50);
    expect(shown()).toBe(2);
    vi.advanceTimersByTime(lastT() - 50 + 50);
    expect(shown()).toBe(events.length);
    expect(replay.store.getState()).toMatchObject({ playing: false, step: 3, steps: 3, atMs: lastT() });
    expect(run.getState().run).toMatchObject({ status: 'finished', answer: '558,457' });
  });

  it('goes 16 times as fast at 16×, and all at once when instant', () => {
    replay.start(summary, events);
    replay.setSpeed(16);
    vi.advanceTimersByTime(Math.ceil(lastT() / 16) + 50);
    expect(shown()).toBe(events.length);

    replay.start(summary, events);
    replay.setSpeed('instant');
    vi.advanceTimersByTime(50);
    expect(shown()).toBe(events.length);
  });

  it('pauses and resumes where it was; steps forward and back a whole step, paused', () => {
    replay.start(summary, events);
    replay.setSpeed(1);
    vi.advanceTimersByTime(400);
    replay.pause();
    const at = shown();
    vi.advanceTimersByTime(5000);
    expect(shown()).toBe(at);
    replay.resume();
    vi.advanceTimersByTime(100);
    expect(shown()).toBeGreaterThan(at);

    replay.start(summary, events, { play: false });
    replay.nextStep();
    expect(replay.store.getState()).toMatchObject({ step: 1, playing: false });
    expect(run.getState().run?.steps).toHaveLength(1);
    replay.nextStep();
    expect(replay.store.getState().step).toBe(2);
    replay.previousStep();
    expect(replay.store.getState().step).toBe(1);
    expect(run.getState().run?.steps).toHaveLength(1);
  });

  it('plays again from the start once at the end', () => {
    replay.start(summary, events);
    replay.setSpeed('instant');
    vi.advanceTimersByTime(50);
    replay.setSpeed(1);
    replay.resume();
    expect(shown()).toBe(1);
  });

  it('stops by itself when the screen leaves the replay, and leaves the screen alone after', () => {
    replay.start(summary, events);
    replay.setSpeed(1);
    vi.advanceTimersByTime(100);
    run.actions.closeStored();
    vi.advanceTimersByTime(100);
    expect(replay.store.getState()).toMatchObject({ runId: null, playing: false });
    run.actions.starting('live-run');
    vi.advanceTimersByTime(lastT());
    expect(run.getState()).toMatchObject({ phase: 'starting', run: null, stored: null });
  });
});
