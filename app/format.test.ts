import { describe, expect, it } from 'vitest';
import { formatMs } from './format.ts';

describe('formatMs', () => {
  it('rounds before choosing the unit, so no figure reads 60 of anything', () => {
    expect(formatMs(undefined)).toBe('—');
    expect(formatMs(850.4)).toBe('850 ms');
    expect(formatMs(999.7)).toBe('1.0 s');
    expect(formatMs(1234)).toBe('1.2 s');
    expect(formatMs(59_960)).toBe('1 min 0 s');
    expect(formatMs(119_600)).toBe('2 min 0 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
  });
});
