import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PreferenceVector } from './preferences.ts';
import { computeGroupReward, type RolloutFeatures } from './reward.ts';

function rollout(correct: boolean, costUsd: number, latencyMs: number, toolCounts: Record<string, number> = {}): RolloutFeatures {
  return { correct, costUsd, latencyMs, toolCounts };
}

/** Matchers for each of `values` to `digits` decimal places, as toBeCloseTo checks one. */
function close(digits: number, ...values: number[]): number[] {
  return values.map((value) => expect.closeTo(value, digits) as number);
}

function prefer(p: Partial<PreferenceVector>): PreferenceVector {
  return { outcome: 0, cost: 0, latency: 0, tools: {}, ...p };
}

describe('computeGroupReward: hand-computed groups', () => {
  it('scores a 3-rollout group with a wrong rollout', () => {
    const result = computeGroupReward(
      [
        rollout(true, 0.02, 10_000, { 'search-1': 1, 'answer-1': 1 }),
        rollout(true, 0.06, 30_000, { 'search-1': 2, 'answer-1': 1 }),
        rollout(false, 0.1, 20_000, { 'answer-1': 1 }),
      ],
      prefer({ outcome: 0.5, cost: 0.3, latency: 0.2 }),
    );
    // answer-1 = [1, 1, 1]: no spread, skipped.
    // search-1 = [1, 2, 0] → (x − 0) / 2 = [0.5, 1, 0] (no weight, so it adds nothing)
    // outcome  = [1, 1, 0] → [1, 1, 0]
    // cost     = [0.02, 0.06, 0.10] → (0.10 − x) / 0.08 = [1, 0.5, 0]
    // latency  = [10 s, 30 s, 20 s] → (30 − x) / 20 = [1, 0, 0.5]
    expect(result.skippedFeatures).toEqual(['answer-1']);
    expect(result.normalized[0]).toEqual({ 'search-1': 0.5, outcome: 1, cost: 1, latency: 1 });
    expect(result.normalized[1]?.cost).toBeCloseTo(0.5, 12);
    expect(result.normalized[2]).toMatchObject({ 'search-1': 0, outcome: 0, latency: 0.5 });
    expect(result.normalized[2]?.cost).toBeCloseTo(0, 12);
    // R0 = 0.5·1 + 0.3·1 + 0.2·1 = 1.0;  R1 = 0.5·1 + 0.3·0.5 + 0.2·0 = 0.65;  R2 = 0 (wrong)
    expect(result.rewards).toEqual([...close(12, 1, 0.65), 0]);
    // mean = 1.65 / 3 = 0.55; deviations 0.45, 0.10, −0.55; squares sum 0.2025 + 0.01 + 0.3025 = 0.515
    // std = √(0.515 / 2) = √0.2575 ≈ 0.507445
    expect(result.mean).toBeCloseTo(0.55, 12);
    expect(result.std).toBeCloseTo(0.507445, 6);
    // advantages: 0.45 / 0.507445 ≈ 0.886795; 0.10 / 0.507445 ≈ 0.197065; −0.55 / 0.507445 ≈ −1.083860
    expect(result.advantages).toEqual(close(5, 0.886795, 0.197065, -1.08386));
    expect(result.lowSpread).toBe(false);
    expect(result.tooSmall).toBe(false);
  });

  it('scores a 4-rollout group with a wrong rollout', () => {
    const result = computeGroupReward(
      [rollout(true, 0.01, 5000), rollout(true, 0.03, 5000), rollout(true, 0.05, 5000), rollout(false, 0.02, 5000)],
      prefer({ outcome: 1, cost: 0.5 }),
    );
    // latency = 5 s everywhere: skipped. No tool features.
    // outcome = [1, 1, 1, 0]; cost → (0.05 − x) / 0.04 = [1, 0.5, 0, 0.75]
    expect(result.skippedFeatures).toEqual(['latency']);
    expect(result.normalized[3]?.cost).toBeCloseTo(0.75, 12);
    // R = [1 + 0.5·1, 1 + 0.5·0.5, 1 + 0, 0 (wrong)] = [1.5, 1.25, 1, 0]
    expect(result.rewards).toEqual([...close(12, 1.5, 1.25, 1), 0]);
    // mean = 3.75 / 4 = 0.9375; deviations 0.5625, 0.3125, 0.0625, −0.9375
    // squares 0.31640625 + 0.09765625 + 0.00390625 + 0.87890625 = 1.296875; std = √(1.296875 / 3) ≈ 0.657489
    expect(result.mean).toBeCloseTo(0.9375, 12);
    expect(result.std).toBeCloseTo(0.657489, 6);
    // advantages ≈ 0.5625 / 0.657489, 0.3125 / …, 0.0625 / …, −0.9375 / …
    expect(result.advantages).toEqual(close(5, 0.855526, 0.475292, 0.095058, -1.425877));
  });
});

describe('computeGroupReward: direction of cost and latency', () => {
  it('gives the cheaper correct rollout the higher reward under a cost-only preference', () => {
    const result = computeGroupReward([rollout(true, 0.04, 1000), rollout(true, 0.01, 1000), rollout(true, 0.02, 1000)], prefer({ cost: 1 }));
    // cost → (0.04 − x) / 0.03 = [0, 1, 2/3]. (The reference code's mixed signs would give
    // (x + 0.04) / 0.03 = [2.67, 1.67, 2]: the dearest first.)
    expect(result.rewards).toEqual(close(12, 0, 1, 2 / 3));
  });

  it('gives the faster correct rollout the higher reward under a latency-only preference', () => {
    const result = computeGroupReward([rollout(true, 0.01, 3000), rollout(true, 0.01, 9000), rollout(true, 0.01, 6000)], prefer({ latency: 1 }));
    // latency → (9000 − x) / 6000 = [1, 0, 0.5]
    expect(result.rewards).toEqual([1, 0, 0.5]);
    expect(result.skippedFeatures).toEqual(['outcome', 'cost']);
  });

  it('keeps every normalised feature in [0, 1] and never ranks a dearer correct rollout above a cheaper one on cost alone', () => {
    const arbitraryRollout = fc.record({
      correct: fc.boolean(),
      costUsd: fc.double({ min: 0, max: 10, noNaN: true }),
      latencyMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
      toolCounts: fc.dictionary(fc.constantFrom('search-1', 'reasoner-2', 'answer-3'), fc.nat(5)),
    });
    fc.assert(
      fc.property(fc.array(arbitraryRollout, { minLength: 1, maxLength: 8 }), (rollouts) => {
        const result = computeGroupReward(rollouts, prefer({ cost: 1 }));
        for (const row of result.normalized) for (const value of Object.values(row)) expect(value).toBeGreaterThanOrEqual(0);
        for (const row of result.normalized) for (const value of Object.values(row)) expect(value).toBeLessThanOrEqual(1);
        rollouts.forEach((a, i) =>
          rollouts.forEach((b, j) => {
            if (a.correct && b.correct && a.costUsd < b.costUsd) expect(result.rewards[i]).toBeGreaterThanOrEqual(result.rewards[j] ?? Infinity);
          }),
        );
        for (const advantage of result.advantages) expect(Math.abs(advantage)).toBeLessThanOrEqual(3);
      }),
    );
  });
});

describe('computeGroupReward: tool preferences', () => {
  const group = [
    rollout(true, 0.01, 1000, { 'search-1': 2 }),
    rollout(true, 0.01, 1000, { 'search-3': 2 }),
    rollout(true, 0.01, 1000, { 'search-1': 1, 'search-3': 1 }),
  ];
  // search-1 = [2, 0, 1] → [1, 0, 0.5]; search-3 = [0, 2, 1] → [0, 1, 0.5]; outcome, cost, latency: no spread.

  it('ranks the rollout that used a preferred tool first', () => {
    const result = computeGroupReward(group, prefer({ outcome: 1, tools: { 'search-1': 1 } }));
    // R = 1·[1, 0, 0.5] (outcome has no spread, so its weight adds nothing)
    expect(result.rewards).toEqual([1, 0, 0.5]);
    expect(result.skippedFeatures).toEqual(['outcome', 'cost', 'latency']);
  });

  it('ranks it last when the same tool is to be avoided', () => {
    const result = computeGroupReward(group, prefer({ outcome: 1, tools: { 'search-1': -1 } }));
    // Avoid: fewer calls score higher. search-1 = [2, 0, 1] → (max − x)/(max − min) = [0, 1, 0.5]; R = 1·that.
    expect(result.rewards).toEqual([0, 1, 0.5]);
  });

  it('weighs preferring one tool against avoiding another', () => {
    const result = computeGroupReward(group, prefer({ tools: { 'search-1': -1, 'search-3': 0.5 } }));
    // R = 1·[0, 1, 0.5] (search-1 avoided) + 0.5·[0, 1, 0.5] (search-3 preferred) = [0, 1.5, 0.75]
    expect(result.rewards).toEqual([0, 1.5, 0.75]);
  });

  it('never scores a correct rollout below a wrong one, even when it used a tool to avoid', () => {
    const result = computeGroupReward(
      [rollout(true, 0.01, 1000, { 'answer-1': 3 }), rollout(false, 0.01, 1000, {}), rollout(true, 0.01, 1000, { 'answer-1': 1 })],
      prefer({ outcome: 0.5, tools: { 'answer-1': -1 } }),
    );
    // answer-1 = [3, 0, 1] avoided → [0, 1, 2/3]; outcome = [1, 0, 1] → [1, 0, 1].
    // R = [0.5·1 + 0, 0 (wrong), 0.5·1 + 2/3]
    expect(result.rewards[0]).toBeCloseTo(0.5, 12);
    expect(result.rewards[1]).toBe(0);
    expect(result.rewards[2]).toBeCloseTo(0.5 + 2 / 3, 12);
  });

  it('counts a tool missing from a rollout as zero uses', () => {
    const result = computeGroupReward(group, prefer({}));
    expect(result.normalized[0]).toEqual({ 'search-1': 1, 'search-3': 0 });
  });

  it('takes a tool’s min and max over the whole group, a rollout that never called it counting 0', () => {
    // The reference (generation_quick3.py) takes them over the rollouts that called the tool only,
    // then plugs in 0 for the others: a feature only some rollouts used is skipped when the users
    // agree, and scores the others below 0 when they do not. Here both groups keep every term in
    // [0, 1] and let the preference for the tool count.
    const agreeing = computeGroupReward(
      [rollout(true, 0.01, 1000, { 'search-1': 2 }), rollout(true, 0.01, 1000), rollout(true, 0.01, 1000, { 'search-1': 2 })],
      prefer({ tools: { 'search-1': 1 } }),
    );
    // search-1 = [2, 0, 2] → [1, 0, 1] (the reference: min = max = 2, skipped, all rewards 0).
    expect(agreeing.skippedFeatures).not.toContain('search-1');
    expect(agreeing.rewards).toEqual([1, 0, 1]);
    const differing = computeGroupReward(
      [rollout(true, 0.01, 1000, { 'search-1': 1 }), rollout(true, 0.01, 1000), rollout(true, 0.01, 1000, { 'search-1': 3 })],
      prefer({ tools: { 'search-1': 1 } }),
    );
    // search-1 = [1, 0, 3] → [1/3, 0, 1] (the reference: min 1, max 3 → [0, −0.5, 1]).
    expect(differing.normalized.map((row) => row['search-1'])).toEqual([1 / 3, 0, 1]);
    expect(Math.min(...differing.rewards)).toBe(0);
  });

  it('refuses a tool key that reuses a built-in feature name', () => {
    expect(() => computeGroupReward([rollout(true, 0, 0, { cost: 1 })], prefer({}))).toThrow(/clashes/);
  });

  it('refuses values that are not finite numbers', () => {
    expect(() => computeGroupReward([rollout(true, Number.NaN, 0)], prefer({}))).toThrow(RangeError);
  });
});

describe('computeGroupReward: advantage clipping and group flags', () => {
  it('clips advantages at +3', () => {
    const rollouts = [rollout(true, 0.01, 1000), ...Array.from({ length: 10 }, () => rollout(false, 0.01, 1000))];
    const result = computeGroupReward(rollouts, prefer({ outcome: 1 }));
    // R = [1, 0 × 10]; mean = 1/11; Σ dev² = (10/11)² + 10·(1/11)² = 110/121 = 10/11
    // std = √((10/11) / 10) = 1/√11 ≈ 0.301511
    // A0 = (10/11) / (1/√11) = 10/√11 ≈ 3.0151 → clipped to 3; the others −(1/11)·√11 ≈ −0.301510
    expect(result.std).toBeCloseTo(0.301511, 6);
    expect(result.advantages[0]).toBe(3);
    expect(result.advantages[1]).toBeCloseTo(-0.30151, 5);
  });

  it('clips advantages at −3', () => {
    const rollouts = [rollout(false, 0.01, 1000), ...Array.from({ length: 10 }, () => rollout(true, 0.01, 1000))];
    const result = computeGroupReward(rollouts, prefer({ outcome: 1 }));
    // The mirror image: R = [0, 1 × 10]; A0 = −(10/11) / (1/√11) ≈ −3.0151 → −3
    expect(result.advantages[0]).toBe(-3);
    expect(result.advantages[1]).toBeCloseTo(0.30151, 5);
  });

  it('flags a group whose rewards barely differ', () => {
    const costs = [rollout(true, 0.01, 1000), rollout(true, 0.02, 1000), rollout(true, 0.03, 1000)];
    // cost → [1, 0.5, 0]. Weight 0.1: R = [0.1, 0.05, 0], std = √((0.0025 + 0 + 0.0025) / 2) = 0.05 ≤ 0.1
    const flat = computeGroupReward(costs, prefer({ cost: 0.1 }));
    expect(flat.std).toBeCloseTo(0.05, 12);
    expect(flat.lowSpread).toBe(true);
    // Weight 0.3: R = [0.3, 0.15, 0], std = 0.15 > 0.1
    const spread = computeGroupReward(costs, prefer({ cost: 0.3 }));
    expect(spread.std).toBeCloseTo(0.15, 12);
    expect(spread.lowSpread).toBe(false);
  });

  it('gives zero advantages when every rollout is wrong', () => {
    const result = computeGroupReward([rollout(false, 0.01, 1), rollout(false, 0.02, 2), rollout(false, 0.03, 3)], prefer({ outcome: 1, cost: 1 }));
    expect(result.rewards).toEqual([0, 0, 0]);
    expect(result.advantages).toEqual([0, 0, 0]);
    expect(result.std).toBe(0);
    expect(result.lowSpread).toBe(true);
  });

  it('marks groups under 3 rollouts too small, with std 0 below 2', () => {
    const two = computeGroupReward([rollout(true, 0.01, 1), rollout(false, 0.01, 1)], prefer({ outcome: 1 }));
    // R = [1, 0]; mean 0.5; std = √((0.25 + 0.25) / 1) ≈ 0.7071
    expect(two.tooSmall).toBe(true);
    expect(two.std).toBeCloseTo(Math.SQRT1_2, 12);
    const one = computeGroupReward([rollout(true, 0.01, 1, { 'search-1': 1 })], prefer({ outcome: 1 }));
    expect(one).toMatchObject({ rewards: [0], advantages: [0], mean: 0, std: 0, tooSmall: true, lowSpread: true });
    expect(one.skippedFeatures).toEqual(['search-1', 'outcome', 'cost', 'latency']);
    const none = computeGroupReward([], prefer({ outcome: 1 }));
    expect(none).toMatchObject({ rewards: [], advantages: [], mean: 0, std: 0, tooSmall: true, normalized: [] });
  });
});
