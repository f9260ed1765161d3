// A τ²-Bench suite in the Evaluate tab: τ²-retail's first three tasks, two rollouts each, run in
// the page's worker against the scripted server (the agent replays golden calls, leaves a write
// out once and forgets what to say once); then τ²-telecom (the user acts on their phone) and a
// ToolScale domain, their first two tasks. pass^1…pass^k and each criterion's share must equal
// what `orchestra eval` computes for the same suite, configuration and conversations (run here
// first, against the same server); a rollout's trace shows the user's turns as cards of their
// own, in order with the agent's steps, with their tokens and cost, its calls with the rows they
// changed, and the Cost panel keeps the simulated user's cost apart from the agent's.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ScriptedServer } from '../cli/scripted/scriptedServer.ts';
import { formatPercent, formatUsd } from '../workers/engine/format.ts';
import { openingLine } from '../workers/domains/tau2/scripted.ts';
import type { EvalSummary, PolicySummary } from '../workers/eval/results.ts';
import { makeTempDir, runCli } from './fixtures/cliHarness.ts';
import { readTau2Domain } from '../cli/nodeTau2.ts';
import type { Tau2DomainName } from '../workers/domains/tau2/domains.ts';
import { retailTask, tau2Config, tau2Scenario, TAU2_USER, TAU2_USER_ALIAS, type AgentPlan } from './fixtures/tau2Eval.ts';
import { expect, test } from './support/playground.ts';

// The CLI's run and the page's, each through τ²-retail's 1.2 MB database, on a loaded two-core box.
test.describe.configure({ timeout: 180_000 });

/** Rollout after rollout, the suite's first three tasks in order: the second rollout of task 1
 * leaves its last write out (DB and ACTION fail), that of task 2 never says "10" (COMMUNICATE). */
const PLAN: AgentPlan[] = [{ id: '0' }, { id: '1' }, { id: '2' }, { id: '0' }, { id: '1', skipLastCall: true }, { id: '2', wrongEnding: true }];

/** What `orchestra eval` reports for the suite's first `limit` tasks (its --report), the scripted
 * server reset to `plan` before and after, so the page's run is served the same conversations. */
interface EvalOptions {
  user: string;
  limit: number;
  rollouts: number;
  /** The suite's domain (retail when absent). */
  domain?: Tau2DomainName;
}

const suiteOf = (domain: Tau2DomainName = 'retail') => (domain === 'retail' || domain === 'telecom' ? `tau2-${domain}` : `toolscale-${domain}`);

async function cliReport(server: ScriptedServer, plan: readonly AgentPlan[], options: EvalOptions & { userModel: boolean }): Promise<PolicySummary> {
  const scenario = () => tau2Scenario(plan, options.userModel, options.domain);
  server.reset(scenario());
  const dir = makeTempDir();
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify(tau2Config(server.url)));
  const report = join(dir, 'report.json');
  const result = await runCli([
    ...['eval', '--config', config, '--suite', `builtin:${suiteOf(options.domain)}`, '--user', options.user, '--policy', 'orchestrator'],
    ...['--rollouts', String(options.rollouts), '--concurrency', '1', '--limit', String(options.limit), '--out', join(dir, 'out.jsonl'), '--report', report],
  ]);
  expect(result.code, result.stderr).toBe(0);
  server.reset(scenario());
  const summary = JSON.parse(readFileSync(report, 'utf8')) as EvalSummary;
  const policy = summary.policies[0];
  if (!policy?.criteria || !policy.passHatK) throw new Error(`the CLI reported no τ² figures: ${result.stdout}`);
  return policy;
}

/** Runs the suite (builtin:tau2-retail unless told) in the Evaluate tab: the orchestrator alone,
 * one rollout at a time. */
async function runInTab(page: Page, options: EvalOptions): Promise<Locator> {
  await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'Evaluate' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Evaluate' });
  const suite = suiteOf(options.domain);
  const tasks = readTau2Domain(options.domain ?? 'retail').tasks.length;
  await panel.getByRole('combobox', { name: 'Suite' }).selectOption(suite);
  await expect(panel.getByLabel('Suite contents')).toContainText(`${tasks} tasks · checks: τ² criteria ${tasks} · domain: ${suite}`, { timeout: 30_000 });
  await panel.getByRole('combobox', { name: 'Simulated user' }).selectOption(options.user);
  await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
  await panel.getByRole('spinbutton', { name: 'Rollouts per task' }).fill(String(options.rollouts));
  await panel.getByRole('spinbutton', { name: 'Concurrency' }).fill('1');
  await panel.getByRole('textbox', { name: 'Tasks (first N)' }).fill(String(options.limit));
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  const rollouts = options.limit * options.rollouts;
  await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText(`Done: ${rollouts} rollouts run.`, { timeout: 120_000 });
  return page.getByRole('region', { name: 'Evaluation results' });
}

/** The tab's τ² figures equal the CLI's: pass^1…pass^k to the digit shown, each criterion's
 * passed and graded rollouts, the simulated users' cost. */
async function expectSameFigures(results: Locator, cli: PolicySummary): Promise<void> {
  const table = results.getByRole('table', { name: 'τ² figures per policy' });
  const headers = await table.locator('thead th').allInnerTexts();
  const row = table.locator('tr[data-policy="orchestrator"]');
  const cells = await row.locator('td').allInnerTexts();
  const byHeader = new Map(headers.slice(1).map((header, i) => [header.trim(), cells[i]?.trim() ?? '']));

  expect(headers.slice(1, 1 + cli.passHatK!.length)).toEqual(cli.passHatK!.map((_, i) => `pass^${i + 1}`));
  for (const [i, value] of cli.passHatK!.entries()) expect(byHeader.get(`pass^${i + 1}`), `pass^${i + 1}`).toBe(formatPercent(value));

  const criteria = Object.entries(cli.criteria!);
  expect([...byHeader.keys()].filter((h) => !h.startsWith('pass^') && h !== 'Simulated user').sort()).toEqual(criteria.map(([name]) => name).sort());
  for (const [name, share] of criteria) {
    const cell = byHeader.get(name) ?? '';
    const graded = share.passed + share.failed;
    if (graded === 0) expect(cell, name).toBe(`not graded (${share.notGraded})`);
    else {
      const [, passed, of] = /\((\d+)\/(\d+)\)/.exec(cell) ?? [];
      expect([Number(passed), Number(of)], `${name}: ${cell}`).toEqual([share.passed, graded]);
      expect(cell.includes('not graded'), `${name}: ${cell}`).toBe(share.notGraded > 0);
    }
  }
  expect(byHeader.get('Simulated user')).toBe(cli.userCostUsd === undefined ? '—' : formatUsd(cli.userCostUsd));
  // The per-policy headline states the same pass^k (from two rollouts a task: pass^1 is the accuracy).
  const k = cli.passHatK!.length;
  if (k >= 2) await expect(results.getByRole('list', { name: 'Accuracy per policy' })).toContainText(`pass^${k} ${formatPercent(cli.passHatK![k - 1]!)}`);
}

test('τ²-retail with the scripted user: pass^k and the criteria as the CLI computes them; the conversation in the trace', async ({ playground, page, scripted }) => {
  const server = await scripted.start(tau2Scenario(PLAN));
  const cli = await cliReport(server, PLAN, { user: 'scripted', limit: 3, rollouts: 2, userModel: false });
  // Not trivial figures: one task right by luck, one criterion failing of each kind.
  expect(cli.passHatK).toEqual([expect.closeTo(2 / 3, 12), expect.closeTo(1 / 3, 12)]);
  expect(cli.criteria?.COMMUNICATE).toEqual({ passed: 5, failed: 1, notGraded: 0 });

  await playground.open();
  await playground.importConfig(tau2Config(server.url));
  const results = await runInTab(page, { user: 'scripted', limit: 3, rollouts: 2 });
  await expectSameFigures(results, cli);
  await page.screenshot({ path: test.info().outputPath('tau2-figures.png') });

  // Task 0's first rollout in the trace: the user's opening, the agent's steps, the user's goodbye.
  await results.getByText('Every rollout (6)').click();
  // Listed by task, then rollout: task 0's first rollout comes first.
  await results.getByRole('list', { name: 'Rollouts' }).getByRole('listitem').first().getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('stored-run-banner')).toBeVisible();
  const titles = (await playground.steps().getByRole('heading', { level: 3 }).allInnerTexts()).map((title) => title.replace(/\s+/g, ' ').trim());
  // The agent's golden calls, one a step, then its message; the user's cards around them.
  const golden = (retailTask('0').evaluationCriteria?.actions ?? []).length;
  expect(titles).toHaveLength(golden + 3);
  expect(titles[0]).toMatch(/^User turn 1 /);
  expect(titles.slice(1, -1).map((title) => title.split(' ').slice(0, 2).join(' '))).toEqual(Array.from({ length: golden + 1 }, (_, i) => `Step ${i + 1}`));
  expect(titles.at(-1)).toMatch(/^User turn 2 /);
  // The agent's write shows the rows it changed, as a Task-tab run's call does.
  const exchange = playground.trace.getByRole('group', { name: 'Call exchange_delivered_order_items' });
  await expect(exchange).toContainText(/Database · \d+ rows? changed/);
  await expect(exchange.getByRole('table', { name: 'orders/#W2378156' }).getByRole('row', { name: /^status/ })).toHaveText(['status', '"delivered"', '"exchange requested"'].join(''));
  await expect(playground.trace.getByRole('group', { name: 'Call get_order_details' })).toContainText('No rows changed.');
  const opening = playground.trace.getByRole('article', { name: /^User turn 1/ });
  await expect(opening).toContainText(openingLine(retailTask('0')));
  await expect(opening.getByRole('definition')).toHaveText(['—', '$0 (scripted)']);
  const goodbye = playground.trace.getByRole('article', { name: /^User turn 2/ });
  await expect(goodbye).toContainText('###STOP###');
  await expect(goodbye.locator('.status-badge')).toHaveText('###STOP###');
  await goodbye.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('tau2-trace.png') });
});

test('a model as the simulated user: its turns priced apart, as the CLI prices them', async ({ playground, page, scripted }) => {
  const plan: AgentPlan[] = [{ id: '0' }];
  const server = await scripted.start(tau2Scenario(plan, true));
  const cli = await cliReport(server, plan, { user: TAU2_USER_ALIAS, limit: 1, rollouts: 1, userModel: true });
  // Two user turns of 1,000 tokens in and 100 out at $1.25 and $10 per million.
  expect(cli.userCostUsd).toBeCloseTo(0.0045, 12);

  await playground.open();
  await playground.importConfig(tau2Config(server.url));
  const results = await runInTab(page, { user: TAU2_USER_ALIAS, limit: 1, rollouts: 1 });
  await expectSameFigures(results, cli);

  await results.getByText('Every rollout (1)').click();
  await results.getByRole('list', { name: 'Rollouts' }).getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('stored-run-banner')).toBeVisible();
  for (const name of [/^User turn 1/, /^User turn 2/]) {
    const card = playground.trace.getByRole('article', { name });
    await expect(card.getByRole('definition')).toHaveText(['1,000 in · 100 out', formatUsd(0.00225)]);
    await expect(card).toContainText(`${TAU2_USER} · not in the reward’s cost`);
  }
  // The Cost panel: the agent's cost and the simulated user's, apart.
  await expect(page.getByLabel('Agent and simulated user')).toContainText(`Simulated user${formatUsd(0.0045)}`);
});

/** Telecom (the scripted user acts on its phone when asked) and a ToolScale domain: each suite's
 * first two tasks, two rollouts each, the second round spoiled on purpose. */
const OTHER_SUITES: Array<{ domain: Tau2DomainName; plan: (ids: string[]) => AgentPlan[]; passHatK: number[] }> = [
  {
    domain: 'telecom',
    // The second round never asks the user to turn mobile data on: ENV_ASSERTION fails.
    plan: ([a, b]) => [{ id: a! }, { id: b! }, { id: a!, skipUserAction: true }, { id: b! }],
    passHatK: [3 / 4, 1 / 2],
  },
  {
    domain: 'railway',
    // The second round leaves the first task's booking out (DB) and says nothing of the second's
    // bags (COMMUNICATE).
    plan: ([a, b]) => [{ id: a! }, { id: b! }, { id: a!, skipLastCall: true }, { id: b!, wrongEnding: true }],
    passHatK: [1 / 2, 0],
  },
];

for (const { domain, plan: planFor, passHatK } of OTHER_SUITES) {
  test(`${suiteOf(domain)} with the scripted user: pass^k and the criteria as the CLI computes them`, async ({ playground, page, scripted }) => {
    const ids = readTau2Domain(domain).tasks.slice(0, 2).map((task) => task.id);
    const plan = planFor(ids);
    const server = await scripted.start(tau2Scenario(plan, false, domain));
    const options = { user: 'scripted', limit: 2, rollouts: 2, domain };
    const cli = await cliReport(server, plan, { ...options, userModel: false });
    expect(cli.passHatK).toEqual(passHatK.map((value) => expect.closeTo(value, 12)));
    // A criterion failed in the spoiled round.
    expect(Object.values(cli.criteria!).some((share) => share.failed > 0)).toBe(true);

    await playground.open();
    await playground.importConfig(tau2Config(server.url));
    const results = await runInTab(page, options);
    await expectSameFigures(results, cli);
    await page.screenshot({ path: test.info().outputPath(`${suiteOf(domain)}-figures.png`) });
  });
}
