// The first-load side of a chart module's warm-up (ChartWarmUp.tsx): no recharts here, only when
// to draw it. Once a page per name. A chunk that fails to load costs only the head start, quietly
// (the chart's own load reports it); a warm-up that fails to draw is a bug, reported as one and
// kept out of the panel by its own error boundary.

import { startTransition, useCallback, useEffect, useState, type ComponentType } from 'react';
import { whenIdle } from '../../idle.ts';
import { ErrorBoundary } from '../ErrorBoundary/index.tsx';
import { usePart } from '../../state/context.tsx';
import { createWarmUps } from './warmUps.ts';

type WarmUp = ComponentType<{ onDone(): void }>;

/**
 * Loads a chart module's warm-up with `load` (a stable function: a module's dynamic import) when
 * the page is first idle, at the latest after `timeoutMs` (Safari, without requestIdleCallback:
 * after `fallbackMs`), and mounts it until it calls onDone.
 */
export function WarmUpWhenIdle({ name, load, timeoutMs, fallbackMs }: { name: string; load(): Promise<WarmUp>; timeoutMs: number; fallbackMs: number }) {
  const [Drawn, setDrawn] = useState<WarmUp | null>(null);
  const { warmedUp } = usePart(createWarmUps);
  useEffect(() => {
    if (warmedUp.has(name)) return;
    let cancelled = false;
    const cancel = whenIdle(
      () =>
        void load().then(
          (component) => {
            if (!cancelled) startTransition(() => setDrawn(() => component));
          },
          () => undefined,
        ),
      { timeoutMs, fallbackMs },
    );
    return () => {
      cancelled = true;
      cancel();
    };
  }, [warmedUp, name, load, timeoutMs, fallbackMs]);
  const done = useCallback(() => {
    warmedUp.add(name);
    setDrawn(null);
  }, [warmedUp, name]);
  if (!Drawn) return null;
  return (
    <ErrorBoundary what="The charts' warm-up" fallback={<></>}>
      <Drawn onDone={done} />
    </ErrorBoundary>
  );
}
