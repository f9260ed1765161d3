// Exporting runs to a run file: read from the history and written here, off the page's thread in
// the browser (runFileExport.worker.ts; the page's tests run it in-thread). A long run's file is
// tens of megabytes: reading every event back and writing the JSON took the page's thread for
// hundreds of milliseconds, so the page receives only the finished file, as a Blob (passed by
// reference, never copied into the page's heap).

import { writeRunFile, type RunFileRun } from '../../history/runFile.ts';
import { readStoredEvents, readStoredSummary } from '../history/runHistoryDb.ts';

/** `missing`: how many of the runs asked for were no longer in the history (deleted in another tab
 * since the page listed them): left out of the file. */
export type RunFileExportReply = { ok: true; file: Blob; runs: number; missing: number } | { ok: false; problem: string };

/** What the run file export worker (runFileExport.worker.ts) is asked. */
export type RunFileExportRequests = { export_runs: { body: { runIds: string[] }; reply: RunFileExportReply } };

export async function exportRunFile(runIds: readonly string[]): Promise<RunFileExportReply> {
  try {
    const read = await Promise.all(
      runIds.map(async (id): Promise<RunFileRun | null> => {
        const summary = await readStoredSummary(id);
        if (summary === undefined) return null;
        return { id, ...(summary.name ? { name: summary.name } : {}), events: await readStoredEvents(id) };
      }),
    );
    const runs = read.filter((run) => run !== null);
    if (runs.length === 0) return { ok: false, problem: `${runIds.length === 1 ? 'the run is no longer' : 'none of the runs chosen is still'} in your history (deleted in another tab?).` };
    return { ok: true, file: new Blob([writeRunFile(runs)], { type: 'application/json' }), runs: runs.length, missing: runIds.length - runs.length };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
}
