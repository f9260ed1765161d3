// Racing a promise against an AbortSignal, for engine calls that cannot be cancelled in place
// (web-llm stops a generation or a download only when asked separately).

export const ABORTED = Symbol('aborted');

/** `promise`, or a rejection with ABORTED the moment `signal` fires. */
export function orAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(ABORTED);
    if (signal.aborted) {
      onAbort();
      return;
    }
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
