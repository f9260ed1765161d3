// What the stores need of the browser, as the browser gives it (appStores.ts, Platform).

import { downloadText } from '../download.ts';
import { createOrchestratorClient } from '../worker/orchestratorClient.ts';
import type { Platform } from './appStores.ts';

export function browserPlatform(): Platform {
  return {
    connectWorker: (events) => createOrchestratorClient(events),
    // Read when used: a browser may refuse storage (a sandboxed frame), and the stores say so.
    localStorage: () => window.localStorage,
    sessionStorage: () => window.sessionStorage,
    nextFrame: (callback) => requestAnimationFrame(callback),
    download: downloadText,
    // The reader's worker loads with the first import, not with the first screen.
    readRunFile: async (file) => (await import('../worker/runFileImport.ts')).readRunFileOffThread(file),
  };
}
