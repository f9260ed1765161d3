import { startTransition, useEffect, useRef, useState } from 'react';

/**
 * `value`, passed on at most once per `intervalMs` (the latest one wins; the last change always
 * arrives), and `undefined` until the first one has been passed on. Keeps an expensive view (the
 * chart) from redrawing on every streamed step, and renders every value, the first included, in a
 * transition, so React renders it in slices between the run's own updates instead of in one long
 * task (docs/benchmarks.md, streaming). The first matters most: mounting recharts is the costliest
 * render of a run, and as an ordinary update it froze the page for a second on a loaded 2-core box.
 */
export function useThrottled<T>(value: T, intervalMs: number): T | undefined {
  const [shown, setShown] = useState<T | undefined>(undefined);
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
