/**
 * Calls `callback` once the page is idle, at the latest after `timeoutMs`; returns a cancel.
 * Safari has no requestIdleCallback: there it waits `fallbackMs` instead. For work the user did
 * not ask for yet (loading a chart's code, drawing it once to warm it up), so that it falls
 * between their own tasks rather than inside one.
 */
export function whenIdle(callback: () => void, { timeoutMs, fallbackMs }: { timeoutMs: number; fallbackMs: number }): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(callback, fallbackMs);
    return () => clearTimeout(timer);
  }
  const handle = requestIdleCallback(callback, { timeout: timeoutMs });
  return () => cancelIdleCallback(handle);
}
