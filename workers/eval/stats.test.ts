import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanPassHatKs, passHatK, passHatKsOf, paretoFront, wilsonInterval } from './stats.ts';

describe('wilsonInterval', () => {
  it('matches the textbook figures', () => {
    // 15 of 20: Wilson 95% is [0.5313, 0.8881] (e.g. Agresti & Coull; statsmodels proportion_confint method="wilson").
    const { low, high } = wilsonInterval(15, 20);
    expect(low).toBeCloseTo(0.5313, 4);
    expect(high).toBeCloseTo(0.8881, 4);
  });

  it('stays inside [0, 1] at the ends and says nothing is known of nothing', () => {
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10).high).toBe(1);
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.7225, 4);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('paretoFront', () => {
  it('keeps the points no other beats on both cost and accuracy, cheapest first', () => {
    const front = paretoFront([
      { name: 'gpt-5 alone', costUsd: 0.3, accuracy: 0.8 },
      { name: 'orchestrator', costUsd: 0.05, accuracy: 0.85 },
      { name: 'cheap', costUsd: 0.01, accuracy: 0.4 },
      { name: 'dominated', costUsd: 0.06, accuracy: 0.6 },
      { name: 'tie', costUsd: 0.05, accuracy: 0.85 },
      { name: 'unpriced', costUsd: null, accuracy: 1 },
    ]);
    expect(front).toEqual(['cheap', 'orchestrator', 'tie']);
  });

  it('is the set no other point dominates, by the definition, for any points (ties and unknown costs included)', () => {
    const point = fc.record({ costUsd: fc.option(fc.constantFrom(0, 0.01, 0.02, 0.05), { nil: null }), accuracy: fc.constantFrom(0, 0.25, 0.5, 1) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 30 }), (values) => {
        const points = values.map((value, index) => ({ name: `p${String(index).padStart(2, '0')}`, ...value }));
        const known = points.filter((p) => p.costUsd !== null) as Array<{ name: string; costUsd: number; accuracy: number }>;
        const dominated = (p: (typeof known)[number]) =>
          known.some((q) => q.costUsd <= p.costUsd && q.accuracy >= p.accuracy && (q.costUsd < p.costUsd || q.accuracy > p.accuracy));
        const expected = known
          .filter((p) => !dominated(p))
          .sort((a, b) => a.costUsd - b.costUsd || b.accuracy - a.accuracy || (a.name < b.name ? -1 : 1))
          .map((p) => p.name);
        expect(paretoFront(points)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('pass^k over many rollouts (issue 31, item 9)', () => {
  it('gives each k what C(s, k) / C(n, k) gives, for every k at once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.nat(), (trials, seed) => {
        const successes = seed % (trials + 1);
        const all = passHatKsOf(trials, successes, trials);
        for (let k = 1; k <= trials; k++) expect(all[k - 1]).toBeCloseTo(passHatK(trials, successes, k), 12);
      }),
    );
  });

  it('computes 72,000 rollouts of one task in linear time, past where the binomials leave a float’s range', () => {
    // O(K²) took 12 s for 40,000 rollouts; C(72000, k) is Infinity from k near 70.
    const values = meanPassHatKs([{ trials: 72_000, successes: 71_999 }]);
    expect(values).toHaveLength(72_000);
    expect(values[0]).toBeCloseTo(71_999 / 72_000, 15);
    expect(values[999]).toBeCloseTo(1 - 1_000 / 72_000, 12);
    expect(values.at(-1)).toBe(0);
    expect(values.every(Number.isFinite)).toBe(true);
  });
});
