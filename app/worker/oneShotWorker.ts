// A short-lived worker that reads or writes one file off the page's thread: started for one message,
// ended with its answer. A worker that fails, sends what cannot be read, or takes too long is
// ended too, and the caller gets `failed(why)` in words instead of waiting.

/** A hostile file could keep a reader busy for long: past this, it is given up, saying so. */
export const READ_TIMEOUT_MS = 60_000;

export function askOneShotWorker<Reply>(worker: Worker, message: unknown, failed: (why: string) => Reply, timeoutMs = READ_TIMEOUT_MS, doing = 'reading it'): Promise<Reply> {
  return new Promise((resolve) => {
    const finish = (reply: Reply) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(reply);
    };
    const timer = setTimeout(() => finish(failed(`${doing} took over ${Math.round(timeoutMs / 1000)} seconds, so it was stopped`)), timeoutMs);
    worker.onmessage = (event: MessageEvent<Reply>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish(failed(event.message || 'the reader stopped'));
    };
    worker.onmessageerror = () => finish(failed('what the reader sent back could not be read'));
    worker.postMessage(message);
  });
}
