import { useEffect, useRef, useState } from 'react';

/**
 * `value`, passed on at most once per `intervalMs` (the latest one wins; the last change always
 * arrives). Keeps an expensive view (the chart) from redrawing on every streamed step.
 */
export function useThrottled<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const lastShownAt = useRef(0);
  useEffect(() => {
    const wait = lastShownAt.current + intervalMs - performance.now();
    const show = () => {
      lastShownAt.current = performance.now();
      setShown(value);
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
