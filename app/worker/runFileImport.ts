// The page's side of importing a run file: the file goes to a short-lived worker
// (workers/hosts/files/runFileImport.worker.ts), which reads, checks and stores it; the page
// receives the summaries of the runs it kept, and says what became of each.

import type { RunFileImportReply, RunFileImportRequests } from '../../workers/hosts/files/runFileImport.ts';
import type { ImportedAs } from '../../workers/hosts/history/runHistoryDb.ts';
import { askOnce, READ_TIMEOUT_MS } from './askOnce.ts';

export function importRunFileOffThread(file: File): Promise<RunFileImportReply> {
  return askOnce<RunFileImportRequests, 'import_runs'>(
    () => new Worker(new URL('../../workers/hosts/files/runFileImport.worker.ts', import.meta.url), { type: 'module', name: 'run file import' }),
    'import_runs',
    { file },
    (why) => ({ ok: false, problems: [`"${file.name}" could not be read: ${why}.`] }),
    { deadlineMs: READ_TIMEOUT_MS, doing: 'reading it' },
  );
}

const runs = (n: number) => (n === 1 ? '1 run' : `${n.toLocaleString('en-US')} runs`);

/** What the import did, in words: kept, kept as copies (never over a run already kept), or
 * recognised as already there. */
export function importedNotice(fileName: string, imported: ReadonlyArray<{ as: ImportedAs }>): string {
  const count = (as: ImportedAs) => imported.filter((run) => run.as === as).length;
  const [fresh, copies, same] = [count('new'), count('copy'), count('same')];
  const kept = fresh + copies;
  if (kept === 0) return same === 1 ? `"${fileName}" holds a run that is already in your history: nothing was added.` : `Every run in "${fileName}" is already in your history: nothing was added.`;
  let text = `Imported ${runs(kept)} from "${fileName}"`;
  if (copies > 0) {
    text +=
      copies === kept && kept === 1
        ? ', as a copy: a run with its id is already in your history, so this one has an id of its own'
        : ` (${runs(copies)} as copies: runs with their ids are already in your history, so these have ids of their own)`;
  }
  if (same > 0) text += `; ${runs(same)} ${same === 1 ? 'was' : 'were'} already in your history`;
  return `${text}.`;
}
