/// <reference lib="webworker" />
// Writes a run file off the page's thread (runFileExport.ts): the page sends the runs' ids and
// receives the file.

import { exportRunFile, type RunFileExportReply } from './runFileExport.ts';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (message: MessageEvent<{ runIds: string[] }>) => {
  const reply = await exportRunFile(message.data.runIds);
  try {
    self.postMessage(reply);
  } catch (error) {
    self.postMessage({ ok: false, problem: `The file could not be sent back to the page: ${(error as Error).message}` } satisfies RunFileExportReply);
  }
};
