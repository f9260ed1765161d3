import { describe, expect, it } from 'vitest';
import { PREFERENCE_PRESETS } from '../engine/preferences.ts';
import { computeGroupReward } from '../engine/reward.ts';
import { rolloutRecord } from '../../e2e/fixtures/rolloutRecord.ts';
import {
  evalPlan,
  headerMismatch,
  passHatKOf,
  preferenceOfPolicyName,
  readRecord,
  readResultsText,
  readSummary,
  reportOfRecords,
  summarizeEval,
  summaryLine,
  summaryToCsv,
  type EvalHeader,
} from './results.ts';

const record = rolloutRecord;

const policies = [
  { name: 'orchestrator', label: 'the orchestrator', model: 'orch-8b', preference: PREFERENCE_PRESETS.balanced },
  { name: 'strongest', label: 'gpt-5 alone', model: 'gpt-5', preference: PREFERENCE_PRESETS.balanced },
];

describe('summarizeEval', () => {
  const records = [
    record('orchestrator', 'a', 1, { correct: true, costUsd: 0.002, toolFeatures: { 'search-1': 1, 'answer-2': 1 }, modelCalls: { 'orch-8b': 2, 'gpt-5-mini': 2 } }),
    record('orchestrator', 'a', 2, { correct: false, costUsd: 0.004, latencyMs: 3000, toolFeatures: { 'answer-1': 1 }, modelCalls: { 'orch-8b': 1, 'gpt-5': 1 } }),
    record('orchestrator', 'b', 1, { correct: true, costUsd: 0.003, gradingCostUsd: 0.001, toolFeatures: { 'answer-2': 2 }, modelCalls: { 'orch-8b': 2, 'gpt-5-mini': 2 } }),
    // An earlier record of the same rollout, superseded by the one after it.
    record('orchestrator', 'b', 2, { correct: false, stopReason: 'error', costUsd: 0 }),
    record('orchestrator', 'b', 2, { correct: true, costUsd: 0.003, toolFeatures: { 'answer-2': 1 }, modelCalls: { 'orch-8b': 1, 'gpt-5-mini': 1 } }),
    record('strongest', 'a', 1, { correct: true, costUsd: 0.02 }),
    record('strongest', 'a', 2, { correct: true, costUsd: 0.02 }),
    record('strongest', 'b', 1, { correct: false, costUsd: 0.02, verdict: { check: 'judge', correct: false, failed: true, reason: 'no judge' } }),
    record('strongest', 'b', 2, { correct: true, costUsd: 0.02, stopReason: 'max_turns' }),
    // Not in the plan: another task, a third rollout.
    record('strongest', 'z', 1, { costUsd: 100 }),
    record('strongest', 'a', 3, { costUsd: 100 }),
  ];
  const report = summarizeEval({ taskIds: ['a', 'b'], policies, rollouts: 2, records });

  it('gives each policy its accuracy with the Wilson interval, mean cost and latency, and cost per correct answer', () => {
    const [orchestrator, strongest] = report.policies;
    expect(orchestrator).toMatchObject({
      name: 'orchestrator',
      tasks: 2,
      rollouts: 4,
      correct: 3,
      accuracy: 0.75,
      totalCostUsd: 0.012,
      gradingCostUsd: 0.001,
      abnormalStops: 0,
      failedChecks: 0,
    });
    expect(orchestrator?.costUsd).toBeCloseTo(0.003, 12);
    expect(orchestrator?.latencyMs).toBe(1500);
    expect(orchestrator?.costPerCorrect).toBeCloseTo(0.004, 12);
    expect(orchestrator?.accuracyLow).toBeCloseTo(0.3006, 4);
    expect(orchestrator?.accuracyHigh).toBeCloseTo(0.9544, 4);
    expect(strongest).toMatchObject({ rollouts: 4, correct: 3, accuracy: 0.75, abnormalStops: 1, failedChecks: 1 });
    expect(strongest?.costUsd).toBeCloseTo(0.02, 12);
  });

  it('shares tool calls and model calls out, largest first', () => {
    const [orchestrator] = report.policies;
    expect(orchestrator?.toolCalls).toEqual({ 'search-1': 1, 'answer-2': 4, 'answer-1': 1 });
    expect(orchestrator?.toolShares).toEqual({ 'answer-2': 4 / 6, 'answer-1': 1 / 6, 'search-1': 1 / 6 });
    expect(Object.keys(orchestrator?.toolShares ?? {})).toEqual(['answer-2', 'answer-1', 'search-1']);
    expect(orchestrator?.modelShares).toEqual({ 'orch-8b': 6 / 12, 'gpt-5-mini': 5 / 12, 'gpt-5': 1 / 12 });
  });

  it('marks the Pareto front: the cheaper policy with equal accuracy beats the dearer one', () => {
    expect(report.pareto).toEqual(['orchestrator']);
    expect(report.policies.map((p) => p.pareto)).toEqual([true, false]);
  });

  it('computes each task\'s group reward under the policy\'s preference, as the reward module does', () => {
    const group = report.groups.find((g) => g.policy === 'orchestrator' && g.taskId === 'a');
    const expected = computeGroupReward(
      [
        { correct: true, costUsd: 0.002, latencyMs: 1000, toolCounts: { 'search-1': 1, 'answer-2': 1 } },
        { correct: false, costUsd: 0.004, latencyMs: 3000, toolCounts: { 'answer-1': 1 } },
      ],
      PREFERENCE_PRESETS.balanced,
    );
    expect(group).toMatchObject({ rollouts: 2, correct: 1 });
    expect(group?.reward?.rewards).toEqual(expected.rewards);
    expect(group?.reward?.advantages).toEqual(expected.advantages);
    expect(group?.reward?.normalized[0]).toMatchObject({ outcome: 1, cost: 1, latency: 1 });
  });

  it("weighs only the agent's cost in the reward, as τ² reports agent_cost apart from user_cost, and counts τ²'s criteria", () => {
    const criteria = (communicate: number | null) => [
      { criterion: 'DB', counted: true, reward: 1, reason: 'equal' },
      { criterion: 'COMMUNICATE', counted: true, reward: communicate, reason: 'r' },
    ];
    const tau2 = (rollout: number, costUsd: number, userCostUsd: number, communicate: number | null) =>
      record('orchestrator', 't', rollout, { costUsd, userCostUsd, correct: communicate === 1, verdict: { check: 'tau2', correct: communicate === 1, reason: 'r', criteria: criteria(communicate) } });
    // Rollout 1 spent more in all, but its agent only $0.001 (the user the rest); rollout 2's agent $0.003.
    const records = [tau2(1, 0.01, 0.009, 1), tau2(2, 0.004, 0.001, 1), tau2(3, 0.002, 0.001, 0), tau2(4, 0.002, 0.001, null)];
    const summary = summarizeEval({ taskIds: ['t'], policies: policies.slice(0, 1), rollouts: 4, records });
    const group = summary.groups[0];
    const expected = computeGroupReward(
      records.map((r) => ({ correct: r.correct, costUsd: r.costUsd - r.userCostUsd!, latencyMs: r.latencyMs, toolCounts: r.toolFeatures })),
      PREFERENCE_PRESETS.balanced,
    );
    expect(group?.reward?.rewards).toEqual(expected.rewards);
    expect(group?.reward?.normalized[0]?.cost).toBeCloseTo(1, 12);
    expect(summary.policies[0]?.criteria).toEqual({ DB: { passed: 4, failed: 0, notGraded: 0 }, COMMUNICATE: { passed: 2, failed: 1, notGraded: 1 } });
    expect(summary.policies[0]?.userCostUsd).toBeCloseTo(0.012, 12);
  });

  it("gives τ²'s pass^k from each task's rollouts: k of them all right, averaged over tasks", () => {
    // The orchestrator: a is 1 of 2 right, b 2 of 2; pass^1 = (1/2 + 1)/2, pass^2 = (0 + 1)/2.
    expect(report.policies.map((p) => p.passHatK)).toEqual([
      [0.75, 0.5],
      [0.75, 0.5],
    ]);
    // K is the fewest rollouts a task has; 3 of 4 right is C(3,2)/C(4,2) = 1/2 for pass^2.
    expect(passHatKOf([{ rollouts: 4, correct: 3 }, { rollouts: 2, correct: 2 }])).toEqual([(0.75 + 1) / 2, (0.5 + 1) / 2]);
    expect(passHatKOf([])).toEqual([]);
  });

  it('keeps a policy whose costs are partly unpriced off the front', () => {
    const unpriced = summarizeEval({
      taskIds: ['a'],
      policies,
      rollouts: 1,
      records: [record('orchestrator', 'a', 1, { costUsd: 0.001, unknownCostEntries: 2 }), record('strongest', 'a', 1, { costUsd: 0.02 })],
    });
    expect(unpriced.pareto).toEqual(['strongest']);
  });

  it('leaves the groups out of the summary line', () => {
    const line = summaryLine(report);
    expect(line).not.toHaveProperty('groups');
    expect(line).toMatchObject({ type: 'eval_summary', interval: 'wilson-95', tasks: 2, rolloutsPerTask: 2 });
  });
});

describe('summaryToCsv', () => {
  it('writes one row per policy, quoting where needed and never as a formula', () => {
    const hostile = [{ name: '=HYPERLINK("http://x")', label: 'a, "quoted" label', model: '@model', preference: PREFERENCE_PRESETS.balanced }];
    const report = summarizeEval({ taskIds: ['a'], policies: hostile, rollouts: 1, records: [record('=HYPERLINK("http://x")', 'a', 1, { toolFeatures: { 'answer-1': 1 } })] });
    const [header, row] = summaryToCsv(report).trimEnd().split('\n');
    expect(header).toBe(
      'policy,label,model,tasks,rollouts,correct,accuracy,accuracy_low_95,accuracy_high_95,mean_cost_usd,total_cost_usd,grading_cost_usd,mean_latency_ms,cost_per_correct_usd,pareto,abnormal_stops,failed_checks,unknown_cost_entries,tool_shares,model_shares,pass_hat_k',
    );
    expect(row).toMatch(/^"'=HYPERLINK\(""http:\/\/x""\)","a, ""quoted"" label",'@model,1,1,1,1,/);
    expect(row).toMatch(/,answer-1=1,,1=1$/);
  });
});

describe('results files', () => {
  const header: EvalHeader = { type: 'eval_started', version: 1, suite: 's.jsonl', suiteHash: 'a', configHash: 'b', seed: '0', startedAt: '' };

  it('say why a resumed evaluation does not fit', () => {
    expect(headerMismatch(header, { ...header, startedAt: 'later' })).toBeNull();
    expect(headerMismatch({ ...header, shard: { index: 0, count: 3 } }, { ...header, shard: { index: 1, count: 3 } })).toBe('it holds part 0/3 of the suite, and this is part 1/3 of the suite');
    expect(headerMismatch({ ...header, shard: { index: 0, count: 3 } }, header)).toBe('it holds part 0/3 of the suite, and this is the whole suite');
    expect(headerMismatch(header, { ...header, suiteHash: 'c', seed: '1' })).toBe('it holds results of another evaluation: the suite, the seed ("0" then, "1" now) differ');
    expect(headerMismatch(header, { ...header, version: 2 })).toMatch(/another version/);
  });

  it('read back only whole, well-typed records', () => {
    const good = record('p', 't', 1, {});
    expect(readRecord(JSON.parse(JSON.stringify(good)))).toEqual(good);
    expect(readRecord({ ...good, costUsd: 'free' })).toBeNull();
    expect(readRecord({ ...good, toolFeatures: { a: 'x' } })).toBeNull();
    expect(readRecord({ ...good, rollout: 1.5 })).toBeNull();
    expect(readRecord(null)).toBeNull();
  });
});

describe('reading results back', () => {
  const header: EvalHeader = { type: 'eval_started', version: 1, suite: 's.jsonl', suiteHash: 'a', configHash: 'b', seed: '0', startedAt: '2025-01-01T00:00:00.000Z' };
  const records = [
    record('orchestrator@cheapest', 'a', 1, { correct: true, costUsd: 0.002, toolFeatures: { 'answer-2': 1 }, modelCalls: { orch: 1, mini: 1 } }),
    record('orchestrator@cheapest', 'b', 1, { correct: false, costUsd: 0.004, modelCalls: { orch: 2, mini: 1 } }),
    record('strongest', 'a', 1, { costUsd: 0.02, modelCalls: { big: 1 } }),
    record('strongest', 'b', 2, { costUsd: 0.02, modelCalls: { big: 1 } }),
  ];
  const text = `${[header, ...records].map((line) => JSON.stringify(line)).join('\n')}\n`;

  it('reads a results file: its header and records, a line cut short skipped', () => {
    const read = readResultsText(`${text}{"type": "rollout", "pol`);
    expect(read).toMatchObject({ header, notResults: false, unterminated: true });
    expect(read.records).toEqual(records);
    expect(readResultsText('{"type": "eval_summary"}\n').notResults).toBe(true);
  });

  it("reads the last plan line: the latest session's policies and rollouts", () => {
    const first = evalPlan(policies, 1);
    const second = evalPlan(policies.slice(0, 1), 3);
    const lines = [header, first, records[0], second, records[1]].map((line) => JSON.stringify(line));
    const read = readResultsText(`${lines.join('\n')}\n`);
    expect(read.plan).toEqual(second);
    expect(read.records).toEqual(records.slice(0, 2));
    // A plan line that is not well formed is no plan (nor a record).
    const broken = readResultsText(`${JSON.stringify(header)}\n${JSON.stringify({ ...first, rollouts: 0 })}\n`);
    expect(broken).toMatchObject({ plan: null, records: [] });
  });

  it('reports a results file as the CLI would from the same records, the policies labelled by name', () => {
    const report = reportOfRecords(records);
    expect(report).toMatchObject({ tasks: 2, rolloutsPerTask: 2 });
    expect(report.policies.map((p) => [p.name, p.label, p.model, p.rollouts, p.correct])).toEqual([
      ['orchestrator@cheapest', 'orchestrator@cheapest', 'orch', 2, 1],
      ['strongest', 'strongest', 'big', 2, 2],
    ]);
    expect(report.policies[0]?.preference).toEqual(PREFERENCE_PRESETS.cheapest);
    expect(report.policies[1]?.preference).toEqual(PREFERENCE_PRESETS.balanced);
  });

  it('knows the preference a policy name states', () => {
    expect(preferenceOfPolicyName('orchestrator@best-answer')).toEqual(PREFERENCE_PRESETS['best-answer']);
    expect(preferenceOfPolicyName('orchestrator@cost=0.25')).toEqual({ outcome: 0.75, cost: 0.25, latency: 0, tools: {} });
    expect(preferenceOfPolicyName('orchestrator@cost=2')).toBeNull();
    expect(preferenceOfPolicyName('orchestrator')).toBeNull();
    expect(preferenceOfPolicyName('random')).toBeNull();
  });

  it('reads a summary back only with every field the table uses', () => {
    const summary = summaryLine(reportOfRecords(records));
    expect(readSummary(JSON.parse(JSON.stringify(summary)))).toEqual(summary);
    expect(readSummary({ ...summary, policies: [{ ...summary.policies[0], costUsd: 'cheap' }] })).toBeNull();
    expect(readSummary({ ...summary, pareto: [1] })).toBeNull();
    expect(readSummary({ type: 'eval_started' })).toBeNull();
    expect(readSummary(null)).toBeNull();
  });

  it("keeps a report's well-formed groups and drops the rest, and a group's reward only when every figure in it is a number", () => {
    const summary = summaryLine(reportOfRecords(records));
    const reward = { rewards: [0.5, 0.1], advantages: [0.7, -0.7], mean: 0.3, std: 0.28, lowSpread: false, tooSmall: true, normalized: [{ cost: 0 }, { cost: 1 }], skippedFeatures: [] };
    const good = { policy: 'orchestrator', taskId: 'a', rollouts: 2, correct: 1, reward };
    const read = readSummary({
      ...summary,
      groups: [good, { ...good, taskId: 7 }, { ...good, taskId: 'b', reward: { ...reward, advantages: ['<b>high</b>', 0] } }, 'junk'],
    });
    expect(read && 'groups' in read ? read.groups : null).toEqual([good, { policy: 'orchestrator', taskId: 'b', rollouts: 2, correct: 1 }]);
    expect(readSummary({ ...summary, groups: 'none' })).toEqual({ ...summary, groups: [] });
  });
});
