// `orchestra eval merge a.jsonl b.jsonl … --out all.jsonl`: the results files of one evaluation's
// parts (`eval --shard i/n` on several machines) as one results file, and the report one machine
// would have printed, made from the rollouts (workers/eval/merge.ts says what is refused).

import { resolve } from 'node:path';
import { describeParts, mergeResults, MergeError, type ResultsPart } from '../workers/eval/merge.ts';
import { latestRecords, rolloutKey, summarizeEval } from '../workers/eval/results.ts';
import { checkReportFiles, printReport, REPORT_OPTIONS } from './evalOutput.ts';
import { readResults, writeResultsFile } from './evalStore.ts';
import type { CliIo } from './io.ts';
import { EVAL_MERGE_USAGE, EXIT_CODES, parseCommandLine, printUsage, UsageError } from './usage.ts';
import { formatCount } from '../workers/engine/format.ts';

const MERGE_OPTIONS = REPORT_OPTIONS;

/** A results file to merge, read; refused when it is not one or holds no header. */
function readPart(path: string): ResultsPart {
  const stored = readResults(path);
  if (!stored.header) throw new UsageError(`"${path}" does not exist or is empty: there is nothing to merge from it.`);
  return { source: path, header: stored.header, plan: stored.plan, records: stored.records };
}

export async function evalMergeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values: args, positionals: files } = parseCommandLine(argv, MERGE_OPTIONS, EVAL_MERGE_USAGE);
  if (args.help) return printUsage(io, EVAL_MERGE_USAGE);
  if (files.length === 0) throw new UsageError('Give the results files to merge (the --out files of "orchestra eval --shard i/n").', EVAL_MERGE_USAGE);
  if (!args.out) throw new UsageError('--out <file.jsonl> is required: the merged results file (a new file).', EVAL_MERGE_USAGE);
  const seen = new Map<string, string>();
  for (const file of [...files, args.out]) {
    const earlier = seen.get(resolve(file));
    if (earlier !== undefined) throw new UsageError(`"${earlier}" and "${file}" are the same file: give each results file once, and --out a new one.`);
    seen.set(resolve(file), file);
  }

  checkReportFiles(args, [...files, args.out]);
  let merged;
  try {
    merged = mergeResults(files.map(readPart));
  } catch (error) {
    if (error instanceof MergeError) throw new UsageError(error.message);
    throw error;
  }
  const { header, plan, records } = merged;
  writeResultsFile(args.out, header, plan, records);

  const report = summarizeEval({ taskIds: header.taskIds, policies: plan.policies, rollouts: plan.rollouts, records });
  const planned = header.taskIds.length * plan.policies.length * plan.rollouts;
  const latest = [...latestRecords(records).values()];
  const names = new Set(plan.policies.map((policy) => policy.name));
  const tasks = new Set(header.taskIds);
  const inPlan = latest.filter((record) => names.has(record.policy) && tasks.has(record.taskId) && record.rollout <= plan.rollouts);
  const errors = inPlan.filter((record) => record.stopReason === 'error').length;
  const missing = planned - new Set(inPlan.map(rolloutKey)).size;

  const parts = merged.parts.length > 0 ? ` (parts ${describeParts(merged.parts)})` : '';
  io.stderr.write(`Merged ${files.length} results file${files.length === 1 ? '' : 's'}${parts} into ${args.out}: ${formatCount(inPlan.length)} of ${formatCount(planned)} planned rollouts.\n`);
  if (merged.missingParts.length > 0) io.stderr.write(`Missing: part${merged.missingParts.length === 1 ? '' : 's'} ${describeParts(merged.missingParts)}; the report covers the parts given.\n`);
  else if (missing > 0) io.stderr.write(`${formatCount(missing)} planned rollouts have no record: run "orchestra eval" on ${args.out} without --shard to run only those.\n`);
  if (errors > 0) io.stderr.write(`${formatCount(errors)} rollouts stopped on an error; they run again when the evaluation is resumed.\n`);
  printReport(report, args, io);
  return errors > 0 || missing > 0 ? EXIT_CODES.failed : EXIT_CODES.ok;
}
