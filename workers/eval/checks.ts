// The checks a suite task can carry, and their verdicts. Every verdict says why, in words a user
// can read next to the answer. Pure TypeScript; what a check needs from its host (the QuickJS
// sandbox for regular expressions and predicates, a judge model, a domain's database) is handed
// in, so the browser and the CLI grade the same way.

import { z } from 'zod';
import type { JavaScriptRunner, JsonValue } from '../engine/ports.ts';
import { Ledger } from '../engine/ledger.ts';
import type { PricingTable } from '../engine/pricing.ts';
import { estimatePromptTokens, estimateTokensOfLength } from '../engine/tokens.ts';
import type { ChatModel } from '../engine/types.ts';
import { answersMatch, normalizeAnswer, readNumber } from './answers.ts';
import { formatCount } from '../engine/format.ts';

export const CHECK_KINDS = ['exact', 'numeric', 'one_of', 'regex', 'js', 'db', 'judge'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** Caps that keep a hostile suite from hurting the host. */
export const CHECK_LIMITS = {
  patternChars: 1_000,
  /** A regular expression is only run on answers up to this long. */
  regexInputChars: 10_000,
  /** Run time of a regular expression or predicate, in the sandbox. */
  sandboxTimeoutMs: 1_000,
  sandboxMemoryBytes: 16 * 1024 * 1024,
  predicateChars: 20_000,
  oneOfAnswers: 100,
  answerChars: 10_000,
  goldenActions: 100,
} as const;

const REGEX_FLAGS = /^[imsu]*$/;

const text = (max: number, what: string) => z.string().min(1, `${what} must not be empty`).max(max, `${what} is longer than ${formatCount(max)} characters`);

/** One call of a domain tool, as a golden action: what a correct agent would have done. */
export const goldenActionSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
});
export type GoldenAction = z.output<typeof goldenActionSchema>;

export const checkSchema = z.discriminatedUnion('kind', [
  /** Equal after normalisation (case, accents, punctuation, articles, number formatting). */
  z.strictObject({ kind: z.literal('exact'), answer: text(CHECK_LIMITS.answerChars, '"answer"').optional() }),
  /** The answer's number within an absolute and/or relative tolerance of the expected value. */
  z.strictObject({
    kind: z.literal('numeric'),
    value: z.number().finite().optional(),
    tolerance: z.number().nonnegative().finite().default(0),
    relativeTolerance: z.number().nonnegative().finite().default(0),
  }),
  z.strictObject({
    kind: z.literal('one_of'),
    answers: z.array(text(CHECK_LIMITS.answerChars, 'each answer')).min(1, 'must list at least one answer').max(CHECK_LIMITS.oneOfAnswers),
  }),
  /** The answer matches a regular expression (run in the sandbox, under a time limit). */
  z.strictObject({
    kind: z.literal('regex'),
    pattern: text(CHECK_LIMITS.patternChars, '"pattern"'),
    flags: z.string().regex(REGEX_FLAGS, 'may only hold the flags i, m, s and u').default(''),
  }),
  /** JavaScript run in the QuickJS sandbox with `args` = { answer, expected, task, meta }; it
   * returns true or false, or { pass, reason }. */
  z.strictObject({ kind: z.literal('js'), code: text(CHECK_LIMITS.predicateChars, '"code"') }),
  /** A domain task: the database after the run equals the golden state, which is the seeded
   * database after the golden actions (or given whole as `state`). */
  z.strictObject({
    kind: z.literal('db'),
    actions: z.array(goldenActionSchema).max(CHECK_LIMITS.goldenActions).optional(),
    state: z.record(z.string(), z.unknown()).optional(),
  }),
  /** A judge model decides, with the paper's HLE judge prompt, against the reference answer. */
  z.strictObject({ kind: z.literal('judge'), answer: text(CHECK_LIMITS.answerChars, '"answer"').optional() }),
]);
export type Check = z.output<typeof checkSchema>;

/** What a task carries into grading: its check, with the reference answer resolved. */
export type ResolvedCheck =
  | { kind: 'exact'; answer: string }
  | { kind: 'numeric'; value: number; tolerance: number; relativeTolerance: number }
  | { kind: 'one_of'; answers: string[] }
  | { kind: 'regex'; pattern: string; flags: string }
  | { kind: 'js'; code: string }
  | { kind: 'db'; actions?: GoldenAction[]; state?: Record<string, unknown> }
  | { kind: 'judge'; answer: string };

/**
 * Fills a check's defaults from the task's `answer` and refuses what cannot be graded: an exact
 * or judge check with no reference, a numeric check with no number, a pattern that does not
 * compile, a db check off a domain. Returns the problem in words, or the resolved check.
 */
export function resolveCheck(check: Check | undefined, answer: string | undefined, domain: string | undefined): ResolvedCheck | { problem: string } {
  const kind = check?.kind ?? (domain !== undefined ? 'db' : 'exact');
  if (domain !== undefined && kind !== 'db') {
    return { problem: `a task of domain "${domain}" is graded by its database state: its check must be {"kind": "db", …}` };
  }
  switch (check?.kind) {
    case undefined:
      if (domain !== undefined) return { problem: 'a domain task needs "check": {"kind": "db", "actions": […]} (or "state")' };
      if (answer === undefined) return { problem: 'no "answer" and no "check": nothing to grade the answer by' };
      return { kind: 'exact', answer };
    case 'exact':
    case 'judge': {
      const reference = check.answer ?? answer;
      if (reference === undefined) return { problem: `a "${check.kind}" check needs the reference answer ("answer" on the task or the check)` };
      return { kind: check.kind, answer: reference };
    }
    case 'numeric': {
      if (check.value !== undefined) return { ...check, value: check.value };
      if (answer === undefined) return { problem: 'a "numeric" check needs "value" (or a numeric "answer" on the task)' };
      const reading = readNumber(answer);
      if (!reading.ok) return { problem: `a "numeric" check reads its value from "answer", but ${reading.reason}` };
      return { ...check, value: reading.value };
    }
    case 'one_of':
      return check;
    case 'regex': {
      try {
        new RegExp(check.pattern, check.flags);
      } catch (error) {
        return { problem: `the pattern does not compile: ${(error as Error).message}` };
      }
      return check;
    }
    case 'js':
      return check;
    case 'db':
      if (domain === undefined) return { problem: 'a "db" check needs the task\'s "domain"' };
      if ((check.actions === undefined) === (check.state === undefined)) {
        return { problem: 'a "db" check needs exactly one of "actions" (the golden actions) and "state" (the golden database)' };
      }
      return check;
  }
}

/** One of τ²'s criteria as a verdict names it (evaluate.ts): 1 passed, 0 failed, null not graded. */
export interface CriterionResult {
  criterion: string;
  /** Whether the task's reward_basis counts it. */
  counted: boolean;
  reward: number | null;
  reason: string;
}

export interface Verdict {
  /** `tau2`: graded by τ²'s criteria (a τ² or ToolScale domain's session), not by a suite check. */
  check: CheckKind | 'tau2';
  correct: boolean;
  /** Why, in words. */
  reason: string;
  /** The check could not run as intended (the sandbox failed, the judge could not be reached, the
   * golden actions do not run): the task counts as wrong and the reason says why. */
  failed?: boolean;
  /** What grading cost (the judge's call); null when its price is unknown. */
  costUsd?: number | null;
  /** The rows where the database differs from the golden state (db checks). */
  rows?: RowMismatch[];
  /** τ²'s criteria, each with its reward and why. */
  criteria?: CriterionResult[];
}

/** One row where the run's database and the golden one differ. */
export interface RowMismatch {
  table: string;
  id: string;
  /** The row in the run's database; null when it is missing there. */
  actual: unknown;
  /** The row in the golden database; null when it should not exist. */
  expected: unknown;
  /** The fields that differ (for rows present on both sides). */
  fields: string[];
}

/** A model that judges answers, and the prices to charge its calls at. */
export interface JudgeModel {
  model: ChatModel;
  pricing: PricingTable;
}

/** The database side of a db check, from the domain environment. */
export interface DatabaseComparison {
  /** Compares the run's final database with the golden state (tau2's comparison). */
  compare(): Promise<{ equal: true; changedRows: number } | { equal: false; rows: RowMismatch[] } | { error: string }>;
}

export interface GradeContext {
  task: string;
  answer: string | null;
  /** The task's reference answer, when it has one (handed to predicates as `expected`). */
  expected?: string;
  meta?: Record<string, unknown>;
  /** The QuickJS sandbox, for regex and js checks. */
  javascript?: JavaScriptRunner;
  judge?: JudgeModel;
  database?: DatabaseComparison;
  signal?: AbortSignal;
}

/** The paper's judge prompt (HLE evaluation), verbatim: NVlabs/ToolOrchestra
 * evaluation/eval_hle.py, commit 9d34d87a39289e24528c2c50894528fd3822e545, lines 276–279. */
export function judgePrompt(question: string, studentAnswer: string, referenceAnswer: string): string {
  return (
    `Question: ${question}\n\n` +
    `Student answer: ${studentAnswer}\n\n` +
    `Reference answer: ${referenceAnswer}\n\n` +
    'Assume that the reference answer is correct. Output <correct>True</correct> if the student answer matches the reference answer. Output <correct>False</correct> if the student answer does not match the reference answer.'
  );
}

/** Reads the judge's reply as the reference does: the text between the last `<correct>` and the
 * next `</correct>` (the whole reply when there are no tags), "true" in any case. */
export function readJudgeReply(reply: string): boolean {
  const afterOpen = reply.split('<correct>').pop() ?? '';
  return (afterOpen.split('</correct>')[0] ?? '').toLowerCase() === 'true';
}

const quote = (value: string, max = 80) => JSON.stringify(value.length > max ? `${value.slice(0, max - 1)}…` : value);

function noAnswer(kind: CheckKind): Verdict {
  return { check: kind, correct: false, reason: 'the run gave no answer' };
}

/** Grades an answer. Never throws for a bad answer; a check that cannot run is a failed verdict. */
export async function grade(check: ResolvedCheck, context: GradeContext): Promise<Verdict> {
  const { answer } = context;
  switch (check.kind) {
    case 'exact': {
      if (answer === null) return noAnswer('exact');
      const got = normalizeAnswer(answer);
      const want = normalizeAnswer(check.answer);
      return got === want
        ? { check: 'exact', correct: true, reason: `${quote(answer)} equals ${quote(check.answer)} after normalisation (${quote(want)})` }
        : { check: 'exact', correct: false, reason: `${quote(answer)} is not ${quote(check.answer)} (normalised: ${quote(got)} vs ${quote(want)})` };
    }
    case 'numeric':
      return gradeNumeric(check, answer);
    case 'one_of': {
      if (answer === null) return noAnswer('one_of');
      const match = check.answers.find((option) => answersMatch(answer, option));
      return match !== undefined
        ? { check: 'one_of', correct: true, reason: `${quote(answer)} matches ${quote(match)}, one of ${check.answers.length} accepted answers` }
        : { check: 'one_of', correct: false, reason: `${quote(answer)} matches none of ${check.answers.map((a) => quote(a, 40)).join(', ')}` };
    }
    case 'regex':
      return gradeRegex(check, context);
    case 'js':
      return gradePredicate(check, context);
    case 'db':
      return gradeDatabase(context);
    case 'judge':
      return gradeWithJudge(check, context);
  }
}

function gradeNumeric(check: Extract<ResolvedCheck, { kind: 'numeric' }>, answer: string | null): Verdict {
  if (answer === null) return noAnswer('numeric');
  const reading = readNumber(answer);
  if (!reading.ok) return { check: 'numeric', correct: false, reason: `${reading.reason}: ${quote(answer)}` };
  const allowed = Math.max(check.tolerance, check.relativeTolerance * Math.abs(check.value));
  const off = Math.abs(reading.value - check.value);
  const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });
  const within = allowed === 0 ? 'exactly' : `within ${fmt(allowed)} of`;
  return off <= allowed
    ? { check: 'numeric', correct: true, reason: `${fmt(reading.value)} is ${within} ${fmt(check.value)}${off > 0 ? ` (off by ${fmt(off)})` : ''}` }
    : { check: 'numeric', correct: false, reason: `${fmt(reading.value)} is off by ${fmt(off)} from ${fmt(check.value)} (allowed: ${fmt(allowed)})` };
}

function sandboxMissing(kind: CheckKind): Verdict {
  return { check: kind, correct: false, failed: true, reason: 'this check runs in the JavaScript sandbox (QuickJS), which is not available here' };
}

async function gradeRegex(check: Extract<ResolvedCheck, { kind: 'regex' }>, context: GradeContext): Promise<Verdict> {
  const { answer } = context;
  if (answer === null) return noAnswer('regex');
  const shown = `/${check.pattern}/${check.flags}`;
  if (answer.length > CHECK_LIMITS.regexInputChars) {
    return {
      check: 'regex',
      correct: false,
      reason: `the answer is ${formatCount(answer.length)} characters long; a pattern is only tried on answers up to ${formatCount(CHECK_LIMITS.regexInputChars)}`,
    };
  }
  if (!context.javascript) return sandboxMissing('regex');
  // A pattern can backtrack for ever ("(a+)+$"): it runs in the sandbox, which stops it at its deadline.
  const result = await context.javascript.run('new RegExp(args.pattern, args.flags).test(args.answer)', {
    timeoutMs: CHECK_LIMITS.sandboxTimeoutMs,
    memoryBytes: CHECK_LIMITS.sandboxMemoryBytes,
    input: { pattern: check.pattern, flags: check.flags, answer },
    ...(context.signal ? { signal: context.signal } : {}),
  });
  if (result.timedOut) {
    return { check: 'regex', correct: false, failed: true, reason: `${shown} ran longer than ${CHECK_LIMITS.sandboxTimeoutMs / 1000} s on the answer and was stopped (a pattern that backtracks without end)` };
  }
  if (result.error !== null || typeof result.value !== 'boolean') {
    return { check: 'regex', correct: false, failed: true, reason: `${shown} could not be run: ${result.error ?? 'no result'}` };
  }
  return result.value
    ? { check: 'regex', correct: true, reason: `${quote(answer)} matches ${shown}` }
    : { check: 'regex', correct: false, reason: `${quote(answer)} does not match ${shown}` };
}

async function gradePredicate(check: Extract<ResolvedCheck, { kind: 'js' }>, context: GradeContext): Promise<Verdict> {
  if (!context.javascript) return sandboxMissing('js');
  const input: { [key: string]: JsonValue } = {
    answer: context.answer,
    expected: context.expected ?? null,
    task: context.task,
    meta: (context.meta ?? {}) as { [key: string]: JsonValue },
  };
  const result = await context.javascript.run(check.code, {
    timeoutMs: CHECK_LIMITS.sandboxTimeoutMs,
    memoryBytes: CHECK_LIMITS.sandboxMemoryBytes,
    input,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  if (result.timedOut) return { check: 'js', correct: false, failed: true, reason: `the predicate ran longer than ${CHECK_LIMITS.sandboxTimeoutMs / 1000} s and was stopped` };
  if (result.error !== null) return { check: 'js', correct: false, failed: true, reason: `the predicate failed: ${result.error}` };
  const value = result.value;
  if (typeof value === 'boolean') {
    return { check: 'js', correct: value, reason: value ? 'the predicate returned true' : 'the predicate returned false' };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.pass === 'boolean') {
    const why = typeof value.reason === 'string' && value.reason.trim() ? value.reason.trim().slice(0, 500) : `the predicate returned pass: ${value.pass}`;
    return { check: 'js', correct: value.pass, reason: why };
  }
  return {
    check: 'js',
    correct: false,
    failed: true,
    reason: `the predicate must return true, false or {"pass": …, "reason": …}; it returned ${value === undefined ? 'nothing' : quote(JSON.stringify(value))}`,
  };
}

async function gradeDatabase(context: GradeContext): Promise<Verdict> {
  if (!context.database) return { check: 'db', correct: false, failed: true, reason: "the task's domain environment is not available" };
  const outcome = await context.database.compare();
  if ('error' in outcome) return { check: 'db', correct: false, failed: true, reason: outcome.error };
  if (outcome.equal) {
    const changed = outcome.changedRows === 0 ? 'no row changed, as the golden run leaves it' : `${outcome.changedRows} row${outcome.changedRows === 1 ? '' : 's'} changed as in the golden run`;
    return { check: 'db', correct: true, reason: `the database equals the golden state (${changed})` };
  }
  const rows = outcome.rows;
  const described = rows.slice(0, 5).map(describeMismatch).join('; ');
  const more = rows.length > 5 ? `; and ${rows.length - 5} more` : '';
  return {
    check: 'db',
    correct: false,
    reason: `the database differs from the golden state in ${rows.length} row${rows.length === 1 ? '' : 's'}: ${described}${more}`,
    rows,
  };
}

/** A field's value as JSON, shortened: "cancelled" (with its quotes), 12, null, absent. */
function showValue(value: unknown): string {
  const text = value === undefined ? 'absent' : (JSON.stringify(value) ?? 'absent');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function describeMismatch(row: RowMismatch): string {
  const where = `${row.table}/${row.id}`;
  if (row.actual === null) return `${where} is missing`;
  if (row.expected === null) return `${where} should not exist`;
  const fields = row.fields.slice(0, 4).map((field) => {
    const actual = (row.actual as Record<string, unknown>)[field];
    const expected = (row.expected as Record<string, unknown>)[field];
    return `${field} is ${showValue(actual)}, expected ${showValue(expected)}`;
  });
  return `${where}: ${fields.join(', ')}${row.fields.length > 4 ? ', …' : ''}`;
}

async function gradeWithJudge(check: Extract<ResolvedCheck, { kind: 'judge' }>, context: GradeContext): Promise<Verdict> {
  const prediction = context.answer ?? '';
  // The reference's own short cuts, before any call: an empty or over-long answer is wrong, the
  // same text (case aside) is right.
  if (prediction.trim() === '' || prediction.split(' ').length > 500) {
    return { check: 'judge', correct: false, reason: prediction.trim() === '' ? 'the run gave no answer' : 'the answer is over 500 words, which the reference marks wrong without asking the judge' };
  }
  if (prediction.trim().toLowerCase() === check.answer.trim().toLowerCase()) {
    return { check: 'judge', correct: true, reason: `${quote(prediction)} is the reference answer (no judge call needed)` };
  }
  if (!context.judge) {
    return { check: 'judge', correct: false, failed: true, reason: 'a judge check needs a judge model: set "evaluation.judge" in the configuration' };
  }
  const { model, pricing } = context.judge;
  const request = { messages: [{ role: 'user' as const, content: judgePrompt(context.task, prediction, check.answer) }], temperature: 1 };
  let completion;
  try {
    completion = await model.complete({ ...request, ...(context.signal ? { signal: context.signal } : {}) });
  } catch (error) {
    return { check: 'judge', correct: false, failed: true, reason: `the judge (${model.model}) could not be asked: ${(error as Error).message}` };
  }
  const ledger = new Ledger({ pricing });
  const entry = ledger.recordModelCall({
    step: 0,
    kind: 'expert',
    model: model.model,
    usage: completion.usage,
    estimatedUsage: completion.usage
      ? undefined
      : { promptTokens: estimatePromptTokens(request.messages), completionTokens: estimateTokensOfLength(completion.content.length) },
    latencyMs: completion.latencyMs,
  });
  const correct = readJudgeReply(completion.content);
  const said = quote(completion.content.trim(), 120);
  return {
    check: 'judge',
    correct,
    reason: `the judge (${model.model}) said ${correct ? 'it matches' : 'it does not match'} ${quote(check.answer)}: ${said}`,
    costUsd: entry.usd,
  };
}
