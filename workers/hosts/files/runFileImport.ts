// Importing a run file: read it under its caps, check it, and keep its runs in the history
// (history/runHistoryDb.ts: never over a run already kept). The browser runs this in
// runFileImport.worker.ts, off the page's thread; the page's tests run it in-thread.

import { readRunFile, runFileSizeProblem } from '../../history/runFile.ts';
import type { RunSummary } from '../../history/runLog.ts';
import { parseConfig } from '../config.ts';
import { storeImportedRuns, type ImportedAs } from '../history/runHistoryDb.ts';

export type RunFileImportReply =
  | { ok: true; imported: Array<{ summary: RunSummary; as: ImportedAs }>; warnings: string[] }
  | { ok: false; problems: string[] };

/** What the run file import worker (runFileImport.worker.ts) is asked. */
export type RunFileImportRequests = { import_runs: { body: { file: File }; reply: RunFileImportReply } };

export async function importRunFile(file: Blob): Promise<RunFileImportReply> {
  const tooLarge = runFileSizeProblem(file.size);
  if (tooLarge) return { ok: false, problems: [tooLarge] };
  let read;
  try {
    read = readRunFile(await file.text(), parseConfig);
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
