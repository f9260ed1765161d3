// Every check kind on right and wrong answers, the refusals of bad checks, and what each verdict
// says. Regular expressions and predicates run in the real QuickJS sandbox (in process, as the
// CLI runs it); the judge is a real HTTP model (the scripted server).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { createNodeJavaScriptRunner } from '../../tools/javascript/nodeJavaScriptRunner.ts';
import { createOpenAICompatibleModel } from '../backends/openai-compatible/openaiCompatible.ts';
import type { PricingTable } from '../engine/pricing.ts';
import { checkSchema, grade, judgePrompt, readJudgeReply, resolveCheck, type Check, type GradeContext, type ResolvedCheck } from './checks.ts';

const javascript = createNodeJavaScriptRunner();

function resolved(check: Check | undefined, answer?: string, domain?: string): ResolvedCheck {
  const result = resolveCheck(check, answer, domain);
  if ('problem' in result) throw new Error(result.problem);
  return result;
}

const context = (answer: string | null, extra: Partial<GradeContext> = {}): GradeContext => ({
  task: 'What is the population of the capital of Finland?',
  answer,
  javascript,
  ...extra,
});

describe('exact', () => {
  it('is the default for a task with an answer, and says what it compared', async () => {
    const check = resolved(undefined, '558457');
    expect(await grade(check, context('558,457'))).toEqual({
      check: 'exact',
      correct: true,
      reason: '"558,457" equals "558457" after normalisation ("558457")',
    });
    expect(await grade(check, context('About 600,000'))).toEqual({
      check: 'exact',
      correct: false,
      reason: '"About 600,000" is not "558457" (normalised: "about 600000" vs "558457")',
    });
    expect(await grade(check, context(null))).toMatchObject({ correct: false, reason: 'the run gave no answer' });
  });
});

describe('numeric', () => {
  it('accepts a number within the tolerance and says by how much it is off', async () => {
    const check = resolved({ kind: 'numeric', value: 558457, tolerance: 0, relativeTolerance: 0.01 });
    expect(await grade(check, context('about 560,000 people'))).toEqual({
      check: 'numeric',
      correct: true,
      reason: '560,000 is within 5,584.57 of 558,457 (off by 1,543)',
    });
    expect(await grade(check, context('0.6 million'))).toMatchObject({ correct: false, reason: '600,000 is off by 41,543 from 558,457 (allowed: 5,584.57)' });
  });

  it('takes its value from the answer and wants the very number by default', async () => {
    const check = resolved({ kind: 'numeric', tolerance: 0, relativeTolerance: 0 }, '1,877,155');
    expect(await grade(check, context('1877155'))).toMatchObject({ correct: true, reason: '1,877,155 is exactly 1,877,155' });
    expect(await grade(check, context('1,877,156'))).toMatchObject({ correct: false });
  });

  it('refuses an answer with no number or with several', async () => {
    const check = resolved({ kind: 'numeric', value: 5, tolerance: 1, relativeTolerance: 0 });
    expect(await grade(check, context('Helsinki'))).toMatchObject({ correct: false, reason: 'the answer holds no number: "Helsinki"' });
    expect((await grade(check, context('5 or 6'))).reason).toContain('several numbers');
  });
});

describe('one_of', () => {
  it('accepts any of its answers after normalisation', async () => {
    const check = resolved({ kind: 'one_of', answers: ['Helsinki', 'Helsingfors'] });
    expect(await grade(check, context('helsingfors.'))).toMatchObject({ correct: true, reason: '"helsingfors." matches "Helsingfors", one of 2 accepted answers' });
    expect(await grade(check, context('Espoo'))).toMatchObject({ correct: false, reason: '"Espoo" matches none of "Helsinki", "Helsingfors"' });
  });
});

describe('regex', () => {
  it('matches in the sandbox', async () => {
    const check = resolved({ kind: 'regex', pattern: '^5[0-9]{2},?[0-9]{3}$', flags: '' });
    expect(await grade(check, context('558,457'))).toMatchObject({ correct: true, reason: '"558,457" matches /^5[0-9]{2},?[0-9]{3}$/' });
    expect(await grade(check, context('about 558,457'))).toMatchObject({ correct: false, reason: '"about 558,457" does not match /^5[0-9]{2},?[0-9]{3}$/' });
  });

  it('stops a pattern that backtracks without end, and never tries one on an over-long answer', async () => {
    const check = resolved({ kind: 'regex', pattern: '^(a+)+$', flags: '' });
    const started = performance.now();
    const verdict = await grade(check, context(`${'a'.repeat(40)}!`));
    expect(verdict).toMatchObject({ check: 'regex', correct: false, failed: true });
    expect(verdict.reason).toContain('ran longer than 1 s on the answer and was stopped');
    // The sandbox's deadline, not the pattern, ended it (generous for a loaded machine).
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(await grade(check, context('a'.repeat(10_001)))).toMatchObject({
      correct: false,
      reason: 'the answer is 10,001 characters long; a pattern is only tried on answers up to 10,000',
    });
  });

  it('says so when there is no sandbox to run it in', async () => {
    const check = resolved({ kind: 'regex', pattern: 'x', flags: 'i' });
    expect(await grade(check, { task: 't', answer: 'x' })).toMatchObject({ correct: false, failed: true, reason: expect.stringContaining('JavaScript sandbox') });
  });
});

describe('js predicate', () => {
  it('reads true/false or {pass, reason}, with the answer, the expected answer, the task and meta', async () => {
    const bool = resolved({ kind: 'js', code: 'args.answer.includes(args.meta.city) && args.expected === "558457"' });
    expect(await grade(bool, context('558457 in Helsinki', { expected: '558457', meta: { city: 'Helsinki' } }))).toEqual({
      check: 'js',
      correct: true,
      reason: 'the predicate returned true',
    });
    const reasoned = resolved({ kind: 'js', code: 'const n = Number(args.answer.replace(/,/g, "")); return { pass: n > 500000, reason: `${n} people` };' });
    expect(await grade(reasoned, context('558,457'))).toEqual({ check: 'js', correct: true, reason: '558457 people' });
  });

  it('fails, saying why, when the predicate throws, loops or returns something else', async () => {
    const throws = await grade(resolved({ kind: 'js', code: 'throw new Error("no")' }), context('x'));
    expect(throws).toMatchObject({ correct: false, failed: true });
    expect(throws.reason).toMatch(/^the predicate failed: .*no/);
    expect(await grade(resolved({ kind: 'js', code: 'while (true) {}' }), context('x'))).toMatchObject({
      correct: false,
      failed: true,
      reason: 'the predicate ran longer than 1 s and was stopped',
    });
    expect(await grade(resolved({ kind: 'js', code: '42' }), context('x'))).toMatchObject({
      correct: false,
      failed: true,
      reason: 'the predicate must return true, false or {"pass": …, "reason": …}; it returned "42"',
    });
  });
});

describe('db', () => {
  it('fails, saying why, without its domain environment (the domain tests grade real databases)', async () => {
    const check = resolved({ kind: 'db', actions: [] }, undefined, 'retail');
    expect(await grade(check, context(null))).toMatchObject({ correct: false, failed: true, reason: "the task's domain environment is not available" });
  });
});

describe('refusals of bad checks', () => {
  const refuse = (check: unknown, answer?: string, domain?: string): string => {
    const parsed = checkSchema.safeParse(check);
    if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    const result = resolveCheck(parsed.data, answer, domain);
    return 'problem' in result ? result.problem : 'accepted';
  };

  it('refuses what cannot be graded, in words', () => {
    expect(refuse({ kind: 'regex', pattern: '(' })).toMatch(/^the pattern does not compile/);
    expect(refuse({ kind: 'regex', pattern: 'x', flags: 'g' })).toBe('flags: may only hold the flags i, m, s and u');
    expect(refuse({ kind: 'regex', pattern: 'x'.repeat(1001) })).toBe('pattern: "pattern" is longer than 1,000 characters');
    expect(refuse({ kind: 'js', code: '' })).toBe('code: "code" must not be empty');
    expect(refuse({ kind: 'js', code: 'x'.repeat(20_001) })).toBe('code: "code" is longer than 20,000 characters');
    expect(refuse({ kind: 'one_of', answers: [] })).toBe('answers: must list at least one answer');
    expect(refuse({ kind: 'numeric', value: 1, tolerance: -1 })).toMatch(/^tolerance: /);
    expect(refuse({ kind: 'numeric' }, 'Helsinki')).toBe('a "numeric" check reads its value from "answer", but the answer holds no number');
    expect(refuse({ kind: 'judge' })).toBe('a "judge" check needs the reference answer ("answer" on the task or the check)');
    expect(refuse({ kind: 'db', actions: [], state: {} }, undefined, 'retail')).toBe('a "db" check needs exactly one of "actions" (the golden actions) and "state" (the golden database)');
    expect(refuse({ kind: 'exact', answer: 'x' }, undefined, 'retail')).toBe('a task of domain "retail" is graded by its database state: its check must be {"kind": "db", …}');
    expect(refuse({ kind: 'exact', answer: 'x', extra: 1 })).toMatch(/Unrecognized key/);
    expect(refuse({ kind: 'exact', answer: 'x' })).toBe('accepted');
  });
});

describe('judge', () => {
  let server: ScriptedServer;
  const JUDGE = 'scripted/judge';
  const pricing: PricingTable = { asOf: '2025-11-26', models: { [JUDGE]: { inputPerM: 1.25, outputPerM: 10 } }, codePerSecond: 0, searchPerCall: 0 };
  const TASK = 'What is the capital of Finland?';

  beforeAll(async () => {
    server = await startScriptedServer({
      scenario: {
        models: {
          [JUDGE]: [
            { when: 'Student answer: the city of Helsinki', content: 'They name the same city. <correct>True</correct>', usage: { prompt_tokens: 120, completion_tokens: 10 } },
            { when: 'Student answer: Espoo', content: '<correct>False</correct>', usage: { prompt_tokens: 110, completion_tokens: 4 } },
          ],
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const judgeModel = () => ({
    model: createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: JUDGE, maxRetries: 0 }),
    pricing,
  });

  it('asks with the paper\'s prompt, reads <correct>, and counts what the call cost', async () => {
    const check = resolved({ kind: 'judge' }, 'Helsinki');
    const verdict = await grade(check, { task: TASK, answer: 'the city of Helsinki', judge: judgeModel() });
    expect(verdict).toEqual({
      check: 'judge',
      correct: true,
      reason: 'the judge (scripted/judge) said it matches "Helsinki": "They name the same city. <correct>True</correct>"',
      costUsd: (120 * 1.25 + 10 * 10) / 1_000_000,
    });
    const sent = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }>; temperature: number };
    expect(sent.messages).toEqual([{ role: 'user', content: judgePrompt(TASK, 'the city of Helsinki', 'Helsinki') }]);
    expect(sent.temperature).toBe(1);
    expect(sent.messages[0]?.content).toBe(
      'Question: What is the capital of Finland?\n\nStudent answer: the city of Helsinki\n\nReference answer: Helsinki\n\nAssume that the reference answer is correct. Output <correct>True</correct> if the student answer matches the reference answer. Output <correct>False</correct> if the student answer does not match the reference answer.',
    );

    const wrong = await grade(check, { task: TASK, answer: 'Espoo', judge: judgeModel() });
    expect(wrong).toMatchObject({ correct: false, costUsd: (110 * 1.25 + 4 * 10) / 1_000_000 });
  });

  it('takes the reference\'s short cuts without a call: the same text, an empty or a 500-word answer', async () => {
    const before = server.requests.length;
    const check = resolved({ kind: 'judge' }, 'Helsinki');
    expect(await grade(check, { task: TASK, answer: ' helsinki ', judge: judgeModel() })).toMatchObject({ correct: true, reason: '" helsinki " is the reference answer (no judge call needed)' });
    expect(await grade(check, { task: TASK, answer: '', judge: judgeModel() })).toMatchObject({ correct: false, reason: 'the run gave no answer' });
    expect(await grade(check, { task: TASK, answer: 'word '.repeat(501), judge: judgeModel() })).toMatchObject({ correct: false });
    expect(server.requests).toHaveLength(before);
  });

  it('fails, saying why, when the judge cannot be reached or none is configured', async () => {
    const check = resolved({ kind: 'judge' }, 'Helsinki');
    const unreachable = { model: createOpenAICompatibleModel({ baseUrl: 'http://127.0.0.1:9/v1', model: JUDGE, maxRetries: 0 }), pricing };
    const verdict = await grade(check, { task: TASK, answer: 'Helsingfors', judge: unreachable });
    expect(verdict).toMatchObject({ correct: false, failed: true });
    expect(verdict.reason).toMatch(/^the judge \(scripted\/judge\) could not be asked: /);
    expect(await grade(check, { task: TASK, answer: 'Helsingfors' })).toMatchObject({ failed: true, reason: expect.stringContaining('"evaluation.judge"') });
  });

  it('reads replies as the reference splits them', () => {
    expect(readJudgeReply('<correct>True</correct>')).toBe(true);
    expect(readJudgeReply('<correct>true</correct> and more')).toBe(true);
    expect(readJudgeReply('<correct>False</correct>')).toBe(false);
    expect(readJudgeReply('True')).toBe(true);
    expect(readJudgeReply('<correct> True </correct>')).toBe(false);
  });
});
