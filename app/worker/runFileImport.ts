// The page's side of importing a run file: the file goes to a short-lived worker
// (runFileImport.worker.ts), which reads and checks it; the page only receives checked runs.

import type { ReadRunFileOutcome } from '../../workers/history/runFile.ts';

/** A hostile file could keep the reader busy for long: past this, give up and say so. */
const READ_TIMEOUT_MS = 60_000;

export function readRunFileOffThread(file: File): Promise<ReadRunFileOutcome> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('../../workers/hosts/files/runFileImport.worker.ts', import.meta.url), { type: 'module', name: 'run file import' });
    const finish = (reply: ReadRunFileOutcome) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(reply);
    };
    const timer = setTimeout(() => finish({ ok: false, problems: [`Reading "${file.name}" took over a minute, so it was stopped.`] }), READ_TIMEOUT_MS);
    worker.onmessage = (message: MessageEvent<ReadRunFileOutcome>) => finish(message.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ ok: false, problems: [`"${file.name}" could not be read (${event.message || 'the reader stopped'}).`] });
    };
    worker.onmessageerror = () => finish({ ok: false, problems: [`"${file.name}" could not be read.`] });
    worker.postMessage({ file });
  });
}
