import { describe, expect, it } from 'vitest';
import { PREFERENCE_PRESETS } from '../../workers/engine/preferences.ts';
import { computeGroupReward, type RolloutFeatures } from '../../workers/engine/reward.ts';
import { rewardWords } from './rewardWords.ts';

const rollout = (correct: boolean, costUsd: number, latencyMs: number, toolCounts: Record<string, number> = {}): RolloutFeatures => ({ correct, costUsd, latencyMs, toolCounts });

function words(rollouts: RolloutFeatures[], preference = PREFERENCE_PRESETS.cheapest) {
  const group = computeGroupReward(rollouts, preference);
  return { group, ...rewardWords(group, rollouts.map((r) => r.correct), preference) };
}

describe('rewardWords', () => {
  it('says why a right run scores 0 against one other: the dearer and the slower, and being right is level', () => {
    const { group, why, terms, scaling } = words([rollout(true, 0.003, 3000, { 'answer-1': 1 }), rollout(true, 0.001, 2000, { 'answer-2': 1 })]);
    expect(group.rewards).toEqual([0, 0.7]);
    expect(why[0]).toBe('Right, but 0: the dearer (+0) and the slower (+0) of the two. Being right adds nothing: both runs are right.');
    expect(why[1]).toBe('Right: the cheaper (+0.6) and the faster (+0.1) of the two. Being right adds nothing: both runs are right.');
    // The calls per alias weigh nothing under "Cheapest": not listed.
    expect(terms.map((term) => term.heading)).toEqual(['Being right, weight 0.3', 'Cost, weight 0.6', 'Time, weight 0.1']);
    expect(terms[0]!.cells).toEqual(['left out: both right', 'left out: both right']);
    expect(terms[1]!.cells).toEqual(['0 of 0.6 — the dearer', '0.6 of 0.6 — the cheaper']);
    expect(scaling).toContain('With two runs that is all or nothing');
  });

  it('under "Best answer" with every run right, says nothing weighed tells them apart', () => {
    const { why, terms } = words([rollout(true, 0.003, 3000), rollout(true, 0.001, 2000)], PREFERENCE_PRESETS['best-answer']);
    expect(why).toEqual(Array(2).fill('Right, but 0: nothing this preference weighs tells the runs apart. Being right adds nothing: both runs are right.'));
    expect(terms.map((term) => term.feature)).toEqual(['outcome']);
  });

  it('scores a wrong run 0 whatever it cost, and places the middle of three in between', () => {
    const { why, terms, scaling } = words([rollout(false, 0.001, 1000), rollout(true, 0.002, 2000), rollout(true, 0.004, 3000)]);
    expect(why[0]).toBe('Wrong: a wrong answer scores 0, whatever it cost or took.');
    expect(why[1]).toMatch(/^Right: right where another is wrong \(\+0\.3\) and in between \(\+0\.4\) and in between \(\+0\.05\) of the 3\.$/);
    expect(terms[1]!.cells[2]).toBe('0 of 0.6 — the dearest');
    expect(scaling).not.toContain('two runs');
  });

  it('lists a tool the preference avoids, fewer calls scoring higher', () => {
    const preference = { ...PREFERENCE_PRESETS.balanced, tools: { 'search-1': -0.5 } };
    const { terms } = words([rollout(true, 0.001, 1000, { 'search-1': 2 }), rollout(true, 0.001, 1000, {})], preference);
    const search = terms.find((term) => term.feature === 'search-1')!;
    expect(search.heading).toBe('Calls to search-1 (avoided), weight 0.5');
    expect(search.cells).toEqual(['0 of 0.5 — the most calls to search-1', '0.5 of 0.5 — the fewest calls to search-1']);
    expect(terms.find((term) => term.feature === 'cost')!.cells[0]).toBe('left out: the same in every run');
  });
});
