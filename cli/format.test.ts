import { describe, expect, it } from 'vitest';
import { parseTasksFile } from './batch.ts';
import { colorWanted, createStyle, oneLine } from './format.ts';
import { rewardToolCounts } from '../workers/eval/results.ts';
import { isCorrect } from './summary.ts';

describe('colour', () => {
  it('is used only on a terminal without NO_COLOR', () => {
    expect(colorWanted({ isTTY: true }, {})).toBe(true);
    expect(colorWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colorWanted({ isTTY: false }, {})).toBe(false);
    expect(createStyle(false).red('x')).toBe('x');
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });
});

describe('text helpers', () => {
  it('flattens and shortens', () => {
    expect(oneLine('a\n\n b   c', 10)).toBe('a b c');
    expect(oneLine('abcdefghijkl', 5)).toBe('abcd…');
  });

  it('compares answers after normalisation: case, spaces, punctuation and number formatting aside', () => {
    expect(isCorrect('  Helsinki ', 'helsinki')).toBe(true);
    expect(isCorrect('558,457', '558457')).toBe(true);
    expect(isCorrect('Helsinki', 'Espoo')).toBe(false);
    expect(isCorrect(null, 'Helsinki')).toBe(false);
  });

  it('counts tool features per alias, plus tools that have no alias', () => {
    const counts = { tools: { search_corpus: 2, call_expert: 3 }, aliases: { 'expert-1': 2, 'expert-2': 1 } };
    expect(rewardToolCounts(counts, new Set(['call_expert']))).toEqual({ 'expert-1': 2, 'expert-2': 1, search_corpus: 2 });
  });
});

describe('parseTasksFile', () => {
  it('reads ids, questions (or tasks) and answers', () => {
    const text = '{"id":1,"question":"Q1","answer":42}\n\n{"id":"b","task":"Q2"}\n';
    expect(parseTasksFile(text, 't.jsonl')).toEqual([
      { id: '1', task: 'Q1', answer: '42' },
      { id: 'b', task: 'Q2' },
    ]);
  });

  it('names the line of a mistake', () => {
    expect(() => parseTasksFile('{"id":"a","question":"Q"}\n{"question":"Q"}', 't.jsonl')).toThrow('t.jsonl line 2: "id"');
    expect(() => parseTasksFile('{"id":"a","question":"Q"}\n{"id":"a","question":"R"}', 't.jsonl')).toThrow('t.jsonl line 2: the id "a" is already used on line 1');
    expect(() => parseTasksFile('nope', 't.jsonl')).toThrow('t.jsonl line 1: not valid JSON');
  });

  it('reads the suite format, and sends domains and other checks to orchestra eval', () => {
    expect(parseTasksFile('{"id":"a","task":"Q","answer":"x","check":{"kind":"exact"},"meta":{"k":1}}', 't.jsonl')).toEqual([{ id: 'a', task: 'Q', answer: 'x' }]);
    expect(() => parseTasksFile('{"id":"a","task":"Q","check":{"kind":"regex","pattern":"x"}}', 't.jsonl')).toThrow('t.jsonl line 1: a domain task or a "check" needs "orchestra eval"');
    expect(() => parseTasksFile('{"id":"a","task":"Q","domain":"retail","check":{"kind":"db","actions":[]}}', 't.jsonl')).toThrow('needs "orchestra eval"');
  });
});
