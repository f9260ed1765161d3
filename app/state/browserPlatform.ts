// What the stores need of the browser, as the browser gives it (appStores.ts, Platform).

import { downloadBlob, downloadText } from '../download.ts';
import { createOrchestratorClient } from '../worker/orchestratorClient.ts';
import type { Platform } from './appStores.ts';

export function browserPlatform(): Platform {
  return {
    connectWorker: (events) => createOrchestratorClient(events),
    // Read when used: a browser may refuse storage (a sandboxed frame), and the stores say so.
    localStorage: () => window.localStorage,
    sessionStorage: () => window.sessionStorage,
    nextFrame: (callback) => requestAnimationFrame(callback),
    now: () => performance.now(),
    download: (file, fileName, type) => (typeof file === 'string' ? downloadText(file, fileName, type) : downloadBlob(file, fileName)),
    // The reader's worker loads with the first import, not with the first screen.
    // Every config file is read in a worker, loaded with the first import.
    readConfigFile: async (text) => (await import('../worker/configImport.ts')).readConfigText(text),
    importRunFile: async (file) => (await import('../worker/runFileImport.ts')).importRunFileOffThread(file),
    exportRunFile: async (runIds) => (await import('../worker/runFileExport.ts')).exportRunFileOffThread(runIds),
    readResults: async (request) => (await import('../worker/resultsRead.ts')).readResultsOffThread(request),
  };
}
