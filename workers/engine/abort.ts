// Racing a promise against an AbortSignal: for work that cannot be cancelled in place (a tool
// that ignores its signal, a web-llm generation or download stopped only when asked separately, a
// sandbox run queued behind another). The promise itself goes on; only the wait for it ends. The
// one helper for it: the engine, the backends and the sandbox hosts all use it.

/** What raceAbort rejects with when no `abortError` is given. */
export const ABORTED = Symbol('aborted');

/**
 * `promise`, or a rejection with `abortError()` (ABORTED by default) the moment `signal` aborts (at
 * once when it already has). With no signal, `promise` itself.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, abortError: () => unknown = () => ABORTED): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Waits for `promise` to settle or `signal` to abort, whichever comes first; returns whether it
 * aborted. A rejection of `promise` is thrown. */
export async function settledOrAborted(promise: Promise<unknown>, signal?: AbortSignal): Promise<boolean> {
  try {
    await raceAbort(promise, signal);
    return false;
  } catch (error) {
    if (error === ABORTED) return true;
    throw error;
  }
}
