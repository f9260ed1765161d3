// Results files of one evaluation run in parts (`orchestra eval --shard i/n` on several machines)
// combined into the file one machine would have written: the same header (the whole suite), the
// same plan, every record. The report is then made from the records, as one machine makes it
// (summarizeEval), never from the parts' reports. Files of different evaluations, or with the same
// rollout in two of them, are refused, naming both.

import { formatShard, type Shard } from './shard.ts';
import { latestRecords, samePlan, type EvalHeader, type EvalPlan, type RolloutRecord } from './results.ts';

/** One results file, read. */
export interface ResultsPart {
  /** The file's name, for messages. */
  source: string;
  header: EvalHeader;
  plan: EvalPlan | null;
  records: RolloutRecord[];
}

export interface MergedResults {
  /** The whole suite's header: no part, the earliest start. */
  header: EvalHeader & { taskIds: string[] };
  plan: EvalPlan;
  /** Every record of every file, file by file, in the order given. */
  records: RolloutRecord[];
  /** The parts of n the files were run as, when all were parts of the same n. */
  parts: Shard[];
  /** Parts of that n no file holds (their tasks are not in the report). */
  missingParts: Shard[];
}

export class MergeError extends Error {
  override name = 'MergeError';
}

const short = (hash: string) => hash.slice(0, 12);

/** How two files' evaluations differ, in words; empty when they are the same evaluation. */
function differences(a: ResultsPart, b: ResultsPart): string[] {
  const x = a.header;
  const y = b.header;
  const out: string[] = [];
  if (x.version !== y.version) out.push(`the results format (version ${x.version} in "${a.source}", ${y.version} in "${b.source}")`);
  if (x.suiteHash !== y.suiteHash) out.push(`the suite (hash ${short(x.suiteHash)} in "${a.source}", ${short(y.suiteHash)} in "${b.source}")`);
  if (x.configHash !== y.configHash) out.push(`the configuration (hash ${short(x.configHash)} in "${a.source}", ${short(y.configHash)} in "${b.source}")`);
  if (x.seed !== y.seed) out.push(`the seed ("${x.seed}" in "${a.source}", "${y.seed}" in "${b.source}")`);
  return out;
}

function planDifference(a: ResultsPart & { plan: EvalPlan }, b: ResultsPart & { plan: EvalPlan }): string {
  const names = (part: ResultsPart & { plan: EvalPlan }) => part.plan.policies.map((policy) => policy.name).join(', ');
  if (a.plan.rollouts !== b.plan.rollouts) return `${a.plan.rollouts} rollouts per task in "${a.source}", ${b.plan.rollouts} in "${b.source}"`;
  if (names(a) !== names(b)) return `the policies ${names(a)} in "${a.source}", ${names(b)} in "${b.source}"`;
  return `the policies' descriptions (labels, models or preferences) differ between "${a.source}" and "${b.source}"`;
}

/** Checks one file can take part: it says which suite order and plan it was run for. */
function checkedPart(part: ResultsPart): ResultsPart & { plan: EvalPlan; header: { taskIds: string[] } } {
  if (!part.header.taskIds) throw new MergeError(`"${part.source}" was written before results files kept the suite's order, so it cannot be merged: run its evaluation again into a new --out file.`);
  if (!part.plan) throw new MergeError(`"${part.source}" has no plan line (its policies and rollouts): it was written before "eval merge" existed. Run the same "orchestra eval" command on it once more (nothing is re-run) to add one.`);
  return part as ResultsPart & { plan: EvalPlan; header: { taskIds: string[] } };
}

const describeKey = (record: RolloutRecord) => `${record.policy} · ${record.taskId} #${record.rollout}`;

/** Refuses a rollout found in two files: one machine would have run it once. */
function checkNoDuplicates(parts: readonly ResultsPart[]): void {
  const owner = new Map<string, string>();
  for (const part of parts) {
    const clashes = new Map<string, RolloutRecord[]>();
    for (const [key, record] of latestRecords(part.records)) {
      const first = owner.get(key);
      if (first === undefined) owner.set(key, part.source);
      else clashes.set(first, [...(clashes.get(first) ?? []), record]);
    }
    const [other, records] = [...clashes][0] ?? [];
    if (other === undefined || records === undefined) continue;
    const shown = records.slice(0, 3).map(describeKey).join(', ');
    const more = records.length > 3 ? ` and ${records.length - 3} more` : '';
    throw new MergeError(
      `"${other}" and "${part.source}" both hold ${shown}${more}: a rollout must be in one file only (were they run as the same part, or is one a copy of the other?).`,
    );
  }
}

/** The parts of n the files hold, when every file is a part of the same n (else none). */
function partsOf(parts: readonly ResultsPart[]): { parts: Shard[]; missingParts: Shard[] } {
  const shards = parts.map((part) => part.header.shard);
  const count = shards[0]?.count;
  if (count === undefined || shards.some((shard) => shard?.count !== count)) return { parts: [], missingParts: [] };
  const held = new Set(shards.map((shard) => shard?.index));
  const all = Array.from({ length: count }, (_, index) => ({ index, count }));
  return { parts: all.filter((shard) => held.has(shard.index)), missingParts: all.filter((shard) => !held.has(shard.index)) };
}

/** Combines the results files of one evaluation; throws a MergeError naming the files that do not fit. */
export function mergeResults(input: readonly ResultsPart[]): MergedResults {
  if (input.length === 0) throw new MergeError('Give the results files to merge.');
  const parts = input.map(checkedPart);
  const first = parts[0]!;
  for (const part of parts.slice(1)) {
    const differ = differences(first, part);
    if (differ.length > 0) throw new MergeError(`"${first.source}" and "${part.source}" hold results of different evaluations: ${differ.join('; ')} differ${differ.length === 1 ? 's' : ''}.`);
    if (!samePlan(first.plan, part.plan)) throw new MergeError(`"${first.source}" and "${part.source}" were run with different plans: ${planDifference(first, part)}.`);
  }
  checkNoDuplicates(parts);
  const { shard: _shard, ...whole } = first.header;
  const startedAt = parts.map((part) => part.header.startedAt).sort()[0] ?? first.header.startedAt;
  return {
    header: { ...whole, startedAt, taskIds: first.header.taskIds },
    plan: first.plan,
    records: parts.flatMap((part) => part.records),
    ...partsOf(parts),
  };
}

/** The parts named, at most 20 (a file may be part 9,999 of 10,000: the rest are counted). */
export const describeParts = (shards: readonly Shard[]): string =>
  shards.length <= 20 ? shards.map(formatShard).join(', ') : `${shards.slice(0, 20).map(formatShard).join(', ')} and ${(shards.length - 20).toLocaleString('en-US')} more`;
