// The domains end to end: an orchestrator scripted on the real HTTP server plays each task's
// golden actions through the function-calling protocol, the domain's tools run in QuickJS, and the
// database check grades what is left. Every task of both built-in domains must be solvable this
// way; one wrong write must not be, and the verdict must name the row.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import { actionsOf, playActions } from '../e2e/fixtures/evalScenario.ts';
import { DomainEnvironment, type DomainToolDetail } from '../workers/domains/environment.ts';
import { BUILT_IN_DOMAINS, builtInDomainDir, loadDomainDir } from './nodeDomains.ts';
import { parseConfig } from '../workers/hosts/config.ts';
import { createPolicies, parsePolicy } from '../workers/eval/policies.ts';
import { summarizeEval, type EvalSummary, type RolloutRecord } from '../workers/eval/results.ts';
import { runEvaluation } from '../workers/eval/runner.ts';
import type { SuiteTask } from '../workers/eval/suite.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { createNodeEnvironment, type NodeRunEnvironment } from './nodeEnvironment.ts';
import { jsonLines, loadExample, makeTempDir, ORCHESTRATOR_MODEL, requestsFor, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';
import { runFactory } from '../workers/hosts/prepareRun.ts';

let server: ScriptedServer;
let node: NodeRunEnvironment;
const dir = makeTempDir();

beforeAll(async () => {
  server = await startScriptedServer({ scenario: { models: {} } });
  node = await createNodeEnvironment({});
});
afterAll(async () => {
  await server.close();
  await node.dispose();
});

function configFor() {
  const config = loadExample('function-calling-scripted.json');
  for (const provider of Object.values(config.providers)) provider.baseUrl = `${server.url}/v1`;
  return parseConfig(config);
}

async function evaluate(domainName: string, tasks: SuiteTask[], policy = 'orchestrator') {
  const environment = new DomainEnvironment(loadDomainDir(builtInDomainDir(domainName as (typeof BUILT_IN_DOMAINS)[number])), node.environment.javascript!);
  const domains = new Map([[domainName, environment]]);
  const policies = createPolicies([parsePolicy(policy)], { config: configFor(), runs: runFactory(node.environment), domains, seed: '0' });
  const records: RolloutRecord[] = [];
  const events: RunEvent[] = [];
  const outcome = await runEvaluation({
    tasks,
    policies,
    rollouts: 1,
    // One at a time: the scripted turns are consumed in order, task after task.
    concurrency: 1,
    budgetUsd: null,
    grading: { javascript: node.environment.javascript!, domains },
    previous: [],
    signal: new AbortController().signal,
    onRecord: (record) => records.push(record),
    onRunEvent: (_key, event) => events.push(event),
  });
  const summary: EvalSummary = summarizeEval({
    taskIds: tasks.map((t) => t.id),
    policies: policies.map(({ name, label, model, preference }) => ({ name, label, model, preference })),
    rollouts: 1,
    records: outcome.records,
  });
  return { records, events, summary };
}

describe.each(BUILT_IN_DOMAINS)('the %s domain', (name) => {
  const domain = loadDomainDir(builtInDomainDir(name));

  it(`solves every task when the orchestrator makes exactly the golden calls (${domain.tasks.length} tasks)`, async () => {
    server.reset({ models: { [ORCHESTRATOR_MODEL]: domain.tasks.flatMap((task) => playActions(actionsOf(task))) } });
    const { records, summary } = await evaluate(name, domain.tasks);
    const unsolved = records.filter((r) => !r.correct).map((r) => `${r.taskId}: ${r.verdict.reason}`);
    expect(unsolved).toEqual([]);
    expect(records).toHaveLength(domain.tasks.length);
    expect(summary.policies[0]).toMatchObject({ accuracy: 1, rollouts: domain.tasks.length, abnormalStops: 0 });
    for (const record of records) {
      expect(record.stopReason).toBe('final_message');
      expect(record.verdict.check).toBe('db');
      expect(record.verdict.reason).toMatch(/^the database equals the golden state/);
      // Domain tools are features of their own (they carry no alias).
      expect(Object.values(record.toolFeatures).reduce((a, b) => a + b, 0)).toBe(actionsOf(domain.tasks.find((t) => t.id === record.taskId)!).length);
    }
    // The orchestrator read the domain's policy as its system prompt, and was offered the domain's tools.
    const first = requestsFor(server.requests, ORCHESTRATOR_MODEL)[0]!;
    expect(first.body.messages[0]?.content).toContain(domain.policy.split('\n')[0]!);
    for (const tool of domain.tools) expect(first.body.messages[0]?.content).toContain(`"name": "${tool.name}"`);
  }, 180_000);
});

describe('a wrong write', () => {
  const retail = loadDomainDir(builtInDomainDir('retail'));
  const task = (suffix: string) => retail.tasks.find((t) => t.id.endsWith(suffix))!;

  it('is not solved, and the verdict names the row and the field', async () => {
    const mistaken = task('cancel-by-mistake');
    // The customer ordered by mistake; the agent records the other reason.
    server.reset({ models: { [ORCHESTRATOR_MODEL]: playActions([{ name: 'cancel_order', arguments: { order_id: 'O-5001', reason: 'no_longer_needed' } }]) } });
    const { records, events } = await evaluate('retail', [mistaken]);
    expect(records[0]).toMatchObject({ correct: false, verdict: { check: 'db', correct: false } });
    expect(records[0]?.verdict.reason).toBe(
      'the database differs from the golden state in 1 row: orders/O-5001: cancel_reason is "no_longer_needed", expected "ordered_by_mistake"',
    );
    expect(records[0]?.verdict.rows?.map((r) => `${r.table}/${r.id}`)).toEqual(['orders/O-5001']);

    // The write's tool_result carries the rows it touched, typed, for the trace.
    const result = events.find((e): e is Extract<RunEvent, { type: 'tool_result' }> => e.type === 'tool_result' && e.name === 'cancel_order')!;
    const detail = result.detail as DomainToolDetail;
    expect(detail).toMatchObject({ kind: 'domain', domain: 'retail', tool: 'cancel_order', result: { order_id: 'O-5001', status: 'cancelled' } });
    expect(detail.changes.map((c) => `${c.op} ${c.table}/${c.id} [${c.fields.join(', ')}]`)).toEqual([
      'update orders/O-5001 [cancel_reason, status]',
      'update products/P-212 [stock]',
      'update products/P-231 [stock]',
    ]);
    expect(detail.changes[1]).toMatchObject({ before: { stock: 4 }, after: { stock: 5 } });
  }, 60_000);

  it('is not solved when the policy said to change nothing', async () => {
    const refuse = task('someone-elses-order');
    server.reset({ models: { [ORCHESTRATOR_MODEL]: playActions([{ name: 'cancel_order', arguments: { order_id: 'O-5001', reason: 'ordered_by_mistake' } }]) } });
    const { records } = await evaluate('retail', [refuse]);
    expect(records[0]?.correct).toBe(false);
    expect(records[0]?.verdict.reason).toMatch(/^the database differs from the golden state in 3 rows: orders\/O-5001: cancel_reason is "ordered_by_mistake", expected null, status is "cancelled", expected "pending"; products\/P-212: stock is 5, expected 4/);
  }, 60_000);
});

describe('the strongest expert alone in a domain', () => {
  it('acts as the agent itself over the domain tools, with no orchestrator and no experts', async () => {
    const clinic = loadDomainDir(builtInDomainDir('clinic'));
    const task = clinic.tasks.find((t) => t.id.endsWith('update-phone'))!;
    const [action] = actionsOf(task);
    server.reset({
      models: {
        'scripted/answerer': [
          { content: '', toolCalls: [{ name: action!.name, arguments: action!.arguments }], usage: { prompt_tokens: 700, completion_tokens: 20 } },
          { content: 'Your phone number is updated.', usage: { prompt_tokens: 750, completion_tokens: 9 } },
        ],
      },
    });
    const { records } = await evaluate('clinic', [task], 'strongest');
    expect(records[0]).toMatchObject({ correct: true, stopReason: 'final_message', answer: 'Your phone number is updated.', modelCalls: { 'scripted/answerer': 2 } });
    const [request] = requestsFor(server.requests, 'scripted/answerer');
    expect(request?.body.tools?.map((t) => t.function.name)).toEqual(clinic.tools.map((t) => t.name));
    expect(requestsFor(server.requests, ORCHESTRATOR_MODEL)).toHaveLength(0);
  }, 60_000);
});

describe('orchestra eval with a domain of your own', () => {
  it('loads the folder given with --domain and grades its tasks', async () => {
    const shop = join(dir, 'shop');
    mkdirSync(shop, { recursive: true });
    writeFileSync(
      join(shop, 'domain.json'),
      JSON.stringify({
        name: 'shop',
        title: 'A corner shop',
        today: '2025-06-10',
        tools: [{ name: 'mark_paid', description: 'Mark an invoice paid.', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } }],
      }),
    );
    writeFileSync(join(shop, 'policy.md'), 'Mark invoices paid when asked.');
    writeFileSync(join(shop, 'db.json'), JSON.stringify({ invoices: { 'INV-1': { paid: false }, 'INV-2': { paid: false } } }));
    writeFileSync(join(shop, 'tools.js'), "function mark_paid(db, args) { if (!db.invoices[args.id]) throw new Error('No invoice ' + args.id); db.invoices[args.id].paid = true; return 'paid'; }\n");
    const tasks = [
      { id: 'pay-1', task: 'Invoice INV-1 is paid.', domain: 'shop', check: { kind: 'db', actions: [{ name: 'mark_paid', arguments: { id: 'INV-1' } }] } },
      { id: 'pay-2', task: 'Invoice INV-2 is paid.', domain: 'shop', check: { kind: 'db', actions: [{ name: 'mark_paid', arguments: { id: 'INV-2' } }] } },
    ];
    writeFileSync(join(shop, 'tasks.jsonl'), tasks.map((t) => JSON.stringify(t)).join('\n'));
    server.reset({
      models: {
        [ORCHESTRATOR_MODEL]: [
          ...playActions([{ name: 'mark_paid', arguments: { id: 'INV-1' } }]),
          // The second task: the wrong invoice.
          ...playActions([{ name: 'mark_paid', arguments: { id: 'INV-1' } }]),
        ],
      },
    });
    const { path } = writeConfig(dir, 'function-calling-scripted.json', server.url);
    const result = await runCli(['eval', '--config', path, '--suite', join(shop, 'tasks.jsonl'), '--domain', shop, '--out', join(dir, 'shop.jsonl'), '--concurrency', '1', '--json']);
    expect(result.code).toBe(0);
    const summary = jsonLines<EvalSummary>(result.stdout).at(-1)!;
    expect(summary.policies[0]).toMatchObject({ rollouts: 2, correct: 1, toolShares: { mark_paid: 1 } });
    expect(result.stderr).toContain('✗ orchestrator · pay-2 #1');
    const wrong = jsonLines<RolloutRecord>(readFileSync(join(dir, 'shop.jsonl'), 'utf8')).find((r) => r.taskId === 'pay-2');
    expect(wrong?.verdict.reason).toBe('the database differs from the golden state in 2 rows: invoices/INV-1: paid is true, expected false; invoices/INV-2: paid is false, expected true');

    // A suite naming a domain nobody loaded is refused up front.
    const refused = await runCli(['eval', '--config', path, '--suite', join(shop, 'tasks.jsonl'), '--out', join(dir, 'shop-2.jsonl')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('The suite has tasks of the domain "shop", which is not built in (retail, clinic): pass its folder with --domain <dir>.');
  }, 60_000);
});
