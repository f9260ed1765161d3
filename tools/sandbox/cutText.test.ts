import { describe, expect, it } from 'vitest';
import { cutMiddle, cutNote } from './cutText.ts';

describe('cutMiddle', () => {
  it('leaves text that fits alone', () => {
    expect(cutMiddle('short', 5)).toBe('short');
    expect(cutMiddle('', 0)).toBe('');
  });

  it('keeps the start and the end and says how many characters were cut', () => {
    const text = `ValueError: ${'x'.repeat(8_000_000)} (the end)`;
    const cut = cutMiddle(text, 100);
    expect(cut.startsWith('ValueError: xxx')).toBe(true);
    expect(cut.endsWith('x (the end)')).toBe(true);
    expect(cut).toContain(`\n… [${(text.length - 100).toLocaleString('en-US')} more characters cut]\n`);
    // What is kept is the cap; the note comes on top.
    expect(cut.length - cutNote(text.length - 100, 'characters').length - 2).toBe(100);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(100);
    for (const max of [9, 10, 11, 50]) {
      const cut = cutMiddle(text, max);
      expect(cut, `max ${max}`).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });
});
