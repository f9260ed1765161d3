import { describe, expect, it } from 'vitest';
import { answersMatch, normalizeAnswer, numbersIn, readNumber } from './answers.ts';

describe('normalizeAnswer', () => {
  it('folds case, accents, punctuation, articles and spaces', () => {
    expect(normalizeAnswer('  The  City of São Tomé! ')).toBe('city of sao tome');
    expect(normalizeAnswer('an Apple, a pear')).toBe('apple pear');
    expect(normalizeAnswer('Guinea-Bissau')).toBe('guinea bissau');
  });

  it('reads numbers as numbers: separators, trailing zeros and signs do not matter, decimals do', () => {
    expect(normalizeAnswer('558,457')).toBe('558457');
    expect(normalizeAnswer('558457')).toBe('558457');
    expect(normalizeAnswer('558457.0')).toBe('558457');
    expect(normalizeAnswer('1,877,155 people')).toBe('1877155 people');
    expect(normalizeAnswer('3.5')).toBe('3.5');
    expect(normalizeAnswer('3.50')).toBe('3.5');
    expect(normalizeAnswer('-12')).toBe('-12');
    expect(normalizeAnswer('1\u00a0000')).toBe('1000');
  });

  it('keeps a hyphen inside a word apart from a minus sign', () => {
    expect(normalizeAnswer('COVID-19')).toBe(normalizeAnswer('covid 19'));
    expect(normalizeAnswer('3d')).toBe('3d');
    expect(normalizeAnswer('4a')).toBe('4a');
  });
});

describe('answersMatch', () => {
  it('matches the issue\'s example and refuses a different number', () => {
    expect(answersMatch('558,457', '558457')).toBe(true);
    expect(answersMatch('  Helsinki ', 'helsinki')).toBe(true);
    expect(answersMatch('700,000', '797,000')).toBe(false);
    expect(answersMatch('35', '3.5')).toBe(false);
    expect(answersMatch(null, 'Helsinki')).toBe(false);
  });
});

describe('numbers in answers', () => {
  it('reads separators, scale words and percent signs', () => {
    expect(numbersIn('about 1.2 million people').map((n) => n.value)).toEqual([1_200_000]);
    expect(numbersIn('12% of 3,000').map((n) => n.value)).toEqual([12, 3000]);
  });

  it('gives the one number of an answer, and refuses an ambiguous one with the reason', () => {
    expect(readNumber('558,457')).toEqual({ ok: true, value: 558457, text: '558,457' });
    expect(readNumber('558,457 (558457)')).toMatchObject({ ok: true, value: 558457 });
    expect(readNumber('Helsinki')).toEqual({ ok: false, reason: 'the answer holds no number' });
    const ambiguous = readNumber('558,457 in 2020');
    expect(ambiguous.ok).toBe(false);
    expect(!ambiguous.ok && ambiguous.reason).toContain('several numbers (558,457, 2020)');
  });
});
