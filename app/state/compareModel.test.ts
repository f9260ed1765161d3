import { describe, expect, it } from 'vitest';
import { firstParting, type RunColumn } from './compareModel.ts';

const column = (...steps: string[][]): RunColumn => ({
  steps: steps.map((chips) => ({ chips, costUsd: 0, latencyMs: 0, promptTokens: 0, completionTokens: 0 })),
  costUsd: 0,
  latencyMs: 0,
  promptTokens: 0,
  completionTokens: 0,
  answer: null,
});

describe('firstParting', () => {
  it('names the first step whose calls differ', () => {
    expect(firstParting([column(['search · search-1'], ['answer · answer-2']), column(['search · search-1'], ['answer · answer-1'])])).toBe(2);
  });
  it('counts a run that has no such step as parting there', () => {
    expect(firstParting([column(['search · search-1']), column(['search · search-1'], ['answer · answer-1'])])).toBe(2);
  });
  it('is null when every route is the same, and looks at every run of up to four', () => {
    const same = column(['search · search-1'], ['answer · answer-2']);
    expect(firstParting([same, same])).toBeNull();
    expect(firstParting([same, same, same, column(['search · search-2'], ['answer · answer-2'])])).toBe(1);
  });
  it('tells apart a turn of two calls from a turn of one', () => {
    expect(firstParting([column(['a', 'b']), column(['a'])])).toBe(1);
  });
});
