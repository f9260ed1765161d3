import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { median, summarize } from './stats.ts';

describe('median', () => {
  it('takes the middle of an odd count, whatever the order', () => {
    expect(median([7])).toBe(7);
    expect(median([30, 10, 20])).toBe(20);
    expect(median([5, 1, 4, 2, 3, 100, -50])).toBe(3);
  });

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1])).toBe(2.5);
    expect(median([10, 40, 20, 30])).toBe(25);
  });

  it('leaves its input unsorted', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('refuses no measurements and non-numbers with a clear error', () => {
    expect(() => median([])).toThrow('median of no measurements');
    expect(() => median([1, Number.NaN])).toThrow(/not a finite number/);
    expect(() => median([Number.POSITIVE_INFINITY])).toThrow(/not a finite number/);
  });

  it('has as many values at or below it as at or above it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 50 }), (values) => {
        const middle = median(values);
        const atOrBelow = values.filter((value) => value <= middle).length;
        const atOrAbove = values.filter((value) => value >= middle).length;
        expect(atOrBelow).toBeGreaterThanOrEqual(values.length / 2);
        expect(atOrAbove).toBeGreaterThanOrEqual(values.length / 2);
      }),
    );
  });
});

describe('summarize', () => {
  it('reports median, range and the values in the order taken', () => {
    expect(summarize([12, 3, 40, 7, 9])).toEqual({ median: 9, min: 3, max: 40, values: [12, 3, 40, 7, 9] });
  });
});
