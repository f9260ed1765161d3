// Reading what the Evaluate tab shows from outside: an imported results file (`orchestra eval`
// --out, --json or --report) and the results kept from the last visit. Each is checked under its
// caps (workers/eval/results.ts, RESULTS_LIMITS) and its report computed here; the page receives
// the report and at most SAVED_LIMITS.records records, in list order. The browser runs this in
// resultsRead.worker.ts, off the page's thread; the page's tests run it in-thread.

import { readImportedResults, readSavedResults, resultsFileSizeProblem, rolloutOrder, SAVED_LIMITS } from '../components/Evaluate/evalView.ts';
import { readLastResults } from '../storage/evalResultsDb.ts';
import type { ResultsReadReply, ResultsReadRequest } from './resultsRead.ts';

async function readFile(file: Blob): Promise<ResultsReadReply> {
  const tooBig = resultsFileSizeProblem(file.size);
  if (tooBig) return { ok: false, problems: [tooBig] };
  const read = readImportedResults(await file.text());
  if (!read.ok) return read;
  if (read.kind === 'summary') return { ok: true, report: read.summary, records: [], recordCount: 0 };
  const records = read.records.slice().sort(rolloutOrder).slice(0, SAVED_LIMITS.records);
  return { ok: true, report: read.report, records, recordCount: read.records.length };
}

export async function readResults(request: ResultsReadRequest): Promise<ResultsReadReply> {
  try {
    if (request.kind === 'file') return await readFile(request.file);
    const value = await readLastResults();
    if (value === undefined) return { ok: true, saved: null };
    const saved = readSavedResults(value);
    return saved ? { ok: true, saved } : { ok: false, problems: ['The results kept from your last evaluation were not usable (an older or damaged copy); Clear removes them.'] };
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
}
