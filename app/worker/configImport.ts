// The page's side of the config import worker (configImport.worker.ts): one short-lived worker
// per file, so reading a large or hostile file never runs on the page's thread.

import type { CustomToolConfig } from '../../workers/engine/config.ts';

export type ConfigImportReply =
  /** `draft` is the file's JSON value without its custom tools, which come parsed. */
  | { ok: true; draft: Record<string, unknown>; customTools: CustomToolConfig[] }
  | { ok: false; problems: string[] };

export function readConfigOffThread(text: string): Promise<ConfigImportReply> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./configImport.worker.ts', import.meta.url), { type: 'module', name: 'config import' });
    const finish = (reply: ConfigImportReply) => {
      worker.terminate();
      resolve(reply);
    };
    worker.onmessage = (message: MessageEvent<ConfigImportReply>) => finish(message.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ ok: false, problems: [`the file could not be read (${event.message || 'the reader stopped'})`] });
    };
    worker.onmessageerror = () => finish({ ok: false, problems: ['the file could not be read'] });
    worker.postMessage({ text });
  });
}
