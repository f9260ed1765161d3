/// <reference lib="webworker" />
// Imports a run file off the page's thread: the file is read, checked and stored in the history
// here, so a file of any size or shape (50 MB, 100,000 levels deep, 200,000 events) never stalls
// the page, which receives only the stored runs' summaries. Storing here too means the page never
// clones a long run's events: it reads them back in batches when the run is opened.

import { readRunFile, runFileSizeProblem } from '../../workers/history/runFile.ts';
import { storeImportedRuns } from '../storage/runHistoryDb.ts';
import type { RunFileImportReply } from './runFileImport.ts';

declare const self: DedicatedWorkerGlobalScope;

async function importFile(file: File): Promise<RunFileImportReply> {
  const tooLarge = runFileSizeProblem(file.size);
  if (tooLarge) return { ok: false, problems: [tooLarge] };
  let read;
  try {
    read = readRunFile(await file.text());
  } catch (error) {
    return { ok: false, problems: [`It could not be read: ${(error as Error).message}`] };
  }
  if (!read.ok) return read;
  try {
    return { ok: true, imported: await storeImportedRuns(read.runs), warnings: read.warnings };
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
}

self.onmessage = async (message: MessageEvent<{ file: File }>) => {
  const reply = await importFile(message.data.file);
  try {
    self.postMessage(reply);
  } catch (error) {
    // Nothing here should fail to clone; if it does, the page hears why instead of waiting.
    self.postMessage({ ok: false, problems: [`The outcome could not be sent back to the page: ${(error as Error).message}`] } satisfies RunFileImportReply);
  }
};
