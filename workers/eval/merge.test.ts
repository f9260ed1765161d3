import { describe, expect, it } from 'vitest';
import { rolloutRecord as record } from '../../e2e/fixtures/rolloutRecord.ts';
import { PREFERENCE_PRESETS } from '../engine/preferences.ts';
import { mergeResults, MergeError, type ResultsPart } from './merge.ts';
import { evalPlan, summarizeEval, type EvalHeader } from './results.ts';
import { shardOfTask } from './shard.ts';

const taskIds = ['a', 'b', 'c', 'd', 'e', 'f'];
const policies = [
  { name: 'orchestrator', label: 'the orchestrator', model: 'orch-8b', preference: PREFERENCE_PRESETS.balanced },
  { name: 'cheapest', label: 'mini alone', model: 'mini', preference: PREFERENCE_PRESETS.balanced },
];
const plan = evalPlan(policies, 2);
const header = (shard?: { index: number; count: number }): EvalHeader => ({
  type: 'eval_started',
  version: 1,
  suite: 's.jsonl',
  suiteHash: 'suite-hash-0123456789',
  configHash: 'config-hash-0123456789',
  seed: '0',
  startedAt: shard ? `2025-01-0${shard.index + 2}T00:00:00.000Z` : '2025-01-01T00:00:00.000Z',
  ...(shard ? { shard } : {}),
  taskIds,
});

// Every rollout of the plan, with costs and latencies that make float sums order-sensitive.
const all = taskIds.flatMap((taskId, t) =>
  policies.flatMap((policy, p) =>
    [1, 2].map((rollout) => record(policy.name, taskId, rollout, { correct: (t + p + rollout) % 3 !== 0, costUsd: 0.1 + t * 0.0001 + p * 0.07, latencyMs: 1000 + 37 * t + rollout })),
  ),
);
const partOf = (index: number, count = 3): ResultsPart => ({
  source: `part-${index}.jsonl`,
  header: header({ index, count }),
  plan,
  records: all.filter((r) => shardOfTask(r.taskId, count) === index),
});

describe('mergeResults', () => {
  it("makes one machine's file from the parts: the same report, to the last bit", () => {
    const merged = mergeResults([partOf(2), partOf(0), partOf(1)]);
    expect(merged.header).toEqual({ ...header(), startedAt: '2025-01-02T00:00:00.000Z' });
    expect(merged.plan).toEqual(plan);
    expect(merged.records).toHaveLength(all.length);
    expect(merged.parts.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(merged.missingParts).toEqual([]);
    const whole = summarizeEval({ taskIds, policies, rollouts: 2, records: all });
    expect(summarizeEval({ taskIds: merged.header.taskIds, policies: merged.plan.policies, rollouts: merged.plan.rollouts, records: merged.records })).toStrictEqual(whole);
  });

  it('names the parts no file holds', () => {
    expect(mergeResults([partOf(0), partOf(2)]).missingParts).toEqual([{ index: 1, count: 3 }]);
  });

  it('refuses a rollout found in two files, naming both and the rollouts', () => {
    const copy = { ...partOf(1), source: 'copy.jsonl' };
    expect(() => mergeResults([partOf(0), partOf(1), copy])).toThrow(MergeError);
    expect(() => mergeResults([partOf(0), partOf(1), copy])).toThrow(/^"part-1\.jsonl" and "copy\.jsonl" both hold \S+ · \S+ #\d, .* and \d+ more: a rollout must be in one file only/);
    // Within one file, a later record of a rollout is a resumed retry, not a duplicate.
    const retried = { ...partOf(0), records: [...partOf(0).records, partOf(0).records[0]!] };
    expect(mergeResults([retried, partOf(1), partOf(2)]).records).toHaveLength(all.length + 1);
  });

  it('refuses files of different evaluations, naming both and what differs', () => {
    const other = { ...partOf(1), header: { ...partOf(1).header, configHash: 'other-config-hash' } };
    expect(() => mergeResults([partOf(0), other])).toThrow(
      '"part-0.jsonl" and "part-1.jsonl" hold results of different evaluations: the configuration (hash config-hash- in "part-0.jsonl", other-config in "part-1.jsonl") differs.',
    );
    const suiteAndSeed = { ...partOf(1), header: { ...partOf(1).header, suiteHash: 'x', seed: '7' } };
    expect(() => mergeResults([partOf(0), suiteAndSeed])).toThrow(/the suite \(hash suite-hash-0 in "part-0\.jsonl", x in "part-1\.jsonl"\); the seed \("0" in "part-0\.jsonl", "7" in "part-1\.jsonl"\) differ\.$/);
  });

  it('refuses files run with other policies or rollouts', () => {
    const fewer = { ...partOf(1), plan: evalPlan(policies.slice(0, 1), 2) };
    expect(() => mergeResults([partOf(0), fewer])).toThrow('"part-0.jsonl" and "part-1.jsonl" were run with different plans: the policies orchestrator, cheapest in "part-0.jsonl", orchestrator in "part-1.jsonl".');
    const more = { ...partOf(1), plan: evalPlan(policies, 3) };
    expect(() => mergeResults([partOf(0), more])).toThrow(/2 rollouts per task in "part-0\.jsonl", 3 in "part-1\.jsonl"/);
  });

  it('refuses files that do not say what they were run for', () => {
    const { taskIds: _ids, ...oldHeader } = header({ index: 0, count: 3 });
    expect(() => mergeResults([{ ...partOf(0), header: oldHeader }])).toThrow(/"part-0\.jsonl" was written before results files kept the suite's order/);
    expect(() => mergeResults([{ ...partOf(0), plan: null }])).toThrow(/"part-0\.jsonl" has no plan line/);
  });
});
