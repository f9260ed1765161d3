// The page's side of exporting runs: a short-lived worker (workers/hosts/files/runFileExport.worker.ts)
// reads them from the history and writes the run file; the page receives the file, ready to save.

import type { RunFileExportReply, RunFileExportRequests } from '../../workers/hosts/files/runFileExport.ts';
import { askOnce, READ_TIMEOUT_MS } from './askOnce.ts';

export function exportRunFileOffThread(runIds: readonly string[]): Promise<RunFileExportReply> {
  return askOnce<RunFileExportRequests, 'export_runs'>(
    () => new Worker(new URL('../../workers/hosts/files/runFileExport.worker.ts', import.meta.url), { type: 'module', name: 'run file export' }),
    'export_runs',
    { runIds: [...runIds] },
    (why) => ({ ok: false, problem: `${why}.` }),
    { deadlineMs: READ_TIMEOUT_MS, doing: 'writing it' },
  );
}
