// A domain at run time: each task gets the seeded database in memory and the domain's tools over
// it. Tool bodies (tools.js) run in the QuickJS sandbox, one call at a time per task, so a
// domain's code, built in or added by a user, never runs in the host; the host keeps the
// database, applies what a call changed and reports it row by row. Pure TypeScript: the browser
// hands in its sandbox worker, the CLI its in-process QuickJS.

import type { Tool, ToolOutput } from '../engine/types.ts';
import { validateArguments } from '../engine/validateArguments.ts';
import type { DatabaseComparison, GoldenAction, RowMismatch } from '../eval/checks.ts';
import type { SuiteTask } from '../eval/suite.ts';
import type { JavaScriptRunner, JsonValue } from '../engine/ports.ts';
import {
  changedFields,
  compareDatabases,
  copyDatabase,
  countChangedRows,
  databaseProblems,
  isSafeKey,
  type Database,
  type Row,
  type RowChange,
} from './database.ts';
import type { Domain } from './domain.ts';

/** What a domain tool call leaves in its `tool_result` event's `detail`, for the trace. */
export interface DomainToolDetail {
  kind: 'domain';
  domain: string;
  tool: string;
  /** The rows the call inserted, changed or deleted; empty for a read or a refused call. */
  changes: RowChange[];
  /** What the tool returned, when it succeeded. */
  result?: JsonValue;
  /** Why the call was refused (the tool threw), or why it could not run. */
  error?: string;
}

export function isDomainToolDetail(detail: unknown): detail is DomainToolDetail {
  return typeof detail === 'object' && detail !== null && (detail as { kind?: unknown }).kind === 'domain' && Array.isArray((detail as { changes?: unknown }).changes);
}

export const DOMAIN_SANDBOX = {
  timeoutMs: 2_000,
  memoryBytes: 32 * 1024 * 1024,
} as const;

/** Runs before tools.js: a domain's tools must give the same result every time a task replays,
 * so the clock and randomness are not theirs to read (the manifest's `today` is). */
const DETERMINISM_GUARD = String.raw`Math.random = function () { throw new Error('Domain tools must be deterministic: Math.random is not available (derive new ids from the database).'); };
(function (RealDate) {
  function refuse() { throw new Error('Domain tools must be deterministic: the clock is not available; use context.today.'); }
  globalThis.Date = class Date extends RealDate {
    constructor(...values) { if (values.length === 0) refuse(); super(...values); }
    static now() { refuse(); }
  };
})(Date);
`;

/** Runs after tools.js: calls one tool on the database and reports the rows it changed. */
const DISPATCH = String.raw`
;(function (call) {
  'use strict';
  var hasOwn = Object.prototype.hasOwnProperty;
  var fn = hasOwn.call(globalThis, call.tool) ? globalThis[call.tool] : undefined;
  if (typeof fn !== 'function') return { ok: false, error: 'tools.js defines no function ' + call.tool + '(db, args, context)' };
  var db = call.db;
  var before = {};
  Object.keys(db).forEach(function (table) {
    before[table] = {};
    Object.keys(db[table]).forEach(function (id) { before[table][id] = JSON.stringify(db[table][id]); });
  });
  var result;
  try {
    result = fn(db, call.arguments, call.context);
  } catch (error) {
    return { ok: false, error: error && typeof error.message === 'string' ? error.message : String(error) };
  }
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    return { ok: false, error: call.tool + ' returned a promise: domain tools are synchronous' };
  }
  var changes = [];
  var tables = Object.keys(before).concat(Object.keys(db).filter(function (t) { return !hasOwn.call(before, t); }));
  for (var i = 0; i < tables.length; i++) {
    var table = tables[i];
    var now = hasOwn.call(db, table) ? db[table] : {};
    if (now === null || typeof now !== 'object' || Array.isArray(now)) return { ok: false, error: call.tool + ' made table "' + table + '" something other than an object of rows' };
    var was = hasOwn.call(before, table) ? before[table] : {};
    Object.keys(now).forEach(function (id) {
      var text = JSON.stringify(now[id]);
      if (!hasOwn.call(was, id) || was[id] !== text) changes.push({ table: table, id: id, row: now[id] === undefined ? null : now[id] });
    });
    Object.keys(was).forEach(function (id) { if (!hasOwn.call(now, id)) changes.push({ table: table, id: id, row: null }); });
  }
  return { ok: true, result: result === undefined ? null : result, changes: changes };
})(args)
`;

const VERIFY = String.raw`
;(function (names) {
  var hasOwn = Object.prototype.hasOwnProperty;
  return names.filter(function (name) { return !(hasOwn.call(globalThis, name) && typeof globalThis[name] === 'function'); });
})(args.names)
`;

export type GoldenState = { ok: true; db: Database } | { ok: false; error: string };

interface Change {
  table: string;
  id: string;
  row: Row | null;
}

type DispatchReply = { ok: true; result: JsonValue; changes: Change[] } | { ok: false; error: string };

/** Checks what came back from the sandbox: it is the guest's word, so nothing is assumed. */
function readReply(value: JsonValue | undefined): DispatchReply | { invalid: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof value.ok !== 'boolean') {
    return { invalid: 'the sandbox returned no result' };
  }
  if (!value.ok) return { ok: false, error: typeof value.error === 'string' ? value.error : 'the tool failed' };
  if (!Array.isArray(value.changes)) return { invalid: 'the sandbox returned no list of changes' };
  const changes: Change[] = [];
  for (const change of value.changes) {
    if (change === null || typeof change !== 'object' || Array.isArray(change)) return { invalid: 'a change is not an object' };
    const { table, id, row } = change;
    if (typeof table !== 'string' || !isSafeKey(table) || typeof id !== 'string' || !isSafeKey(id)) {
      return { invalid: `a change names a table or row id that cannot be used (${JSON.stringify(table)}/${JSON.stringify(id)})` };
    }
    if (row !== null && (typeof row !== 'object' || Array.isArray(row))) {
      return { invalid: `row ${table}/${id} must be an object (or deleted)` };
    }
    changes.push({ table, id, row: row as Row | null });
  }
  return { ok: true, result: value.result ?? null, changes };
}

/** One task's run of a domain: its own copy of the database and the tools over it. */
export class DomainSession {
  db: Database;
  readonly tools: Tool[];
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly environment: DomainEnvironment,
    seed: Database,
  ) {
    this.db = copyDatabase(seed);
    this.tools = environment.domain.tools.map((spec) => ({
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      run: (args, { signal }) => this.call(spec.name, args, signal),
    }));
  }

  /** Runs one tool call after every call before it, so concurrent calls of a turn apply in order. */
  call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutput> {
    const result = this.#queue.then(() => this.#run(tool, args, signal));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #run(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutput> {
    const { domain } = this.environment;
    const detail: DomainToolDetail = { kind: 'domain', domain: domain.name, tool, changes: [] };
    const fail = (error: string): ToolOutput => ({ content: `Error: ${error}`, isError: true, costUsd: 0, detail: { ...detail, error } });
    const run = await this.environment.javascript.run(this.environment.program, {
      timeoutMs: DOMAIN_SANDBOX.timeoutMs,
      memoryBytes: DOMAIN_SANDBOX.memoryBytes,
      input: { tool, arguments: args as { [key: string]: JsonValue }, db: this.db, context: { today: domain.today } },
      ...(signal ? { signal } : {}),
    });
    if (run.aborted) return fail('the call was stopped');
    if (run.timedOut) return fail(`${tool} ran longer than ${DOMAIN_SANDBOX.timeoutMs / 1000} s and was stopped`);
    if (run.error !== null) return fail(`${tool} could not run: ${run.error}`);
    const reply = readReply(run.value);
    if ('invalid' in reply) return fail(`${tool} could not run: ${reply.invalid}`);
    if (!reply.ok) return fail(reply.error);
    detail.result = reply.result;
    detail.changes = this.#apply(reply.changes);
    return {
      content: typeof reply.result === 'string' ? reply.result : JSON.stringify(reply.result),
      costUsd: 0,
      detail,
    };
  }

  #apply(changes: Change[]): RowChange[] {
    const applied: RowChange[] = [];
    changes.sort((a, b) => (a.table === b.table ? (a.id < b.id ? -1 : 1) : a.table < b.table ? -1 : 1));
    for (const { table, id, row } of changes) {
      const rows = Object.hasOwn(this.db, table) ? this.db[table] : undefined;
      const before = rows && Object.hasOwn(rows, id) ? (rows[id] ?? null) : null;
      if (row === null) {
        if (rows && before !== null) delete rows[id];
      } else {
        const target = rows ?? (this.db[table] = {});
        target[id] = row;
      }
      if (before === null && row === null) continue;
      applied.push({
        table,
        id,
        op: before === null ? 'insert' : row === null ? 'delete' : 'update',
        before,
        after: row,
        fields: changedFields(before, row),
      });
    }
    return applied;
  }
}

/** A domain loaded for an evaluation: its sandboxed program, and the golden state of each task,
 * worked out once. */
export class DomainEnvironment {
  /** tools.js between the determinism guard and the dispatcher. */
  readonly program: string;
  #golden = new Map<string, Promise<GoldenState>>();

  constructor(
    readonly domain: Domain,
    readonly javascript: JavaScriptRunner,
  ) {
    this.program = `${DETERMINISM_GUARD}\n${domain.toolsSource}\n${DISPATCH}`;
  }

  /** Problems that keep the domain's tools from running: tools.js does not load, or a listed tool
   * is no function in it. Empty when all is well. */
  async verify(): Promise<string[]> {
    const run = await this.javascript.run(`${DETERMINISM_GUARD}\n${this.domain.toolsSource}\n${VERIFY}`, {
      timeoutMs: DOMAIN_SANDBOX.timeoutMs,
      memoryBytes: DOMAIN_SANDBOX.memoryBytes,
      input: { names: this.domain.tools.map((t) => t.name) },
    });
    if (run.error !== null) return [`tools.js does not run: ${run.error}`];
    if (!Array.isArray(run.value)) return ['tools.js could not be checked: the sandbox returned no result'];
    return run.value.map((name) => `tools.js defines no top-level function ${String(name)}(db, args, context) for the tool "${String(name)}"`);
  }

  newSession(): DomainSession {
    return new DomainSession(this, this.domain.seed);
  }

  /** The database a task should end with: the seed after its golden actions, or its given state. */
  goldenState(task: SuiteTask): Promise<GoldenState> {
    let golden = this.#golden.get(task.id);
    if (!golden) {
      golden = this.#computeGolden(task);
      this.#golden.set(task.id, golden);
    }
    return golden;
  }

  async #computeGolden(task: SuiteTask): Promise<GoldenState> {
    const check = task.check;
    if (check?.kind !== 'db') return { ok: false, error: `task "${task.id}" has no db check` };
    if (check.state !== undefined) {
      const problems = databaseProblems(check.state);
      return problems.length > 0
        ? { ok: false, error: `the golden state of task "${task.id}" is not a database: ${problems.join('; ')}` }
        : { ok: true, db: check.state as Database };
    }
    const session = this.newSession();
    const actions: GoldenAction[] = check.actions ?? [];
    for (const [index, action] of actions.entries()) {
      const failure = await this.#replay(session, action);
      if (failure) return { ok: false, error: `golden action ${index + 1} of task "${task.id}" (${action.name}) ${failure}: fix the task` };
    }
    return { ok: true, db: session.db };
  }

  async #replay(session: DomainSession, action: GoldenAction): Promise<string | null> {
    const spec = this.domain.tools.find((t) => t.name === action.name);
    if (!spec) return 'names no tool of the domain';
    const problems = validateArguments(action.arguments, spec.parameters);
    if (problems.length > 0) return `has invalid arguments: ${problems.join('; ')}`;
    const output = await session.call(action.name, action.arguments);
    return output.isError ? `failed: ${output.content}` : null;
  }

  /** What a db check compares: this session's database against the task's golden state. */
  comparison(task: SuiteTask, session: DomainSession): DatabaseComparison {
    return {
      compare: async () => {
        const golden = await this.goldenState(task);
        if (!golden.ok) return { error: golden.error };
        const expected = golden.db;
        const rows: RowMismatch[] = compareDatabases(session.db, expected);
        return rows.length === 0 ? { equal: true, changedRows: countChangedRows(this.domain.seed, expected) } : { equal: false, rows };
      },
    };
  }
}
