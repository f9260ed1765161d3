import { describe, expect, it } from 'vitest';
import { paretoFront, wilsonInterval } from './stats.ts';

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
});
