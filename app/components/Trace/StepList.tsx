import { useVirtualizer } from '@tanstack/react-virtual';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
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
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer re-renders this component itself
  const virtualizer = useVirtualizer({
    count,
    enabled: virtual,
    getScrollElement: () => scroller,
    estimateSize: estimateCard,
    gap: CARD_GAP_PX,
    overscan: 4,
    // Read only when the virtualizer has nothing measured (its first virtual render).
    initialMeasurementsCache: seed.current?.rows ?? [],
    initialRect: seed.current?.rect,
    initialOffset: () => scroller?.scrollTop ?? 0,
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
  const top = list.getBoundingClientRect().top;
  const rows = Array.from(list.children, (row, index): VirtualItem => {
    const box = row.getBoundingClientRect();
    const start = box.top - top;
    return { key: index, index, start, end: start + box.height, size: box.height, lane: 0 };
  });
  return { rows, rect: { width: scroller.clientWidth, height: scroller.clientHeight } };
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
