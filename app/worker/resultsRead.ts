// The page's side of reading evaluation results off its thread (resultsRead.worker.ts): an
// imported results file, or the results kept from the last visit.

import type { EvalReport, EvalSummary, RolloutRecord } from '../../workers/eval/results.ts';
import type { SavedResults } from '../components/Evaluate/evalView.ts';
import { askOnce, READ_TIMEOUT_MS } from './askOnce.ts';

export type ResultsReadRequest = { kind: 'file'; file: Blob } | { kind: 'saved' };

export type ResultsReadReply =
  /** A file: its report, its first records in list order, and how many it holds in all. */
  | { ok: true; report: EvalSummary | EvalReport; records: RolloutRecord[]; recordCount: number }
  /** The kept results, checked; null when none are kept. */
  | { ok: true; saved: SavedResults | null }
  | { ok: false; problems: string[] };

/** What the results reader (resultsRead.worker.ts) is asked. */
export type ResultsReadRequests = { read_results: { body: ResultsReadRequest; reply: ResultsReadReply } };

export function readResultsOffThread(request: ResultsReadRequest): Promise<ResultsReadReply> {
  return askOnce<ResultsReadRequests, 'read_results'>(
    () => new Worker(new URL('./resultsRead.worker.ts', import.meta.url), { type: 'module', name: 'results reader' }),
    'read_results',
    request,
    (why) => ({ ok: false, problems: [`It could not be read: ${why}.`] }),
    { deadlineMs: READ_TIMEOUT_MS, doing: 'reading it' },
  );
}
