// Opening a long stored run without freezing the page: its events are folded into the view in
// slices of a few milliseconds, the page's thread free between them, and the view is shown as it
// grows — its first steps at once, the rest as they are read. A 100,000-step run opens in
// seconds with no long task; folding it whole in one task held the thread for seconds.

import type { RunEvent } from '../../workers/engine/events.ts';
import { foldEvents, type RunView } from './runView.ts';

/** Events folded between checks of the clock (a few milliseconds' worth). */
const CHUNK = 1_000;
/** The most a slice folds before it lets the page's thread go. */
export const SLICE_MS = 12;
/** How often the growing view is shown (each showing re-renders the trace and the cost panel). */
export const FRAME_MS = 250;

export const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Folds `events[from, to)` onto `view` for at most about SLICE_MS: the view, and how far it got. */
export function foldSlice(view: RunView | null, events: readonly RunEvent[], from: number, to: number): { view: RunView | null; at: number } {
  const started = performance.now();
  let at = from;
  let folded = view;
  while (at < to && performance.now() - started < SLICE_MS) {
    const end = Math.min(to, at + CHUNK);
    folded = foldEvents(folded, events.slice(at, end));
    at = end;
  }
  return { view: folded, at };
}

/**
 * A folder that takes batches of events as they are read (`add`) and folds them in slices,
 * showing the view with `show` — after the first slice, then every FRAME_MS, and at the end.
 * `show` returns false once the view is no longer wanted (another run opened): folding stops.
 */
export function createSlicedFold(show: (view: RunView | null, complete: boolean) => boolean, start: RunView | null = null) {
  const queue: RunEvent[][] = [];
  let view = start;
  let readingDone = false;
  let stopped = false;
  let shownAt = -Infinity;
  let wake: (() => void) | null = null;

  let shown: RunView | null = start;
  /** How far into the first queued batch the folding is. */
  let at = 0;
  const run = async (): Promise<RunView | null> => {
    for (;;) {
      const sliceStart = performance.now();
      while (queue.length > 0 && performance.now() - sliceStart < SLICE_MS) {
        const batch = queue[0]!;
        ({ view, at } = foldSlice(view, batch, at, batch.length));
        if (at >= batch.length) {
          queue.shift();
          at = 0;
        }
      }
      const complete = readingDone && queue.length === 0;
      if (complete || (view !== shown && performance.now() - shownAt >= FRAME_MS)) {
        shown = view;
        shownAt = performance.now();
        if (!show(view, complete)) stopped = true;
      }
      if (complete || stopped) return view;
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      else await yieldToPage();
    }
  };
  const folded = run();

  const nudge = () => {
    wake?.();
    wake = null;
  };
  return {
    /** A batch read, in order. */
    add(events: RunEvent[]): void {
      if (stopped) return;
      queue.push(events);
      nudge();
    },
    /** Reading is over: what is queued is folded, then the view is shown complete. */
    end(): Promise<RunView | null> {
      readingDone = true;
      nudge();
      return folded;
    },
    /** Whether `show` said the view is no longer wanted. */
    get stopped(): boolean {
      return stopped;
    },
  };
}

/** A whole log folded in slices, the page's thread free between them: the view at the end. */
export function foldInSlices(events: RunEvent[]): Promise<RunView | null> {
  const fold = createSlicedFold(() => true);
  fold.add(events);
  return fold.end();
}
