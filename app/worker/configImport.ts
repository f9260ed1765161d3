// Reading an imported config file without stalling the page: a small file (every real config) is
// read on the page's thread in a few milliseconds; a larger one in a short-lived worker
// (configImport.worker.ts), so a hostile file (12,000 providers, deep nesting) never runs here.

import type { ConfigImportReply } from '../../workers/hosts/files/readConfig.ts';

/** Files up to this many characters are read on the page's thread: reading one takes a few
 * milliseconds whatever it holds, and the import feels instant. */
export const READ_ON_PAGE_CHARS = 100_000;

/** `readOnPage` is readConfig, which the caller has loaded (it needs the config's schema, zod,
 * which is not part of the first screen: app/state/draftCheck.ts). */
export function readConfigText(text: string, readOnPage: (text: string) => ConfigImportReply): Promise<ConfigImportReply> {
  return text.length <= READ_ON_PAGE_CHARS ? Promise.resolve(readOnPage(text)) : readConfigOffThread(text);
}

function readConfigOffThread(text: string): Promise<ConfigImportReply> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('../../workers/hosts/files/configImport.worker.ts', import.meta.url), { type: 'module', name: 'config import' });
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
