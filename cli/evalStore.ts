// The results file of `orchestra eval`: a header line naming the evaluation, then one line per
// finished rollout, appended as it finishes (one write per line), so a crash loses at most the
// rollouts in flight and a re-run resumes from what is there.

import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { headerMismatch, readResultsText, type EvalHeader, type RolloutRecord } from '../workers/eval/results.ts';
import { UsageError } from './usage.ts';

export interface StoredResults {
  header: EvalHeader | null;
  records: RolloutRecord[];
  /** A crash left the last line without its newline. */
  unterminated: boolean;
}

export function readResults(path: string): StoredResults {
  if (!existsSync(path)) return { header: null, records: [], unterminated: false };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the results file "${path}": ${(error as Error).message}.`);
  }
  const read = readResultsText(text);
  if (read.notResults) {
    throw new UsageError(`"${path}" is not a results file of "orchestra eval" (its first line is no {"type": "eval_started", …} header). Write the results to a new --out file.`);
  }
  return { header: read.header, records: read.records, unterminated: read.unterminated };
}

/**
 * Opens the results file for this evaluation: checks that an existing one belongs to it (the same
 * suite, configuration and seed), or starts a new one with its header, before any paid call.
 * Returns the writer of whole record lines.
 */
export function openResults(path: string, stored: StoredResults, header: EvalHeader): (record: RolloutRecord) => void {
  if (stored.header) {
    const mismatch = headerMismatch(stored.header, header);
    if (mismatch) throw new UsageError(`Cannot resume into "${path}": ${mismatch}. Write the results to a new --out file.`);
  }
  try {
    appendFileSync(path, `${stored.unterminated ? '\n' : ''}${stored.header ? '' : `${JSON.stringify(header)}\n`}`);
  } catch (error) {
    throw new UsageError(`Cannot write the results file "${path}": ${(error as Error).message}.`);
  }
  return (record) => appendFileSync(path, `${JSON.stringify(record)}\n`);
}
