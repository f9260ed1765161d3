import { elementScroll, observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Rect, VirtualItem } from '@tanstack/react-virtual';
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
/** A first guess of a card's height before it is measured (an expanded search step). */
const ESTIMATED_CARD_PX = 320;
const CARD_GAP_PX = 12;
const estimateCard = () => ESTIMATED_CARD_PX;

/**
 * The steps, in the scroller. Below VIRTUALISE_FROM every card is rendered; from then on only those
 * in view, measured as they render. One list for both, rows keyed by index: crossing the threshold
 * mid-run keeps the cards in view mounted instead of rebuilding the whole list in one frame.
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
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer re-renders this component itself
  const virtualizer = useVirtualizer({
    count,
    enabled: virtual,
    getScrollElement: () => scroller,
    estimateSize: estimateCard,
    gap: CARD_GAP_PX,
    overscan: 4,
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

  // A step asked for (j/k, a deep link) may not be rendered: scroll it in, and it focuses itself.
  useEffect(() => {
    if (!focusRequest || !virtual) return;
    const index = stores.run.getState().run?.steps.findIndex((step) => step.step === focusRequest.step) ?? -1;
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [focusRequest, virtualizer, stores, virtual]);

  if (!virtual) {
    return (
      <ol ref={listRef} className="steps" aria-label="Steps">
        {Array.from({ length: count }, (_, index) => (
          <StepRow key={index} index={index} />
        ))}
      </ol>
    );
  }
  return (
    <ol ref={listRef} className="steps virtual" aria-label="Steps" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => (
        <StepRow
          key={item.index}
          index={item.index}
          measure={virtualizer.measureElement}
          position={{ count, start: item.start }}
        />
      ))}
    </ol>
  );
}

interface PlainLayout {
  rows: VirtualItem[];
  rect: Rect;
}

function plainLayout(list: HTMLOListElement, scroller: HTMLDivElement): PlainLayout {
  // As the virtualizer lays rows out (each one gap after the last) and measures them (whole
  // pixels): a seed that differs by a fraction makes it correct the scroll after every row it
  // measures, a forced layout each.
  const rows: VirtualItem[] = [];
  for (const [index, row] of Array.from(list.children).entries()) {
    const size = Math.round(row.getBoundingClientRect().height);
    const start = index === 0 ? 0 : (rows[index - 1]?.end ?? 0) + CARD_GAP_PX;
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
  position,
}: {
  index: number;
  measure?: (element: HTMLLIElement | null) => void;
  position?: { count: number; start: number };
}) {
  return (
    <li
      ref={measure}
      data-index={index}
      className="step-row"
      aria-posinset={position ? index + 1 : undefined}
      aria-setsize={position?.count}
      style={position ? { transform: `translateY(${position.start}px)` } : undefined}
    >
      <ErrorBoundary what={`Step ${index + 1}`}>
        <StepRowCards index={index} />
      </ErrorBoundary>
    </li>
  );
}
