// Racing a promise against an AbortSignal: for work that cannot be cancelled in place (a tool
// that ignores its signal, a web-llm generation stopped only when asked separately, a run queued
// behind another). The promise itself goes on; only the wait for it ends.

/**
 * `promise`, or a rejection with `abortError()` the moment `signal` aborts (at once when it already
 * has). With no signal, `promise` itself.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, abortError: () => unknown): Promise<T> {
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
