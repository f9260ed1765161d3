import { defaultRangeExtractor, elementScroll, observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { Range, Rect, VirtualItem } from '@tanstack/react-virtual';
import { ErrorBoundary } from '../ErrorBoundary/index.tsx';
import { StepCard } from './StepCard.tsx';
import { useTraceUi } from './useTraceUi.ts';
import { useAppStores, useRunStore } from '../../state/context.tsx';

// A τ² conversation's user turns: loaded with the first step that has one.
const UserTurnCards = lazy(() => import('./UserTurnCard.tsx'));

/** A step's cards: the user's opening (τ²), the orchestrator's turn, the user's replies. The step
 * card keeps its place among the children, so the user's first turn does not remount it. */
function StepRowCards({ index }: { index: number }) {
  const userTurns = useRunStore((state) => (state.run?.steps[index]?.userTurns?.length ?? 0) > 0);
  return (
    <>
      {userTurns && (
        <Suspense fallback={null}>
          <UserTurnCards index={index} before />
        </Suspense>
      )}
      <StepCard index={index} />
      {userTurns && (
        <Suspense fallback={null}>
          <UserTurnCards index={index} before={false} />
        </Suspense>
      )}
    </>
  );
}

/** From this many steps on, only the cards on screen are rendered. */
export const VIRTUALISE_FROM = 30;
/** A first guess of a row's height before it is measured (an expanded search step and the gap). */
const ESTIMATED_CARD_PX = 320;
const estimateCard = () => ESTIMATED_CARD_PX;
/** Rows rendered beyond those in view, before and after. */
const OVERSCAN = 4;

/**
 * The steps, in the scroller. Below VIRTUALISE_FROM every card is rendered; from then on only those
 * in view, measured as they render. One list for both, rows keyed by index and in normal flow:
 * crossing the threshold mid-run keeps every card mounted and in its place, and the cards off
 * screen go over the next frames, instead of rebuilding or re-laying out the list in one frame.
 */
export function StepList({ count, scroller }: { count: number; scroller: HTMLDivElement | null }) {
  const stores = useAppStores();
  const virtual = count >= VIRTUALISE_FROM;
  const listRef = useRef<HTMLOListElement>(null);
  // The plain list's layout (taken at each of its commits: a busy frame may add many steps at once,
  // and the layout is computed before paint anyway) seeds the virtualizer: its first range is
  // then the rows already on screen (not a guess from estimated heights), and those stay mounted.
  const seed = useRef<PlainLayout | null>(null);
  useLayoutEffect(() => {
    if (!virtual && listRef.current && scroller) {
      seed.current = plainLayout(listRef.current, scroller);
    }
  }, [virtual, count, scroller]);
  const firstVirtualFrame = useFirstVirtualFrame(virtual);
  const [kept, releaseKept] = useKeptRows(virtual, Math.min(seed.current?.rows.length ?? 0, count));
  const rangeExtractor = useMemo(() => (kept ? withKept(kept) : defaultRangeExtractor), [kept]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer re-renders this component itself
  const virtualizer = useVirtualizer({
    count,
    enabled: virtual,
    getScrollElement: () => scroller,
    estimateSize: estimateCard,
    overscan: OVERSCAN,
    rangeExtractor,
    measureElement: measureRow,
    // Its first frame takes the seed's sizes rather than reading every row's box, a forced layout
    // each (50–90 ms for 30 cards); the rows' ResizeObserver reports any difference after paint.
    useCachedMeasurements: firstVirtualFrame,
    // Read only when the virtualizer has nothing measured (its first virtual render).
    initialMeasurementsCache: seed.current?.rows ?? [],
    initialRect: seed.current?.rect,
    initialOffset: () => scroller?.scrollTop ?? 0,
    observeElementRect: (instance, onRect) =>
      seed.current ? observeRectAfterLayout(instance, onRect) : observeElementRect(instance, onRect),
    // On attaching, the virtualizer writes back the offset it just read: a no-op scroll that
    // still forces the frame's whole layout inside the task. Skipped in that first frame only.
    scrollToFn: (offset, options, instance) => {
      const unmoved = offset + (options.adjustments ?? 0) === instance.scrollOffset && options.behavior !== 'smooth';
      if (!(firstVirtualFrame && unmoved)) elementScroll(offset, options, instance);
    },
  });
  const focusRequest = useTraceUi((state) => state.focusRequest);
  // The plain list's rows still kept go a few each frame.
  useEffect(() => {
    if (!kept) return;
    const frame = requestAnimationFrame(() => releaseKept(virtualizer.range));
    return () => cancelAnimationFrame(frame);
  }, [kept, releaseKept, virtualizer]);

  // A step asked for (j/k, a deep link) may not be rendered: scroll it in, and it focuses itself.
  useEffect(() => {
    if (!focusRequest || !virtual) return;
    const index = stores.run.getState().run?.steps.findIndex((step) => step.step === focusRequest.step) ?? -1;
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [focusRequest, virtualizer, stores, virtual]);

  // One list in normal flow for both: the virtual one only leaves out the rows off screen, and
  // padding stands in for them. Switching changes no layout mode, so the frame that crosses the
  // threshold lays out the rows in view as before (absolutely placed rows made that frame restyle
  // and lay out every card: 34–59 ms of CPU).
  const items = virtual ? virtualizer.getVirtualItems() : null;
  return (
    <ol
      ref={listRef}
      className={virtual ? 'steps virtual' : 'steps'}
      aria-label="Steps"
      style={items ? spacers(items, virtualizer.getTotalSize()) : undefined}
    >
      {items
        ? items.map((item) => <StepRow key={item.index} index={item.index} measure={virtualizer.measureElement} setSize={count} />)
        : Array.from({ length: count }, (_, index) => <StepRow key={index} index={index} />)}
    </ol>
  );
}

/** The room the rows left out take above and below those rendered. The browser's own scroll
 * anchoring is off in the list: the virtualizer corrects the scroll when a row above the view
 * changes size, and both together would move it twice. */
function spacers(items: VirtualItem[], totalSize: number): CSSProperties {
  const first = items[0];
  const last = items[items.length - 1];
  return {
    paddingTop: first?.start ?? 0,
    paddingBottom: Math.max(totalSize - (last?.end ?? 0), 0),
    overflowAnchor: 'none',
  };
}

/** A row's height, unrounded: the padding above the rows stands for the sizes of the rows left
 * out, and whole pixels would move the rows in view by the rounding (up to half a pixel a row). */
function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const index = instance.indexFromElement(element);
  const key = instance.options.getItemKey(index);
  if (instance.options.useCachedMeasurements) return instance.itemSizeCache.get(key) ?? instance.options.estimateSize(index);
  const box = entry?.borderBoxSize[0];
  if (box) return box.blockSize;
  // Without an entry (a row just rendered): the size already known, else one layout read.
  return instance.itemSizeCache.get(key) ?? element.getBoundingClientRect().height;
}

interface PlainLayout {
  rows: VirtualItem[];
  rect: Rect;
}

function plainLayout(list: HTMLOListElement, scroller: HTMLDivElement): PlainLayout {
  // As the virtualizer lays rows out (each right after the last: the gap is the row's own padding)
  // and measures them (measureRow): a seed that differed by a fraction would make it correct the
  // scroll after every row it measures, a forced layout each.
  const rows: VirtualItem[] = [];
  for (const [index, row] of Array.from(list.children).entries()) {
    const size = row.getBoundingClientRect().height;
    const start = rows[index - 1]?.end ?? 0;
    rows.push({ key: index, index, start, end: start + size, size, lane: 0 });
  }
  return { rows, rect: { width: scroller.clientWidth, height: scroller.clientHeight } };
}

/**
 * The scroller's size as its ResizeObserver reports it, after layout. The library's default also
 * reads it at once, which in the frame that virtualises the list forces that frame's whole layout
 * inside the task; with a seed the size is already known.
 */
function observeRectAfterLayout(instance: Virtualizer<HTMLDivElement, Element>, onRect: (rect: Rect) => void): () => void {
  const element = instance.scrollElement;
  if (!element) return () => {};
  const observer = new ResizeObserver(() => onRect({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/** Rows of the plain list still rendered after the switch to the virtual one, from..to. */
interface Kept {
  from: number;
  to: number;
}
/** Kept rows let go per frame, at each end. */
const RELEASE_PER_FRAME = 5;

/**
 * The plain list's rows, kept rendered when the list turns virtual and let go a few per frame
 * (until only the virtualizer's range is left): removing some twenty cards, their effects and
 * their DOM, in the frame that switches cost it 8–10 ms more. Only the rows the plain list had
 * (`plainRows`, fewer than VIRTUALISE_FROM) are kept, never the new count: a replay at "instant"
 * jumps from a few steps to 100,000 in one commit.
 */
function useKeptRows(virtual: boolean, plainRows: number): [Kept | null, (range: { startIndex: number; endIndex: number } | null) => void] {
  const [state, setState] = useState<{ virtual: boolean; kept: Kept | null }>({ virtual, kept: null });
  if (state.virtual !== virtual) setState({ virtual, kept: virtual && plainRows > 0 ? { from: 0, to: plainRows - 1 } : null });
  const release = useMemo(
    () => (range: { startIndex: number; endIndex: number } | null) =>
      setState((current) => {
        if (!current.kept) return current;
        if (!range) return { ...current, kept: null };
        const low = Math.max(range.startIndex - OVERSCAN, 0);
        const high = range.endIndex + OVERSCAN;
        if (apart(current.kept, low, high)) return { ...current, kept: null };
        const from = Math.min(current.kept.from + RELEASE_PER_FRAME, low);
        const to = Math.max(current.kept.to - RELEASE_PER_FRAME, high);
        return { ...current, kept: from >= low && to <= high ? null : { from, to } };
      }),
    [],
  );
  return [state.kept, release];
}

/** True when the kept rows neither overlap nor touch low..high. */
function apart(kept: Kept, low: number, high: number): boolean {
  return kept.to < low - 1 || kept.from > high + 1;
}

/**
 * The virtualizer's rows and the kept ones, one run of indexes (rows in flow cannot skip any).
 * Kept rows apart from those in view are not rendered: the run between them could be the whole
 * list (a burst of steps that scrolled the view far past the plain list's rows).
 */
function withKept(kept: Kept): (range: Range) => number[] {
  return (range) => {
    const rows = defaultRangeExtractor(range);
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (first !== undefined && last !== undefined && apart(kept, first, last)) return rows;
    const from = Math.min(first ?? kept.from, kept.from);
    const to = Math.min(Math.max(last ?? kept.to, kept.to), range.count - 1);
    return Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
  };
}

/** True for the first frame of the virtual list after the plain one. */
function useFirstVirtualFrame(virtual: boolean): boolean {
  const [shown, setShown] = useState({ virtual, first: false });
  if (shown.virtual !== virtual) setShown({ virtual, first: virtual });
  useEffect(() => {
    if (!shown.first) return;
    const frame = requestAnimationFrame(() => setShown((current) => ({ ...current, first: false })));
    return () => cancelAnimationFrame(frame);
  }, [shown.first]);
  return shown.first;
}

function StepRow({
  index,
  measure,
  setSize,
}: {
  index: number;
  measure?: (element: HTMLLIElement | null) => void;
  /** In the virtual list: the steps in all (the rows in the page are only some of them). */
  setSize?: number;
}) {
  return (
    <li
      ref={measure}
      data-index={index}
      className="step-row"
      aria-posinset={setSize === undefined ? undefined : index + 1}
      aria-setsize={setSize}
    >
      <ErrorBoundary what={`Step ${index + 1}`}>
        <StepRowCards index={index} />
      </ErrorBoundary>
    </li>
  );
}
