import { describe, expect, it } from 'vitest';
import { rolloutRecord } from '../../../e2e/fixtures/rolloutRecord.ts';
import { PREFERENCE_PRESETS } from '../../../workers/engine/preferences.ts';
import { summarizeEval } from '../../../workers/eval/results.ts';
import { perPolicyHeadline } from './evalView.ts';
import { criterionCell, passHatKHeadline, simulatedUserChoices, simulatedUserProblem, tau2Figures } from './tau2View.ts';

const policy = (name: string) => ({ name, label: `the ${name}`, model: `${name}-model`, preference: PREFERENCE_PRESETS.balanced });

/** A τ²-graded rollout: DB passed, COMMUNICATE as given, NL_ASSERTION not graded (no judge). */
function tau2Record(name: string, taskId: string, rollout: number, communicate: 0 | 1, userCostUsd = 0.001) {
  const correct = communicate === 1;
  return rolloutRecord(name, taskId, rollout, {
    correct,
    costUsd: 0.01 + userCostUsd,
    userCostUsd,
    verdict: {
      check: 'tau2',
      correct,
      reason: 'r',
      criteria: [
        { criterion: 'NL_ASSERTION', counted: false, reward: null, reason: 'no judge' },
        { criterion: 'COMMUNICATE', counted: true, reward: communicate, reason: 'r' },
        { criterion: 'DB', counted: true, reward: 1, reason: 'r' },
      ],
    },
  });
}

// Task a: right both times; task b: right once of two. pass^1 = (1 + 0.5) / 2, pass^2 = (1 + 0) / 2.
const records = [tau2Record('orchestrator', 'a', 1, 1), tau2Record('orchestrator', 'b', 1, 1), tau2Record('orchestrator', 'a', 2, 1), tau2Record('orchestrator', 'b', 2, 0)];
const report = summarizeEval({ taskIds: ['a', 'b'], policies: [policy('orchestrator')], rollouts: 2, records });

describe('τ²’s figures in the Evaluate tab', () => {
  it('are the report’s pass^k and criterion counts (the CLI’s), criteria in τ²’s order, the user’s cost apart', () => {
    expect(report.policies[0]?.passHatK).toEqual([0.75, 0.5]);
    expect(tau2Figures(report.policies)).toEqual({
      k: 2,
      ks: [1, 2],
      criteria: ['DB', 'COMMUNICATE', 'NL_ASSERTION'],
      rows: [{ name: 'orchestrator', passHatK: ['75.0%', '50.0%'], criteria: ['100.0% (4/4)', '75.0% (3/4)', 'not graded (4)'], userCost: '$0.004' }],
    });
  });

  // Issue 31, item 9: 72,000 rollouts of one task made the table 18,000 columns wide and more.
  it('draw at most 8 pass^k columns: the first 7 and the last, however many rollouts a task has', () => {
    const many = Array.from({ length: 72_000 }, (_, i) => tau2Record('orchestrator', 'a', i + 1, i === 0 ? 0 : 1));
    const big = summarizeEval({ taskIds: ['a'], policies: [policy('orchestrator')], rollouts: 72_000, records: many });
    expect(big.policies[0]?.passHatK).toHaveLength(72_000);
    const figures = tau2Figures(big.policies)!;
    expect(figures.k).toBe(72_000);
    expect(figures.ks).toEqual([1, 2, 3, 4, 5, 6, 7, 72_000]);
    expect(figures.rows[0]?.passHatK).toEqual(['100.0%', '100.0%', '100.0%', '100.0%', '100.0%', '100.0%', '100.0%', '0.0%']);
  });

  it('are absent when no policy was graded by τ²’s criteria', () => {
    const plain = summarizeEval({ taskIds: ['a'], policies: [policy('cheapest')], rollouts: 1, records: [rolloutRecord('cheapest', 'a', 1)] });
    expect(tau2Figures(plain.policies)).toBeNull();
    expect(passHatKHeadline(plain.policies[0]!)).toBe('');
  });

  it('say which rollouts of a criterion were not graded, beside the share of those that were', () => {
    expect(criterionCell({ passed: 2, failed: 1, notGraded: 1 })).toBe('66.7% (2/3) · 1 not graded');
    expect(criterionCell({ passed: 0, failed: 0, notGraded: 3 })).toBe('not graded (3)');
    expect(criterionCell(undefined)).toBe('—');
  });

  it('head each τ² policy with its pass^K beside its accuracy', () => {
    expect(perPolicyHeadline(report.policies)).toEqual(['orchestrator 75.0% (3/4) · pass^2 50.0%']);
  });
});

describe('who plays the simulated user', () => {
  const config = { experts: { 'user-sim': { tool: 'answer', provider: 'scripted', model: 'user-model' } } } as const;

  it('is the scripted user or any expert alias of the configuration', () => {
    expect(simulatedUserChoices(config).map((choice) => choice.value)).toEqual(['scripted', 'user-sim']);
    expect(simulatedUserChoices(config)[1]?.label).toBe('user-sim: user-model');
    expect(simulatedUserChoices({ experts: 'paper' }).length).toBeGreaterThan(1);
  });

  it('is refused, by name, once its alias is gone from the configuration', () => {
    expect(simulatedUserProblem(config, 'user-sim')).toBeNull();
    expect(simulatedUserProblem(config, 'scripted')).toBeNull();
    expect(simulatedUserProblem(config, 'gone')).toMatch(/"gone" is not an expert of your configuration/);
  });
});
