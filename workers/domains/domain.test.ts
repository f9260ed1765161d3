// Domains as files, their tools in the real QuickJS sandbox, and the tau2-style database check.

import { describe, expect, it } from 'vitest';
import { grade } from '../eval/checks.ts';
import type { SuiteTask } from '../eval/suite.ts';
import { createNodeJavaScriptRunner } from '../../tools/javascript/nodeJavaScriptRunner.ts';
import { canonicalJson, compareDatabases } from './database.ts';
import { DomainError, parseDomain, type DomainFiles } from './domain.ts';
import { DomainEnvironment, isDomainToolDetail } from './environment.ts';
import { builtInDomainDir, loadDomainDir, readDomainFiles } from '../../cli/nodeDomains.ts';

const javascript = createNodeJavaScriptRunner();

/** A small domain of its own, so each test can change one file. */
function tinyFiles(patch: Partial<DomainFiles> = {}): DomainFiles {
  return {
    manifest: JSON.stringify({
      name: 'shop',
      title: 'A tiny shop',
      today: '2025-06-10',
      tools: [
        { name: 'get_order', description: 'Read an order.', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
        { name: 'cancel', description: 'Cancel a pending order.', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      ],
    }),
    policy: 'Cancel only pending orders.',
    db: JSON.stringify({ orders: { 'O-1': { status: 'pending', note: null }, 'O-2': { status: 'shipped', note: null } } }),
    tools: `
function get_order(db, args) { var o = db.orders[args.id]; if (!o) throw new Error('No order ' + args.id); return o; }
function cancel(db, args, context) {
  var o = db.orders[args.id];
  if (!o) throw new Error('No order ' + args.id);
  if (o.status !== 'pending') throw new Error('Order ' + args.id + ' is ' + o.status);
  o.status = 'cancelled';
  o.note = 'cancelled on ' + context.today;
  return 'cancelled';
}`,
    tasks: [
      JSON.stringify({ id: 't1', task: 'Cancel O-1.', domain: 'shop', check: { kind: 'db', actions: [{ name: 'cancel', arguments: { id: 'O-1' } }] } }),
      JSON.stringify({ id: 't2', task: 'Cancel O-2.', domain: 'shop', check: { kind: 'db', actions: [] } }),
    ].join('\n'),
    ...patch,
  };
}

const problemsOf = (files: DomainFiles): string[] => {
  try {
    parseDomain(files, 'shop');
  } catch (error) {
    if (error instanceof DomainError) return error.problems;
    throw error;
  }
  throw new Error('expected a DomainError');
};

describe('the built-in domains', () => {
  it.each(['retail', 'clinic'] as const)('%s: files that parse, 20+ tasks, tools that load', async (name) => {
    const domain = loadDomainDir(builtInDomainDir(name));
    expect(domain.tasks.length).toBeGreaterThanOrEqual(20);
    expect(domain.policy).toContain('Today is');
    const environment = new DomainEnvironment(domain, javascript);
    expect(await environment.verify()).toEqual([]);
  });
});

describe('parseDomain', () => {
  it('names every problem and its file', () => {
    const problems = problemsOf(
      tinyFiles({
        manifest: JSON.stringify({ name: 'Shop!', title: 'x', today: 'June', tools: [{ name: 'get-order', description: '', parameters: { type: 'array' } }] }),
        db: JSON.stringify({ orders: { 'O-1': 'not a row' }, __proto__x: [] }),
        policy: '  ',
        tasks: '{"id": "t", "task": "x", "domain": "shop", "check": {"kind": "db", "actions": [{"name": "nuke", "arguments": {}}]}}',
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^domain\.json: name: must be lower-case/),
        expect.stringMatching(/^domain\.json: today: must be a date/),
        expect.stringMatching(/^domain\.json: tools\.0\.name: must be a JavaScript function name/),
        expect.stringMatching(/^domain\.json: tools\.0\.description: must say what the tool does/),
        expect.stringMatching(/^domain\.json: tools\.0\.parameters\.type: .*must be "object"/),
        'db.json: table "orders", row "O-1": must be an object',
        'db.json: table "__proto__x" must be an object of rows by id',
        "policy.md is empty: the policy is the agent's system prompt",
      ]),
    );
  });

  it('checks each task\'s domain and golden actions against the domain', () => {
    const problems = problemsOf(
      tinyFiles({
        tasks: [
          '{"id": "a", "task": "x", "domain": "other", "check": {"kind": "db", "actions": []}}',
          '{"id": "b", "task": "x", "domain": "shop", "check": {"kind": "db", "actions": [{"name": "nuke", "arguments": {}}]}}',
        ].join('\n'),
      }),
    );
    expect(problems).toEqual([
      'tasks.jsonl: line 1: "domain" must be "shop", got "other"',
      'tasks.jsonl: line 2: golden action 1 calls "nuke", which is not a tool of the domain',
    ]);
  });

  it('caps its files', () => {
    expect(problemsOf(tinyFiles({ db: 'x'.repeat(1_000_001) }))).toEqual(['db.json is 1,000,001 characters long; at most 1,000,000']);
  });

  it('reads a folder and says which file is missing', () => {
    expect(() => readDomainFiles('/nonexistent-domain')).toThrow(/domain\.json cannot be read: it does not exist/);
  });
});

describe('a domain session', () => {
  const environment = () => new DomainEnvironment(parseDomain(tinyFiles(), 'shop'), javascript);

  it('reports the rows a write touched in the result detail, and nothing for a read', async () => {
    const session = environment().newSession();
    const read = await session.call('get_order', { id: 'O-1' });
    expect(read).toMatchObject({ content: '{"status":"pending","note":null}', costUsd: 0 });
    expect(read.detail).toEqual({ kind: 'domain', domain: 'shop', tool: 'get_order', changes: [], result: { status: 'pending', note: null } });

    const write = await session.call('cancel', { id: 'O-1' });
    expect(write.content).toBe('cancelled');
    expect(isDomainToolDetail(write.detail)).toBe(true);
    expect(write.detail).toEqual({
      kind: 'domain',
      domain: 'shop',
      tool: 'cancel',
      result: 'cancelled',
      changes: [
        {
          table: 'orders',
          id: 'O-1',
          op: 'update',
          before: { status: 'pending', note: null },
          after: { status: 'cancelled', note: 'cancelled on 2025-06-10' },
          fields: ['note', 'status'],
        },
      ],
    });
    expect(session.db.orders?.['O-1']?.status).toBe('cancelled');
  });

  it('leaves the database as it was when a tool refuses, and tells the agent why', async () => {
    const session = environment().newSession();
    const before = canonicalJson(session.db);
    const refused = await session.call('cancel', { id: 'O-2' });
    expect(refused).toMatchObject({ content: 'Error: Order O-2 is shipped', isError: true });
    expect(refused.detail).toMatchObject({ changes: [], error: 'Order O-2 is shipped' });
    expect(canonicalJson(session.db)).toBe(before);
  });

  it('gives each task its own copy of the seed', async () => {
    const env = environment();
    const first = env.newSession();
    await first.call('cancel', { id: 'O-1' });
    expect(env.newSession().db.orders?.['O-1']?.status).toBe('pending');
    expect(env.domain.seed.orders?.['O-1']?.status).toBe('pending');
  });

  it('applies the calls of one turn in the order they were made', async () => {
    const session = environment().newSession();
    const [first, second] = await Promise.all([session.call('cancel', { id: 'O-1' }), session.call('cancel', { id: 'O-1' })]);
    expect(first?.isError).toBeUndefined();
    expect(second).toMatchObject({ isError: true, content: 'Error: Order O-1 is cancelled' });
  });

  it('keeps tools deterministic: no clock, no randomness', async () => {
    const env = new DomainEnvironment(
      parseDomain(tinyFiles({ tools: `${tinyFiles().tools}\nfunction get_order(db, args) { return Math.random(); }` }), 'shop'),
      javascript,
    );
    const random = await env.newSession().call('get_order', { id: 'O-1' });
    expect(random).toMatchObject({ isError: true, content: expect.stringContaining('Math.random is not available') });
    const clock = new DomainEnvironment(parseDomain(tinyFiles({ tools: `${tinyFiles().tools}\nfunction get_order() { return new Date().getTime(); }` }), 'shop'), javascript);
    expect(await clock.newSession().call('get_order', { id: 'O-1' })).toMatchObject({ isError: true, content: expect.stringContaining('the clock is not available') });
    const dated = new DomainEnvironment(parseDomain(tinyFiles({ tools: `${tinyFiles().tools}\nfunction get_order() { return new Date('2025-06-12T00:00:00Z').getUTCDay(); }` }), 'shop'), javascript);
    expect((await dated.newSession().call('get_order', { id: 'O-1' })).content).toBe('4');
  });

  it('refuses what a hostile tool reports: a row id that reaches a prototype, a table that is no table', async () => {
    const hostile = (body: string) =>
      new DomainEnvironment(parseDomain(tinyFiles({ tools: `${tinyFiles().tools}\nfunction cancel(db, args) { ${body} }` }), 'shop'), javascript).newSession();
    const proto = hostile("Object.defineProperty(db.orders, '__proto__', { value: { status: 'x' }, enumerable: true }); return 'ok';");
    expect(await proto.call('cancel', { id: 'O-1' })).toMatchObject({ isError: true, content: expect.stringContaining('cannot be used') });
    expect(Object.getPrototypeOf(proto.db.orders)).toBe(Object.prototype);
    const table = hostile("db.orders = 'gone'; return 'ok';");
    expect(await table.call('cancel', { id: 'O-1' })).toMatchObject({ isError: true, content: expect.stringContaining('something other than an object of rows') });
    expect(table.db.orders?.['O-1']?.status).toBe('pending');
    const slow = hostile('while (true) {}');
    expect(await slow.call('cancel', { id: 'O-1' })).toMatchObject({ isError: true, content: 'Error: cancel ran longer than 2 s and was stopped' });
  });

  it('finds a function missing from tools.js, or a tools.js that does not run', async () => {
    const missing = new DomainEnvironment(parseDomain(tinyFiles({ tools: 'function get_order(db, args) { return 1; }' }), 'shop'), javascript);
    expect(await missing.verify()).toEqual(['tools.js defines no top-level function cancel(db, args, context) for the tool "cancel"']);
    const broken = new DomainEnvironment(parseDomain(tinyFiles({ tools: 'function (' }), 'shop'), javascript);
    expect((await broken.verify())[0]).toMatch(/^tools\.js does not run: .*SyntaxError/);
  });
});

describe('the db check (tau2-bench: the database after the run equals the golden one)', () => {
  const env = new DomainEnvironment(parseDomain(tinyFiles(), 'shop'), javascript);
  const [cancelTask, refuseTask] = env.domain.tasks as [SuiteTask, SuiteTask];

  it('is solved when the run did what the golden actions do, and says how much changed', async () => {
    const session = env.newSession();
    await session.call('get_order', { id: 'O-1' });
    await session.call('cancel', { id: 'O-1' });
    expect(await grade(cancelTask.check!, { task: cancelTask.task, answer: 'Done.', database: env.comparison(cancelTask, session) })).toEqual({
      check: 'db',
      correct: true,
      reason: 'the database equals the golden state (1 row changed as in the golden run)',
    });
    const untouched = env.newSession();
    expect(await grade(refuseTask.check!, { task: refuseTask.task, answer: 'I cannot.', database: env.comparison(refuseTask, untouched) })).toMatchObject({
      correct: true,
      reason: 'the database equals the golden state (no row changed, as the golden run leaves it)',
    });
  });

  it('is not solved after a wrong write, and names the row and the field', async () => {
    const session = env.newSession();
    await session.call('cancel', { id: 'O-1' });
    const verdict = await grade(refuseTask.check!, { task: refuseTask.task, answer: 'Done.', database: env.comparison(refuseTask, session) });
    expect(verdict).toMatchObject({
      check: 'db',
      correct: false,
      reason: 'the database differs from the golden state in 1 row: orders/O-1: note is "cancelled on 2025-06-10", expected null, status is "cancelled", expected "pending"',
    });
    expect(verdict.rows).toEqual([
      { table: 'orders', id: 'O-1', actual: { status: 'cancelled', note: 'cancelled on 2025-06-10' }, expected: { status: 'pending', note: null }, fields: ['note', 'status'] },
    ]);
  });

  it('compares as tau2 does: key order does not matter, everything else does', () => {
    expect(compareDatabases({ t: { a: { x: 1, y: [1, 2] } } }, { t: { a: { y: [1, 2], x: 1 } } })).toEqual([]);
    expect(compareDatabases({ t: { a: { y: [2, 1] } } }, { t: { a: { y: [1, 2] } } })).toHaveLength(1);
    expect(compareDatabases({ t: {} }, { t: { a: { x: 1 } } })).toEqual([{ table: 't', id: 'a', actual: null, expected: { x: 1 }, fields: [] }]);
  });

  it('fails, saying which, when a golden action does not run', async () => {
    const broken = new DomainEnvironment(
      parseDomain(tinyFiles({ tasks: '{"id": "t", "task": "x", "domain": "shop", "check": {"kind": "db", "actions": [{"name": "cancel", "arguments": {"id": "O-2"}}]}}' }), 'shop'),
      javascript,
    );
    const task = broken.domain.tasks[0]!;
    const verdict = await grade(task.check!, { task: task.task, answer: null, database: broken.comparison(task, broken.newSession()) });
    expect(verdict).toMatchObject({
      correct: false,
      failed: true,
      reason: 'golden action 1 of task "t" (cancel) failed: Error: Order O-2 is shipped: fix the task',
    });
  });
});
