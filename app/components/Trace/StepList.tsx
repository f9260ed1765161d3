import { useVirtualizer } from '@tanstack/react-virtual';
import { lazy, Suspense, useEffect } from 'react';
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

export function PlainSteps({ count }: { count: number }) {
  return (
    <ol className="steps" aria-label="Steps">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className="step-row">
          <ErrorBoundary what={`Step ${index + 1}`}>
            <StepRowCards index={index} />
          </ErrorBoundary>
        </li>
      ))}
    </ol>
  );
}

/** Steps in a scroller, rendering only those in view; rows are measured as they render. */
export function VirtualSteps({ count, scroller }: { count: number; scroller: HTMLDivElement | null }) {
  const stores = useAppStores();
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer re-renders this component itself
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller,
    estimateSize: estimateCard,
    gap: CARD_GAP_PX,
    overscan: 4,
  });
  const focusRequest = useTraceUi((state) => state.focusRequest);

  // A step asked for (j/k, a deep link) may not be rendered: scroll it in, and it focuses itself.
  useEffect(() => {
    if (!focusRequest) return;
    const index = stores.run.getState().run?.steps.findIndex((step) => step.step === focusRequest.step) ?? -1;
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [focusRequest, virtualizer, stores]);

  return (
    <ol className="steps virtual" aria-label="Steps" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => (
        <li
          key={item.key}
          ref={virtualizer.measureElement}
          data-index={item.index}
          className="step-row"
          aria-posinset={item.index + 1}
          aria-setsize={count}
          style={{ transform: `translateY(${item.start}px)` }}
        >
          <ErrorBoundary what={`Step ${item.index + 1}`}>
            <StepRowCards index={item.index} />
          </ErrorBoundary>
        </li>
      ))}
    </ol>
  );
}
