// Exporting runs to a run file: read from the history and written here, off the page's thread in
// the browser (runFileExport.worker.ts; the page's tests run it in-thread). A long run's file is
// tens of megabytes: reading every event back and writing the JSON took the page's thread for
// hundreds of milliseconds, so the page receives only the finished file, as a Blob (passed by
// reference, never copied into the page's heap).

import { writeRunFile, type RunFileRun } from '../../history/runFile.ts';
import { readStoredEvents, readStoredSummary } from '../history/runHistoryDb.ts';

export type RunFileExportReply = { ok: true; file: Blob; runs: number } | { ok: false; problem: string };

export async function exportRunFile(runIds: readonly string[]): Promise<RunFileExportReply> {
  try {
    const runs = await Promise.all(
      runIds.map(async (id): Promise<RunFileRun> => {
        const [summary, events] = await Promise.all([readStoredSummary(id), readStoredEvents(id)]);
        return { id, ...(summary?.name ? { name: summary.name } : {}), events };
      }),
    );
    return { ok: true, file: new Blob([writeRunFile(runs)], { type: 'application/json' }), runs: runs.length };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
}
