// A suite: tasks with the means to grade their answers, one JSON object per line:
//   {"id", "task", "answer"?, "check"?, "domain"?, "meta"?}
// It is the CLI's batch format grown up: `question` still stands for `task`, ids and answers may
// be numbers, and a line with only an answer is graded by the exact check. A suite is untrusted
// input: its size, its lines and its task count are capped, and every problem names its line.

import { checkSchema, resolveCheck, type ResolvedCheck } from './checks.ts';
import { formatCount } from '../engine/format.ts';
import { nestingPast } from '../engine/jsonDepth.ts';
import { MAX_TASK_CHARS } from '../engine/events.ts';

export const SUITE_LIMITS = {
  /** Characters of the whole file (hosts check its size in bytes before reading it). */
  fileChars: 20_000_000,
  lineChars: 200_000,
  tasks: 10_000,
  taskChars: MAX_TASK_CHARS,
  idChars: 200,
  /** Levels of nesting of a line (a task is a flat record; its meta a small one). */
  depth: 32,
  /** Problems listed before the rest are summarised. */
  problems: 20,
} as const;

export interface SuiteTask {
  id: string;
  task: string;
  /** The reference answer, when the line gives one. */
  answer?: string;
  /** How the answer is graded; absent only where grading is not required (plain batches). */
  check?: ResolvedCheck;
  /** The domain environment the task runs in (its tools, policy and database). */
  domain?: string;
  meta?: Record<string, unknown>;
  /** Where it came from, for messages. */
  line: number;
}

export interface ParsedSuite {
  tasks: SuiteTask[];
  /** Fields the parser did not know and ignored, by line: worth showing (a typo in "check"). */
  warnings: string[];
}

export class SuiteError extends Error {
  override name = 'SuiteError';
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source} is not a valid suite:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export interface ParseSuiteOptions {
  /** Shown in messages: a file name or "the built-in corpus suite". */
  source: string;
  /** Every task must be gradable (an answer or a check). Evaluations need it; batches do not. */
  requireCheck: boolean;
}

const KNOWN_FIELDS = new Set(['id', 'task', 'question', 'answer', 'check', 'domain', 'meta']);
/** Fields `orchestra tasks` writes that are no task's business but are no mistake either. */
const QUIET_FIELDS = new Set(['hops', 'sources']);
const DOMAIN_NAME = /^[a-z][a-z0-9-]{0,63}$/;

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** Reads a suite. Throws a SuiteError listing every problem (the first 20) with its line. */
export function parseSuite(text: string, options: ParseSuiteOptions): ParsedSuite {
  if (text.length > SUITE_LIMITS.fileChars) {
    throw new SuiteError(options.source, [`it is ${plural(text.length, 'character')} long; a suite may hold ${plural(SUITE_LIMITS.fileChars, 'character')}`]);
  }
  const tasks: SuiteTask[] = [];
  const warnings: string[] = [];
  const problems: string[] = [];
  const firstLineOf = new Map<string, number>();
  let problemCount = 0;
  const problem = (line: number, message: string) => {
    problemCount += 1;
    if (problems.length < SUITE_LIMITS.problems) problems.push(`line ${line}: ${message}`);
  };

  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? '';
    const line = index + 1;
    if (!raw.trim()) continue;
    if (tasks.length + problemCount >= SUITE_LIMITS.tasks) {
      problem(line, `more than ${plural(SUITE_LIMITS.tasks, 'task')}; split the suite`);
      break;
    }
    if (raw.length > SUITE_LIMITS.lineChars) {
      problem(line, `${plural(raw.length, 'character')} long; a line may hold ${plural(SUITE_LIMITS.lineChars, 'character')}`);
      continue;
    }
    if (nestingPast(raw, SUITE_LIMITS.depth) !== -1) {
      problem(line, `nested more than ${SUITE_LIMITS.depth} levels deep; a task is a flat record`);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problem(line, `not valid JSON (${(error as Error).message})`);
      continue;
    }
    const parsed = parseLine(value, line, options, warnings);
    if ('problem' in parsed) {
      problem(line, parsed.problem);
      continue;
    }
    const first = firstLineOf.get(parsed.id);
    if (first !== undefined) {
      problem(line, `the id "${parsed.id}" is already used on line ${first}; each task needs its own id`);
      continue;
    }
    firstLineOf.set(parsed.id, line);
    tasks.push(parsed);
  }
  if (problemCount > problems.length) problems.push(`and ${plural(problemCount - problems.length, 'more problem')}`);
  if (problems.length > 0) throw new SuiteError(options.source, problems);
  if (tasks.length === 0) throw new SuiteError(options.source, ['it holds no task (one JSON object per line)']);
  return { tasks, warnings };
}

function parseLine(value: unknown, line: number, options: ParseSuiteOptions, warnings: string[]): SuiteTask | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'expected an object such as {"id": "t1", "task": "…", "answer": "…"}' };
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !KNOWN_FIELDS.has(key) && !QUIET_FIELDS.has(key));
  if (unknown.length > 0) warnings.push(`line ${line}: ignored unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `"${k}"`).join(', ')}`);

  const id = record.id;
  if ((typeof id !== 'string' || !id.trim()) && !(typeof id === 'number' && Number.isFinite(id))) {
    return { problem: '"id" must be a non-empty string or a number (it is how a resumed run knows what is done)' };
  }
  const key = String(id);
  if (key.length > SUITE_LIMITS.idChars) return { problem: `"id" is longer than ${SUITE_LIMITS.idChars} characters` };
  if (record.task !== undefined && record.question !== undefined) return { problem: 'give "task" or "question", not both' };
  const task = record.task ?? record.question;
  if (typeof task !== 'string' || !task.trim()) return { problem: '"task" (or "question") must be a non-empty string' };
  if (task.length > SUITE_LIMITS.taskChars) return { problem: `"task" is longer than ${plural(SUITE_LIMITS.taskChars, 'character')}` };

  const rawAnswer = record.answer;
  if (rawAnswer !== undefined && rawAnswer !== null && typeof rawAnswer !== 'string' && !(typeof rawAnswer === 'number' && Number.isFinite(rawAnswer))) {
    return { problem: '"answer" must be a string or a number when given' };
  }
  const answer = rawAnswer === undefined || rawAnswer === null ? undefined : String(rawAnswer);

  const domain = record.domain;
  if (domain !== undefined && (typeof domain !== 'string' || !DOMAIN_NAME.test(domain))) {
    return { problem: '"domain" must be a domain\'s name: lower-case letters, digits and "-", such as "retail"' };
  }
  const meta = record.meta;
  if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) {
    return { problem: '"meta" must be an object when given' };
  }

  const result: SuiteTask = { id: key, task, line };
  if (answer !== undefined) result.answer = answer;
  if (domain !== undefined) result.domain = domain;
  if (meta !== undefined) result.meta = meta as Record<string, unknown>;

  if (record.check === undefined && answer === undefined && domain === undefined && !options.requireCheck) return result;
  let check;
  if (record.check !== undefined) {
    const parsed = checkSchema.safeParse(record.check);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `check.${issue.path.join('.')}` : 'check';
      return { problem: `${where}: ${issue?.message ?? 'is not a valid check'} (kinds: exact, numeric, one_of, regex, js, db, judge)` };
    }
    check = parsed.data;
  }
  const resolved = resolveCheck(check, answer, domain);
  if ('problem' in resolved) return { problem: resolved.problem };
  result.check = resolved;
  return result;
}

/** A multi-hop question over the local corpus (tools/search/sampleTasks.ts writes them). */
export interface CorpusQuestion {
  id: string;
  question: string;
  answer: string;
  hops: number;
  sources: string[];
}

/** The built-in multi-hop questions over the local corpus as a suite, each graded by its answer. */
export function corpusSuite(samples: readonly CorpusQuestion[]): SuiteTask[] {
  return samples.map((sample, index) => ({
    id: sample.id,
    task: sample.question,
    answer: sample.answer,
    check: { kind: 'exact', answer: sample.answer },
    meta: { hops: sample.hops, sources: sample.sources },
    line: index + 1,
  }));
}

/** A suite as JSONL (what `orchestra tasks --suite` prints and a file picker would save). */
export function suiteToJsonl(tasks: readonly SuiteTask[]): string {
  return tasks
    .map((task) => {
      const { line: _line, check, ...rest } = task;
      const written: Record<string, unknown> = { ...rest };
      // An exact check on the task's own answer is the default: leave it implicit.
      if (check && !(check.kind === 'exact' && check.answer === task.answer)) written.check = check;
      return `${JSON.stringify(written)}\n`;
    })
    .join('');
}
