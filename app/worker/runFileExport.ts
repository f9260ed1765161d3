// The page's side of exporting runs: a short-lived worker (workers/hosts/files/runFileExport.worker.ts)
// reads them from the history and writes the run file; the page receives the file, ready to save.

import type { RunFileExportReply } from '../../workers/hosts/files/runFileExport.ts';
import { askOneShotWorker, READ_TIMEOUT_MS } from './oneShotWorker.ts';

export function exportRunFileOffThread(runIds: readonly string[]): Promise<RunFileExportReply> {
  const worker = new Worker(new URL('../../workers/hosts/files/runFileExport.worker.ts', import.meta.url), { type: 'module', name: 'run file export' });
  return askOneShotWorker<RunFileExportReply>(worker, { runIds: [...runIds] }, (why) => ({ ok: false, problem: `${why}.` }), READ_TIMEOUT_MS, 'writing it');
}
