import { describe, expect, it } from 'vitest';
import { corpusSuite, parseSuite, SuiteError, SUITE_LIMITS, suiteToJsonl } from './suite.ts';

const parse = (text: string, requireCheck = true) => parseSuite(text, { source: 'suite.jsonl', requireCheck });
const problemsOf = (text: string, requireCheck = true): string[] => {
  try {
    parse(text, requireCheck);
  } catch (error) {
    if (error instanceof SuiteError) return error.problems;
    throw error;
  }
  throw new Error('expected a SuiteError');
};

describe('parseSuite', () => {
  it('reads the batch format as it was: question or task, numeric ids and answers, an exact check by default', () => {
    const { tasks } = parse('{"id": 1, "question": "Capital of Finland?", "answer": "Helsinki"}\n\n{"id": "b", "task": "2+2?", "answer": 4}\n');
    expect(tasks).toEqual([
      { id: '1', task: 'Capital of Finland?', answer: 'Helsinki', check: { kind: 'exact', answer: 'Helsinki' }, line: 1 },
      { id: 'b', task: '2+2?', answer: '4', check: { kind: 'exact', answer: '4' }, line: 3 },
    ]);
  });

  it('reads checks, domains and meta, and fills a check\'s reference from the answer', () => {
    const { tasks } = parse(
      [
        '{"id": "n", "task": "Population?", "answer": "558,457", "check": {"kind": "numeric", "relativeTolerance": 0.01}}',
        '{"id": "o", "task": "Colour?", "check": {"kind": "one_of", "answers": ["red", "crimson"]}, "meta": {"level": 2}}',
        '{"id": "d", "task": "Cancel O-1.", "domain": "retail", "check": {"kind": "db", "actions": [{"name": "cancel_order", "arguments": {"order_id": "O-1"}}]}}',
        '{"id": "j", "task": "Who?", "answer": "Ada Lovelace", "check": {"kind": "judge"}}',
      ].join('\n'),
    );
    expect(tasks.map((t) => t.check)).toEqual([
      { kind: 'numeric', value: 558457, tolerance: 0, relativeTolerance: 0.01 },
      { kind: 'one_of', answers: ['red', 'crimson'] },
      { kind: 'db', actions: [{ name: 'cancel_order', arguments: { order_id: 'O-1' } }] },
      { kind: 'judge', answer: 'Ada Lovelace' },
    ]);
    expect(tasks[1]?.meta).toEqual({ level: 2 });
    expect(tasks[2]?.domain).toBe('retail');
  });

  it('names the line of every problem', () => {
    const problems = problemsOf(
      [
        '{"id": "a", "task": "ok", "answer": "x"}',
        'not json',
        '{"id": "a", "task": "again", "answer": "y"}',
        '{"task": "no id", "answer": "z"}',
        '{"id": "c", "task": "nothing to grade by"}',
        '{"id": "d", "task": "t", "check": {"kind": "regex", "pattern": "("}}',
        '{"id": "e", "task": "t", "check": {"kind": "exact"}}',
        '{"id": "f", "task": "t", "check": {"kind": "telepathy"}}',
        '{"id": "g", "task": "t", "domain": "retail", "answer": "x"}',
        '{"id": "h", "task": "t", "check": {"kind": "db", "actions": []}}',
        '{"id": "i", "task": "t", "answer": "many", "check": {"kind": "numeric"}}',
      ].join('\n'),
    );
    expect(problems[0]).toMatch(/^line 2: not valid JSON/);
    expect(problems[1]).toBe('line 3: the id "a" is already used on line 1; each task needs its own id');
    expect(problems[2]).toMatch(/^line 4: "id" must be/);
    expect(problems[3]).toBe('line 5: no "answer" and no "check": nothing to grade the answer by');
    expect(problems[4]).toMatch(/^line 6: the pattern does not compile/);
    expect(problems[5]).toBe('line 7: a "exact" check needs the reference answer ("answer" on the task or the check)');
    expect(problems[6]).toMatch(/^line 8: check\.kind: .*\(kinds: exact, numeric, one_of, regex, js, db, judge\)/);
    expect(problems[7]).toBe('line 9: a domain task needs "check": {"kind": "db", "actions": […]} (or "state")');
    expect(problems[8]).toBe('line 10: a "db" check needs the task\'s "domain"');
    expect(problems[9]).toBe('line 11: a "numeric" check reads its value from "answer", but the answer holds no number');
  });

  it('lets a plain batch have tasks without answers', () => {
    expect(parse('{"id": "a", "task": "Say hi"}', false).tasks[0]).toEqual({ id: 'a', task: 'Say hi', line: 1 });
  });

  it('warns about fields it does not know (a typo in "check" should not pass silently)', () => {
    const { warnings } = parse('{"id": "a", "task": "t", "answer": "x", "chek": {}}');
    expect(warnings).toEqual(['line 1: ignored unknown field "chek"']);
  });

  it('caps the file, each line, the task count and the problems listed', () => {
    expect(problemsOf('x'.repeat(SUITE_LIMITS.fileChars + 1))[0]).toMatch(/a suite may hold 20,000,000 characters/);
    expect(problemsOf(`{"id": "a", "task": "${'x'.repeat(SUITE_LIMITS.lineChars)}", "answer": "x"}`)[0]).toMatch(/^line 1: .* a line may hold 200,000 characters/);
    const many = Array.from({ length: SUITE_LIMITS.tasks + 5 }, (_, i) => `{"id": ${i}, "task": "t", "answer": "x"}`).join('\n');
    expect(problemsOf(many)).toEqual([`line ${SUITE_LIMITS.tasks + 1}: more than 10,000 tasks; split the suite`]);
    const bad = Array.from({ length: 30 }, () => 'nope').join('\n');
    const problems = problemsOf(bad);
    expect(problems).toHaveLength(21);
    expect(problems.at(-1)).toBe('and 10 more problems');
    expect(problemsOf('\n\n')).toEqual(['it holds no task (one JSON object per line)']);
    const deep = `{"id": "a", "task": "t", "answer": "x", "meta": ${'{"n":'.repeat(30_000)}1${'}'.repeat(30_000)}}`;
    expect(problemsOf(deep)).toEqual([`line 1: nested more than ${SUITE_LIMITS.depth} levels deep; a task is a flat record`]);
  });

  it('writes a suite back as JSONL that parses to the same tasks', () => {
    const samples = [{ id: 'capital-population-fin', question: 'Population of the capital of Finland?', answer: '558,457', hops: 2, sources: ['c', 'h'] }];
    const suite = corpusSuite(samples);
    expect(parse(suiteToJsonl(suite)).tasks).toEqual(suite);
  });
});
