import { describe, expect, it } from 'vitest';
import { rolloutRecord } from '../../../e2e/fixtures/rolloutRecord.ts';
import { PREFERENCE_PRESETS } from '../../../workers/engine/preferences.ts';
import { summarizeEval, summaryLine } from '../../../workers/eval/results.ts';
import type { EvalProgress } from '../../../workers/eval/runner.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';
import { RESULTS_LIMITS } from '../../../workers/eval/results.ts';
import { chartedPolicies, groupViews, localQwen3Policy, perPolicyHeadline, policyNames, readSavedResults, SAVED_LIMITS, savedResults, policyRow, progressView, readBudget, readImportedResults, readTaskLimit, resultsFileSizeProblem, scatterPoints, shareBars, sharesText, verdictLine } from './evalView.ts';

const describe3 = (name: string) => ({ name, label: `the ${name}`, model: `${name}-model`, preference: PREFERENCE_PRESETS.balanced });
const records = [
  rolloutRecord('orchestrator', 'a', 1, { costUsd: 0.002, toolFeatures: { 'answer-2': 3, 'search-1': 1 } }),
  rolloutRecord('orchestrator', 'b', 1, { costUsd: 0.004, correct: false, verdict: { check: 'exact', correct: false, reason: '"0" is not "7"' } }),
  rolloutRecord('strongest', 'a', 1, { costUsd: 0.02 }),
  rolloutRecord('strongest', 'b', 1, { costUsd: 0.02 }),
  rolloutRecord('cheapest', 'a', 1, { costUsd: 0.001, unknownCostEntries: 1, hasEstimates: true }),
  rolloutRecord('cheapest', 'b', 1, { costUsd: 0.001, correct: false, stopReason: 'max_turns', verdict: { check: 'judge', correct: false, failed: true, reason: 'the judge could not be reached' } }),
];
const report = summarizeEval({ taskIds: ['a', 'b'], policies: ['orchestrator', 'strongest', 'cheapest'].map(describe3), rollouts: 1, records });

describe('the policies a choice runs', () => {
  it('spells them as the CLI does: the orchestrator, a sweep, the baselines', () => {
    expect(policyNames({ orchestrator: true, sweep: 'none', strongest: true, cheapest: false, random: true })).toEqual(['orchestrator', 'strongest', 'random']);
    expect(policyNames({ orchestrator: false, sweep: 'presets', strongest: false, cheapest: true, random: false })).toEqual([
      'orchestrator@cheapest',
      'orchestrator@balanced',
      'orchestrator@best-answer',
      'orchestrator@fastest',
      'cheapest',
    ]);
    expect(policyNames({ orchestrator: false, sweep: 'cost', strongest: false, cheapest: false, random: false })).toEqual([
      'orchestrator@cost=0',
      'orchestrator@cost=0.25',
      'orchestrator@cost=0.5',
      'orchestrator@cost=0.75',
      'orchestrator@cost=1',
    ]);
  });

  it('runs a model loaded in this browser as a prompted Qwen3 under the config\'s provider of its kind, or one it adds', () => {
    // Only the providers matter here.
    const config = { providers: { scripted: { kind: 'openai-compatible', baseUrl: 'http://x/v1' }, tab: { kind: 'gguf' } } } as unknown as ConfigDraft;
    const gguf = { id: 'tiny-qwen3', gguf: { threads: 1, webgpu: false, contextWindow: 8192, fromCache: false } } as unknown as Parameters<typeof localQwen3Policy>[1];
    expect(localQwen3Policy(config, gguf)).toEqual({ config, policy: 'qwen3=tab/tiny-qwen3' });
    const webllm = localQwen3Policy(config, { id: 'Qwen3-0.6B-q4f16_1-MLC' });
    expect(webllm.policy).toBe('qwen3=browser-webllm/Qwen3-0.6B-q4f16_1-MLC');
    expect(webllm.config.providers).toEqual({ ...config.providers, 'browser-webllm': { kind: 'webllm' } });
    // The config itself is left as it is, and a name in use is not taken over.
    expect(config.providers).not.toHaveProperty('browser-webllm');
    const taken = { providers: { 'browser-webllm': { kind: 'anthropic' } } } as unknown as ConfigDraft;
    expect(localQwen3Policy(taken, { id: 'm' }).policy).toBe('qwen3=browser-webllm-2/m');
  });

  it('reads a budget: none, dollars, or a problem', () => {
    expect(readBudget('')).toEqual({ ok: true, usd: null });
    expect(readBudget(' $2.50 ')).toEqual({ ok: true, usd: 2.5 });
    expect(readBudget('0')).toMatchObject({ ok: false });
    expect(readBudget('lots')).toMatchObject({ ok: false });
  });

  it('reads the first N tasks as the CLI\'s --limit: all when empty, else a whole number from 1', () => {
    expect(readTaskLimit(' ')).toEqual({ ok: true, limit: undefined });
    expect(readTaskLimit('3')).toEqual({ ok: true, limit: 3 });
    expect(readTaskLimit('0')).toMatchObject({ ok: false });
    expect(readTaskLimit('2.5')).toMatchObject({ ok: false, problem: expect.stringContaining('"2.5"') });
  });
});

describe('the progress line', () => {
  const progress: EvalProgress = { total: 60, skipped: 10, finished: 2, running: 4, correct: 9, graded: 12, spentUsd: 0.0043, elapsedMs: 5000, etaMs: 20_000 };
  it('says rollouts done, money spent and time left, and no accuracy pooled over the policies', () => {
    expect(progressView(progress)).toEqual({ done: 12, total: 60, fraction: 0.2, text: '12 of 60 rollouts · $0.0043 spent · 4 running · 20.0 s left' });
  });
  it('says nothing of time once all are done', () => {
    expect(progressView({ ...progress, skipped: 0, finished: 0, correct: 0, graded: 0, etaMs: null }).text).toBe('0 of 60 rollouts · $0.0043 spent · 4 running');
    expect(progressView({ ...progress, skipped: 0, finished: 60, running: 0, graded: 60, correct: 30 }).text).toBe('60 of 60 rollouts · $0.0043 spent');
  });
});

describe('the results table', () => {
  it('gives each policy its accuracy with the interval, costs, latency and top tool shares', () => {
    expect(policyRow(report.policies[0]!)).toEqual({
      name: 'orchestrator',
      label: 'the orchestrator',
      pareto: true,
      rollouts: '1/2',
      accuracy: '50.0%',
      interval: '9.5%–90.5%',
      cost: '$0.003',
      latency: '1.0 s',
      costPerCorrect: '$0.006',
      tools: 'answer-2 75%, search-1 25%',
      caveats: '',
    });
  });
  it('says what is not in a figure: estimates, abnormal stops, checks that could not run, unpriced calls', () => {
    expect(policyRow(report.policies[2]!)).toMatchObject({ cost: '$0.001 ≈', costPerCorrect: '$0.002', caveats: '1 stopped abnormally · 1 check could not run · 1 unpriced call left out of the cost' });
  });
  it('heads the results with each policy\'s accuracy, not one pooled over them', () => {
    expect(perPolicyHeadline(report.policies)).toEqual(report.policies.map((p) => `${p.name} ${(p.accuracy * 100).toFixed(1)}% (${p.correct}/${p.rollouts})`));
    expect(perPolicyHeadline(report.policies)[0]).toBe('orchestrator 50.0% (1/2)');
    // A sweep of many policies: the first few by name, then how many more the table lists.
    const many = Array.from({ length: 11 }, (_, index) => ({ ...report.policies[0]!, name: `p${index}` }));
    expect(perPolicyHeadline(many, 8)).toHaveLength(9);
    expect(perPolicyHeadline(many, 8)[8]).toBe('and 3 more policies: the results table lists each');
    expect(perPolicyHeadline(many.slice(0, 9), 8)[8]).toBe('and 1 more policy: the results table lists each');
    expect(perPolicyHeadline(many.slice(0, 8), 8)).toHaveLength(8);
  });
  it('lists at most three shares', () => {
    expect(sharesText({ a: 0.4, b: 0.3, c: 0.2, d: 0.1 })).toBe('a 40%, b 30%, c 20%, …');
    expect(sharesText({})).toBe('—');
  });
});

describe('the charts', () => {
  it('plots every policy with a known cost and joins the front cheapest first', () => {
    const { points, front } = scatterPoints(report);
    // The cheapest has unpriced calls: its mean cost is no point to plot.
    expect(points.map((p) => p.name)).toEqual(['orchestrator', 'strongest']);
    expect(front.map((p) => p.name)).toEqual(['orchestrator', 'strongest']);
    expect(points[1]).toMatchObject({ costUsd: 0.02, accuracy: 1, high: 1, pareto: true });
  });
  it('draws every policy up to the cap; past it the Pareto front, then the most accurate, in the summary’s order', () => {
    expect(chartedPolicies(report)).toEqual({ summary: report, total: report.policies.length });
    const base = report.policies[0]!;
    const policies = Array.from({ length: 30 }, (_, index) => ({ ...base, name: `p${index}`, accuracy: (index % 10) / 10, costUsd: index / 100, pareto: index === 3 }));
    const many = { ...report, policies, pareto: ['p3'] };
    const { summary, total } = chartedPolicies(many, 5);
    expect(total).toBe(30);
    // p3 (the front), then accuracy 0.9 (p9, p19, p29), then 0.8 the cheaper first (p8).
    expect(summary.policies.map((p) => p.name)).toEqual(['p3', 'p8', 'p9', 'p19', 'p29']);
    expect(summary.pareto).toEqual(['p3']);
  });
  it('stacks each policy’s tool shares, the biggest feature first', () => {
    expect(shareBars(report)).toEqual({ rows: [{ policy: 'orchestrator', 'answer-2': 0.75, 'search-1': 0.25 }], features: ['answer-2', 'search-1'] });
  });
});

describe('a verdict in a line', () => {
  it('marks right, wrong and checks that could not run, and says why', () => {
    expect(verdictLine(records[0]!)).toEqual({ mark: '✓', text: 'exact: r' });
    expect(verdictLine(records[1]!)).toEqual({ mark: '✗', text: 'exact: "0" is not "7"' });
    expect(verdictLine(records[5]!)).toEqual({ mark: '!', text: 'judge: the judge could not be reached (stopped: max_turns)' });
  });
});

describe('importing what orchestra eval wrote', () => {
  const header = { type: 'eval_started', version: 1, suite: 's', suiteHash: 'a', configHash: 'b', seed: '0', startedAt: 'now' };
  const resultsFile = `${[header, ...records].map((line) => JSON.stringify(line)).join('\n')}\n`;

  it('reads a results file (--out) into the report the CLI prints from it', () => {
    const read = readImportedResults(resultsFile);
    if (!read.ok || read.kind !== 'records') throw new Error('expected records');
    expect(read.records).toHaveLength(6);
    expect(read.report.policies.map((p) => [p.name, p.accuracy, p.costUsd])).toEqual(report.policies.map((p) => [p.name, p.accuracy, p.costUsd]));
  });

  it('reads the --json output (its last line) and a --report file', () => {
    const line = summaryLine(report);
    expect(readImportedResults(`progress…\n${JSON.stringify(line)}\n`)).toEqual({ ok: true, kind: 'summary', summary: line });
    expect(readImportedResults(JSON.stringify(report, null, 2))).toEqual({ ok: true, kind: 'summary', summary: report });
  });

  it('refuses anything else, and a results file with no rollout yet', () => {
    expect(readImportedResults('')).toEqual({ ok: false, problems: ['The file is empty.'] });
    expect(readImportedResults('{"type": "eval_summary", "policies": "none"}')).toMatchObject({ ok: false });
    expect(readImportedResults(`${JSON.stringify(header)}\n`)).toEqual({ ok: false, problems: ['The results file holds no finished rollout yet.'] });
    expect(resultsFileSizeProblem(30_000_000)).toBe('It is 30.0 MB; a results file may be 20.0 MB at most.');
    expect(resultsFileSizeProblem(1000)).toBeNull();
  });

  it('refuses, at once and saying which cap, a file past the caps on policies, tasks and nesting', () => {
    const onePolicyEach = [header, ...Array.from({ length: RESULTS_LIMITS.policies + 1 }, (_, i) => ({ ...records[0]!, policy: `p${i}` }))];
    expect(readImportedResults(`${onePolicyEach.map((line) => JSON.stringify(line)).join('\n')}\n`)).toEqual({
      ok: false,
      problems: [`It holds 101 policies; a results file may hold ${RESULTS_LIMITS.policies}.`],
    });
    const manyPolicies = { ...report, policies: Array.from({ length: RESULTS_LIMITS.policies + 1 }, () => report.policies[0]!) };
    expect(readImportedResults(JSON.stringify(manyPolicies))).toEqual({ ok: false, problems: ['It holds 101 policies; a report may hold 100.'] });
    // A name every chart label and table row would draw: one character past the cap is refused.
    const long = 'p'.repeat(RESULTS_LIMITS.policyNameChars + 1);
    const tooLong = { ok: false, problems: [`A policy's name is 1,001 characters; a name may be 1,000.`] };
    expect(readImportedResults(`${[header, { ...records[0]!, policy: long }].map((line) => JSON.stringify(line)).join('\n')}\n`)).toEqual(tooLong);
    expect(readImportedResults(JSON.stringify({ ...report, policies: [{ ...report.policies[0]!, name: long }] }))).toEqual(tooLong);
    expect(readImportedResults(`${[header, { ...records[0]!, policy: long.slice(1) }].map((line) => JSON.stringify(line)).join('\n')}\n`)).toMatchObject({ ok: true });
    // A report that lists a policy twice (the table and the charts key rows by name).
    const twice = { ...report, policies: [report.policies[0]!, { ...report.policies[0]!, accuracy: 0 }] };
    expect(readImportedResults(JSON.stringify(twice))).toEqual({ ok: false, problems: [`It lists the policy "${report.policies[0]!.name}" more than once.`] });
    expect(readImportedResults(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual({
      ok: false,
      problems: [`It is nested more than ${RESULTS_LIMITS.depth} levels deep; no file of this kind is.`],
    });
    // Kept results from before these caps are refused too: they would freeze every visit.
    const { saved } = savedResults({ origin: 'import', source: 's', records }, manyPolicies, new Date());
    expect(readSavedResults(saved)).toBeNull();
  });
});

describe('the last results, kept across a reload', () => {
  const at = new Date('2026-11-28T04:00:00Z');

  it('saves the report as drawn and the records, and reads them back the same', () => {
    const { saved, recordsLeftOut } = savedResults({ origin: 'run', source: 'builtin:corpus', records }, report, at);
    expect(recordsLeftOut).toBe(0);
    expect(saved).toMatchObject({ version: 1, savedAt: '2026-11-28T04:00:00.000Z', origin: 'run', source: 'builtin:corpus' });
    // What IndexedDB hands back is a structured clone.
    expect(readSavedResults(structuredClone(saved))).toEqual(saved);
  });

  it('keeps the report whole and at most the capped number of records', () => {
    const many = Array.from({ length: SAVED_LIMITS.records + 5 }, () => records[0]!);
    const { saved, recordsLeftOut } = savedResults({ origin: 'import', source: 'x'.repeat(1000), records: many }, report, at);
    expect(recordsLeftOut).toBe(5);
    expect(saved.records).toHaveLength(SAVED_LIMITS.records);
    expect(saved.source).toHaveLength(SAVED_LIMITS.sourceChars);
    expect(saved.report).toBe(report);
  });

  it('checks what it reads like an import: a broken report is refused, broken records dropped', () => {
    const { saved } = savedResults({ origin: 'run', source: 's', records }, report, at);
    expect(readSavedResults(undefined)).toBeNull();
    expect(readSavedResults({ ...saved, version: 2 })).toBeNull();
    expect(readSavedResults({ ...saved, origin: 'elsewhere' })).toBeNull();
    expect(readSavedResults({ ...saved, report: { ...report, policies: [{ name: '<img src=x>' }] } })).toBeNull();
    const read = readSavedResults({ ...saved, records: [records[0], { type: 'rollout', policy: 7 }, null] });
    expect(read?.records).toEqual([records[0]]);
  });
});

describe('the group rewards per task', () => {
  it('gives each rollout of a group its reward, advantage and normalised features, and says what the paper would do with the group', () => {
    const group = [
      rolloutRecord('orchestrator', 'a', 1, { costUsd: 0.002, latencyMs: 1000 }),
      rolloutRecord('orchestrator', 'a', 2, { costUsd: 0.004, latencyMs: 1000, correct: false, verdict: { check: 'exact', correct: false, reason: 'no' } }),
      rolloutRecord('orchestrator', 'b', 1, { costUsd: 0.002 }),
    ];
    const views = groupViews(summarizeEval({ taskIds: ['a', 'b'], policies: [describe3('orchestrator')], rollouts: 2, records: group }).groups);
    // Task b had one rollout: no group to compare.
    expect(views.map((view) => view.key)).toEqual(['orchestrator/a']);
    const [view] = views;
    expect(view!.line).toContain('1 of 2 correct');
    expect(view!.line).toContain('fewer than 3 rollouts');
    // Latency was the same in both: no spread, left out of the reward.
    expect(view!.line).toContain('no spread in latency (left out)');
    expect(view!.features).toEqual(expect.arrayContaining(['outcome', 'cost']));
    expect(view!.rows).toHaveLength(2);
    // The right and cheaper rollout is rewarded above the group, the other below.
    expect(Number(view!.rows[0]!.advantage)).toBeGreaterThan(0);
    expect(Number(view!.rows[1]!.advantage)).toBeLessThan(0);
    expect(view!.rows[0]!.values).toHaveLength(view!.features.length);
  });

  it('shows nothing for a report of single rollouts', () => {
    expect(groupViews(report.groups)).toEqual([]);
  });
});
