// The first-load side of a chart module's warm-up (ChartWarmUp.tsx): no recharts here, only when
// to draw it. Once a page per name; a chunk that fails to load costs only the head start (the
// chart's own load reports it).

import { startTransition, Suspense, useCallback, useEffect, useState, type ComponentType } from 'react';
import { whenIdle } from '../../idle.ts';
import { ErrorBoundary } from '../ErrorBoundary/index.tsx';

const warmedUp = new Set<string>();

/**
 * Mounts `WarmUp` (a React.lazy of a chart module's warm-up) when the page is first idle, at the
 * latest after `timeoutMs` (Safari, without requestIdleCallback: after `fallbackMs`), until it
 * calls onDone.
 */
export function WarmUpWhenIdle({
  name,
  WarmUp,
  timeoutMs,
  fallbackMs,
}: {
  name: string;
  WarmUp: ComponentType<{ onDone(): void }>;
  timeoutMs: number;
  fallbackMs: number;
}) {
  const [drawing, setDrawing] = useState(false);
  useEffect(() => {
    if (warmedUp.has(name)) return;
    return whenIdle(() => startTransition(() => setDrawing(true)), { timeoutMs, fallbackMs });
  }, [name, timeoutMs, fallbackMs]);
  const done = useCallback(() => {
    warmedUp.add(name);
    setDrawing(false);
  }, [name]);
  if (!drawing) return null;
  return (
    <ErrorBoundary what="The charts' warm-up" fallback={<></>}>
      <Suspense fallback={null}>
        <WarmUp onDone={done} />
      </Suspense>
    </ErrorBoundary>
  );
}
