import { startTransition, useEffect, useRef, useState } from 'react';

/**
 * `value`, passed on at most once per `intervalMs` (the latest one wins; the last change always
 * arrives). Keeps an expensive view (the chart) from redrawing on every streamed step, and renders
 * the new value in a transition, so React renders it in slices between the run's own updates
 * instead of in one long task (docs/benchmarks.md, streaming).
 */
export function useThrottled<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const lastShownAt = useRef(0);
  useEffect(() => {
    const wait = lastShownAt.current + intervalMs - performance.now();
    const show = () => {
      lastShownAt.current = performance.now();
      startTransition(() => setShown(value));
    };
    if (wait <= 0) {
      show();
      return;
    }
    const timer = setTimeout(show, wait);
    return () => clearTimeout(timer);
  }, [value, intervalMs]);
  return shown;
}
