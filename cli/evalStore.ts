// The results file of `orchestra eval`: a header line naming the evaluation, then one line per
// finished rollout, appended as it finishes (one write per line), so a crash loses at most the
// rollouts in flight and a re-run resumes from what is there. A session that runs other policies or
// rollouts than the last adds a plan line saying so (what `eval merge` reports on).

import { appendFileSync, writeFileSync } from 'node:fs';
import { MAX_RESULTS_FILE_BYTES, pathExists, readNamedFile } from './files.ts';
import { headerMismatch, readResultsText, samePlan, type EvalHeader, type EvalPlan, type RolloutRecord } from '../workers/eval/results.ts';
import { UsageError } from './usage.ts';

export interface StoredResults {
  header: EvalHeader | null;
  records: RolloutRecord[];
  plan: EvalPlan | null;
  /** A crash left the last line without its newline. */
  unterminated: boolean;
}

export function readResults(path: string): StoredResults {
  if (!pathExists(path)) return { header: null, records: [], plan: null, unterminated: false };
  const text = readNamedFile(path, 'the results file', { maxBytes: MAX_RESULTS_FILE_BYTES });
  const read = readResultsText(text);
  if (read.badHeader !== undefined) {
    throw new UsageError(`"${path}" cannot be used: its header is none "orchestra eval" writes (${read.badHeader}).`);
  }
  if (read.notResults) {
    throw new UsageError(`"${path}" is not a results file of "orchestra eval" (its first line is no {"type": "eval_started", …} header). Write the results to a new --out file.`);
  }
  return { header: read.header, records: read.records, plan: read.plan, unterminated: read.unterminated };
}

/**
 * Opens the results file for this evaluation: checks that an existing one belongs to it (the same
 * suite, configuration, seed and part), or starts a new one with its header, and notes the plan
 * when it changed, before any paid call. Returns the writer of whole record lines.
 */
export function openResults(path: string, stored: StoredResults, header: EvalHeader, plan: EvalPlan): (record: RolloutRecord) => void {
  if (stored.header) {
    const mismatch = headerMismatch(stored.header, header);
    if (mismatch) throw new UsageError(`Cannot resume into "${path}": ${mismatch}. Write the results to a new --out file.`);
  }
  const lines = [...(stored.header ? [] : [header]), ...(stored.plan && samePlan(stored.plan, plan) ? [] : [plan])];
  try {
    appendFileSync(path, `${stored.unterminated ? '\n' : ''}${lines.map((line) => `${JSON.stringify(line)}\n`).join('')}`);
  } catch (error) {
    throw new UsageError(`Cannot write the results file "${path}": ${(error as Error).message}.`);
  }
  return (record) => appendFileSync(path, `${JSON.stringify(record)}\n`);
}

/** Writes a whole results file at once (`eval merge`'s --out); never over an existing file. */
export function writeResultsFile(path: string, header: EvalHeader, plan: EvalPlan, records: readonly RolloutRecord[]): void {
  const text = [header, plan, ...records].map((line) => `${JSON.stringify(line)}\n`).join('');
  try {
    writeFileSync(path, text, { flag: 'wx' });
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    throw new UsageError(exists ? `"${path}" already exists: merge writes a new --out file.` : `Cannot write the results file "${path}": ${(error as Error).message}.`);
  }
}
