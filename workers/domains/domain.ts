// A domain (tau2-bench style): a small database, tools that read and change it, a policy the
// agent must follow, and tasks graded by the database they leave behind. A domain is files, so a
// user can add one without building anything (docs/evaluation.md):
//
//   domain.json   name, title, the date tools treat as today, and each tool's name, description
//                 and JSON-schema parameters
//   policy.md     the domain policy: the agent's system prompt
//   db.json       the seeded database: {"<table>": {"<row id>": {…row…}}}
//   tools.js      one top-level `function <tool>(db, args, context)` per tool, run in the QuickJS
//                 sandbox: it reads and changes `db` in place and returns what the agent reads;
//                 throwing refuses the call and leaves the database as it was
//   tasks.jsonl   the domain's suite: {"id", "task", "domain", "check": {"kind": "db", "actions": […]}}
//
// Everything here is untrusted input: sizes are capped and every problem says where it is.

import { z } from 'zod';
import { checkToolParameters, formatSchemaProblem } from '../engine/toolSchema.ts';
import { parseSuite, SuiteError, type SuiteTask } from '../eval/suite.ts';
import { databaseProblems, type Database } from './database.ts';
import { formatCount } from '../engine/format.ts';

export interface DomainFiles {
  manifest: string;
  policy: string;
  db: string;
  tools: string;
  tasks: string;
}

export const DOMAIN_FILE_NAMES: Record<keyof DomainFiles, string> = {
  manifest: 'domain.json',
  policy: 'policy.md',
  db: 'db.json',
  tools: 'tools.js',
  tasks: 'tasks.jsonl',
};

export const DOMAIN_LIMITS = {
  manifestChars: 200_000,
  policyChars: 50_000,
  dbChars: 1_000_000,
  toolsChars: 200_000,
  tools: 64,
} as const;

/** A tool's name is also its function's name in tools.js. */
const TOOL_NAME = /^[a-z_][a-z0-9_]{0,63}$/;
export const DOMAIN_NAME = /^[a-z][a-z0-9-]{0,63}$/;

const toolSpecSchema = z.strictObject({
  name: z.string().regex(TOOL_NAME, 'must be a JavaScript function name in lower case: letters, digits and "_"'),
  description: z.string().trim().min(1, 'must say what the tool does (the agent reads it)'),
  parameters: z.record(z.string(), z.unknown()).superRefine((parameters, ctx) => {
    for (const problem of checkToolParameters(parameters)) ctx.addIssue({ code: 'custom', path: problem.path, message: formatSchemaProblem(problem) });
  }),
});

const manifestSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().regex(DOMAIN_NAME, 'must be lower-case letters, digits and "-", starting with a letter'),
  title: z.string().trim().min(1),
  description: z.string().default(''),
  /** The date the tools treat as today (tools must not read the clock: runs must replay). */
  today: z.iso.date({ message: 'must be a date as YYYY-MM-DD' }),
  tools: z.array(toolSpecSchema).min(1, 'must list at least one tool').max(DOMAIN_LIMITS.tools),
});

export type DomainToolSpec = z.output<typeof toolSpecSchema>;

export interface Domain {
  name: string;
  title: string;
  description: string;
  today: string;
  /** The system prompt of every task in the domain. */
  policy: string;
  tools: DomainToolSpec[];
  seed: Database;
  /** tools.js, as written. */
  toolsSource: string;
  tasks: SuiteTask[];
}

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`The domain in ${source} cannot be used:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function tooLong(file: keyof DomainFiles, text: string, max: number): string | null {
  return text.length > max
    ? `${DOMAIN_FILE_NAMES[file]} is ${formatCount(text.length)} characters long; at most ${formatCount(max)}`
    : null;
}

/** Reads a domain's files (their text). Throws a DomainError naming every problem. */
export function parseDomain(files: DomainFiles, source: string): Domain {
  const sizeProblems = [
    tooLong('manifest', files.manifest, DOMAIN_LIMITS.manifestChars),
    tooLong('policy', files.policy, DOMAIN_LIMITS.policyChars),
    tooLong('db', files.db, DOMAIN_LIMITS.dbChars),
    tooLong('tools', files.tools, DOMAIN_LIMITS.toolsChars),
  ].filter((p): p is string => p !== null);
  if (sizeProblems.length > 0) throw new DomainError(source, sizeProblems);

  const problems: string[] = [];
  const json = (file: 'manifest' | 'db'): unknown => {
    try {
      return JSON.parse(files[file]);
    } catch (error) {
      problems.push(`${DOMAIN_FILE_NAMES[file]} is not valid JSON: ${(error as Error).message}`);
      return undefined;
    }
  };
  const manifestValue = json('manifest');
  const dbValue = json('db');

  const manifest = manifestValue === undefined ? undefined : manifestSchema.safeParse(manifestValue);
  if (manifest && !manifest.success) {
    for (const issue of manifest.error.issues) {
      problems.push(`${DOMAIN_FILE_NAMES.manifest}: ${issue.path.length > 0 ? issue.path.join('.') : '(top level)'}: ${issue.message}`);
    }
  }
  if (dbValue !== undefined) problems.push(...databaseProblems(dbValue).map((p) => `${DOMAIN_FILE_NAMES.db}: ${p}`));
  if (!files.policy.trim()) problems.push(`${DOMAIN_FILE_NAMES.policy} is empty: the policy is the agent's system prompt`);
  if (!files.tools.trim()) problems.push(`${DOMAIN_FILE_NAMES.tools} is empty`);
  const names = manifest?.success ? manifest.data.tools.map((t) => t.name) : [];
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) problems.push(`${DOMAIN_FILE_NAMES.manifest}: the tool "${repeated}" is listed twice`);

  let tasks: SuiteTask[] = [];
  try {
    tasks = parseSuite(files.tasks, { source: `${source}/${DOMAIN_FILE_NAMES.tasks}`, requireCheck: true }).tasks;
  } catch (error) {
    if (!(error instanceof SuiteError)) throw error;
    problems.push(...error.problems.map((p) => `${DOMAIN_FILE_NAMES.tasks}: ${p}`));
  }
  const name = manifest?.success ? manifest.data.name : undefined;
  for (const task of tasks) {
    if (task.domain !== name) {
      problems.push(`${DOMAIN_FILE_NAMES.tasks}: line ${task.line}: "domain" must be "${name ?? '(the domain name)'}", got ${JSON.stringify(task.domain ?? null)}`);
    }
    const check = task.check;
    if (check?.kind === 'db' && check.actions) {
      check.actions.forEach((action, i) => {
        if (!names.includes(action.name)) {
          problems.push(`${DOMAIN_FILE_NAMES.tasks}: line ${task.line}: golden action ${i + 1} calls "${action.name}", which is not a tool of the domain`);
        }
      });
    }
  }

  if (problems.length > 0 || !manifest?.success) throw new DomainError(source, problems);
  return {
    name: manifest.data.name,
    title: manifest.data.title,
    description: manifest.data.description,
    today: manifest.data.today,
    policy: files.policy.trim(),
    tools: manifest.data.tools,
    seed: dbValue as Database,
    toolsSource: files.tools,
    tasks,
  };
}
