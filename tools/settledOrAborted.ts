// Shared by the sandbox runners (Python in Node and in the browser, QuickJS): a run queued behind
// another must stop waiting the moment its own signal aborts.

/** Waits for `promise` to settle or `signal` to abort, whichever comes first; returns whether it aborted. */
export async function settledOrAborted(promise: Promise<unknown>, signal?: AbortSignal): Promise<boolean> {
  if (!signal) {
    await promise;
    return false;
  }
  if (signal.aborted) return true;
  let onAbort = () => {};
  const aborted = new Promise<true>((resolve) => {
    onAbort = () => resolve(true);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise.then(() => false), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
