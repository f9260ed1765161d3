import { describe, expect, it } from 'vitest';
import { nestingPast, nestingProblem } from './jsonDepth.ts';

describe('nesting counted on the text', () => {
  it('finds where a text first nests past the bound, skipping strings and their escapes', () => {
    expect(nestingPast('[[[]]]', 3)).toBe(-1);
    expect(nestingPast('[[[[]]]]', 3)).toBe(3);
    expect(nestingPast('{"a":[{"b":1}]}', 3)).toBe(-1);
    expect(nestingPast('["[[[[\\"[[[", {"x": "{{{{"}]', 2)).toBe(-1);
    expect(nestingPast(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 128)).toBe(128);
    expect(nestingProblem('[[1]]', 1)).toBe('nested more than 1 levels deep; no file of this kind is');
    expect(nestingProblem('[1]', 1)).toBeNull();
  });
});
