// Files people share, opened in the page (docs/security.md, "Files you open"): run files, results
// files and suites built to hurt it. Each is read off the page's thread under caps on its size,
// its nesting and every list the page later loops over; one over a cap gets a clear message at
// once; one inside the caps opens without a main-thread stall over 200 ms of CPU; an import never
// replaces a run already kept. Every file carries markup aimed at the sink.

import { readFile, writeFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { syntheticRun } from '../fixtures/syntheticRun.ts';
import { openSideTab } from '../support/playground.ts';
import { forgetStalls } from './support.ts';
import { expect, test } from './fixtures.ts';
import { bait, deepRunFile, longNamedPoliciesFile, longRunFile, longTaskRunFile, manyRunsFile, resultsFile, runFileText, suiteFile, tau2ResultsFile } from './hostileFiles.ts';

/** The target for a file inside the caps (issue 21): no stall of the page's own over 200 ms. */
const FILE_STALL_MS = 200;

// Files of tens of megabytes written, read, stored and opened on a loaded two-core machine.
test.describe.configure({ timeout: 180_000 });

async function historyPanel(page: Page): Promise<{ panel: Locator; rows: Locator; notice: Locator }> {
  const panel = await openSideTab(page, 'History');
  return { panel, rows: panel.getByRole('list', { name: 'Stored runs' }).getByRole('article'), notice: panel.getByRole('status').or(panel.getByRole('alert')) };
}

/** Writes `text` to a file of the test's own and hands the page its path (a path: the page does
 * not copy the bytes through the protocol, as a buffer would). */
async function fileOf(name: string, text: string): Promise<string> {
  const path = test.info().outputPath(name);
  await writeFile(path, text);
  return path;
}

test.describe('run files', () => {
  test('a run whose id is already kept is imported as a copy, never over it; the same run again is recognised', async ({ page, playground, sink }) => {
    await page.goto('/');
    const { panel, rows } = await historyPanel(page);
    const input = panel.getByTestId('history-import-input');
    const mine = syntheticRun('shared-id', 1, 3);
    await input.setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(runFileText([{ id: 'shared-id', events: mine }])) });
    await expect(panel.getByRole('status')).toContainText('Imported 1 run from "mine.json".');
    await expect(rows).toHaveCount(1);

    // A forged file: the same id, another task and answer.
    const forged = mine.map((event) =>
      event.type === 'run_started' ? { ...event, task: `Forged ${bait(sink.url, 'forged')}` } : event.type === 'run_finished' ? { ...event, answer: 'forged answer' } : event,
    );
    await input.setInputFiles({ name: 'forged.json', mimeType: 'application/json', buffer: Buffer.from(runFileText([{ id: 'shared-id', events: forged }])) });
    await expect(panel.getByRole('status')).toContainText('Imported 1 run from "forged.json", as a copy: a run with its id is already in your history');
    await expect(rows).toHaveCount(2);
    // The run kept first is as it was.
    const original = rows.filter({ hasText: 'Question 1' });
    await expect(original).toHaveCount(1);
    await original.getByRole('button', { name: 'Open' }).click();
    await expect(playground.trace).toContainText('558,457');
    await expect(playground.trace).not.toContainText('forged answer');

    // The first file again: recognised, nothing added.
    await input.setInputFiles({ name: 'mine-again.json', mimeType: 'application/json', buffer: Buffer.from(runFileText([{ id: 'shared-id', events: mine }])) });
    await expect(panel.getByRole('status')).toContainText('is already in your history');
    await expect(rows).toHaveCount(2);
  });

  test.describe(() => {
    test.use({ maxStallMs: FILE_STALL_MS });

    test('a run of 199,999 events imports, opens with its first steps at once and the rest as they are read, and replays, never stalling the page', async ({ page, playground, sink }) => {
      const path = await fileOf('long-run.json', longRunFile(sink.url));
      await page.goto('/');
      const { panel, rows } = await historyPanel(page);
      await forgetStalls(page);
      await panel.getByTestId('history-import-input').setInputFiles(path);
      await expect(panel.getByRole('status')).toContainText('Imported 1 run', { timeout: 90_000 });
      await expect(rows.first()).toContainText(/99,?999 steps/);

      const opened = Date.now();
      await rows.first().getByRole('button', { name: 'Open' }).click();
      await expect(playground.steps().first()).toBeVisible();
      // The first steps are on screen within seconds; the trace then counts up to the whole run.
      expect(Date.now() - opened).toBeLessThan(10_000);
      await expect(playground.trace).toContainText(/99,?999 steps/, { timeout: 90_000 });

      await rows.first().getByRole('button', { name: 'Replay' }).click();
      await page.getByTestId('stored-run-banner').getByRole('combobox', { name: 'Speed' }).selectOption('instant');
      await expect(playground.trace).toContainText(/99,?999 steps/, { timeout: 90_000 });
      await expect(playground.steps().first()).toBeVisible();

      // And out again, whole.
      const download = page.waitForEvent('download', { timeout: 90_000 });
      await rows.first().getByRole('button', { name: 'Export' }).click();
      const exported = JSON.parse(await readFile(await (await download).path(), 'utf8')) as { runs: Array<{ events: unknown[] }> };
      expect(exported.runs[0]?.events).toHaveLength(199_999);
    });
  });

  // Issue 31, item 9: a task of 30,000,000 characters went unclipped into the row's heading,
  // title, aria-label and checkbox label (4.6 s on import, 2.9 s on every later visit).
  test.describe(() => {
    test.use({ maxStallMs: FILE_STALL_MS });

    test('a run whose task is 30,000,000 characters is refused by name; one at the cap is drawn a line long in its row, its labels too', async ({ page, sink }) => {
      await page.goto('/');
      const { panel, rows, notice } = await historyPanel(page);
      await forgetStalls(page);
      const input = panel.getByTestId('history-import-input');
      await input.setInputFiles(await fileOf('huge-task.json', longTaskRunFile(sink.url, 30_000_000)));
      await expect(panel.getByRole('alert')).toContainText('"huge-task.json" was not imported', { timeout: 90_000 });
      await expect(panel.getByRole('alert')).toContainText("runs[0].events[0].task: is longer than a run's task may be (50,000 characters)");
      await expect(rows).toHaveCount(0);

      await input.setInputFiles(await fileOf('long-task.json', longTaskRunFile(sink.url, 50_000)));
      await expect(notice).toContainText('Imported 1 run from "long-task.json".', { timeout: 60_000 });
      const row = rows.first();
      const heading = row.getByRole('heading');
      const text = await heading.innerText();
      expect(text.startsWith('A long task <img')).toBe(true);
      expect(text.length).toBeLessThanOrEqual(200);
      expect((await row.getAttribute('aria-label'))!.length).toBeLessThanOrEqual(200);
      expect((await heading.getAttribute('title'))!.length).toBeLessThanOrEqual(1_000);
      expect((await row.getByRole('checkbox').getAttribute('aria-label'))!.length).toBeLessThanOrEqual(210);
      await expect(heading).toBeInViewport();
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.screenshot({ path: test.info().outputPath('long-task-1280.png') });
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.screenshot({ path: test.info().outputPath('long-task-1920.png') });
      // And on the next visit.
      await page.reload();
      await forgetStalls(page);
      const again = await historyPanel(page);
      await expect(again.rows.first().getByRole('heading')).toHaveText(text);
    });

    // Issue 31, item 9: 10,000 small runs were merged into the list one by one (a sort of the
    // whole list for each), one 1.4 s stall.
    test('10,000 small runs import and list without a stall of the page', async ({ page, sink }) => {
      await page.goto('/');
      const { panel, rows, notice } = await historyPanel(page);
      await forgetStalls(page);
      await panel.getByTestId('history-import-input').setInputFiles(await fileOf('many.json', manyRunsFile(sink.url, 10_000)));
      await expect(notice).toContainText('Imported 10,000 runs from "many.json".', { timeout: 120_000 });
      await expect(panel).toContainText('10,000 runs');
      await expect(rows.first()).toBeInViewport();
    });
  });

  test('a run whose simulated user made 60,000 calls in one turn is refused by name', async ({ page }) => {
    await page.goto('/');
    const { panel, rows } = await historyPanel(page);
    const events = syntheticRun('user-flood', 1, 1);
    const calls = Array.from({ length: 60_000 }, () => ({ name: 'toggle_data', arguments: {}, result: 'ok', error: false }));
    const flood = { runId: 'user-flood', t: 1, type: 'user_turn', step: 1, content: null, toolCalls: calls, model: 'user', promptTokens: 0, completionTokens: 0, costUsd: 0 };
    const file = runFileText([{ id: 'user-flood', events: [events[0], flood, ...events.slice(1)] }]);
    await panel.getByTestId('history-import-input').setInputFiles({ name: 'user-flood.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await expect(panel.getByRole('alert')).toContainText("runs[0].events[1].toolCalls: holds more than the 16 calls a simulated user's turn may make");
    await expect(rows).toHaveCount(0);
  });

  test('a run file nested 100,000 deep is refused at once, saying why', async ({ page }) => {
    await page.goto('/');
    const { panel, rows } = await historyPanel(page);
    const started = Date.now();
    await panel.getByTestId('history-import-input').setInputFiles({ name: 'deep.json', mimeType: 'application/json', buffer: Buffer.from(deepRunFile(100_000)) });
    const alert = panel.getByRole('alert');
    await expect(alert).toContainText('"deep.json" was not imported');
    await expect(alert).toContainText('nested more than');
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect(rows).toHaveCount(0);
  });
});

async function openEvaluate(page: Page): Promise<Locator> {
  return openSideTab(page, 'Evaluate');
}

/** Opens the page and imports a results file of `text` into Evaluate, watching the main thread
 * from the import on; the Evaluate panel. */
async function importResults(page: Page, name: string, text: string): Promise<Locator> {
  const path = await fileOf(name, text);
  await page.goto('/');
  const panel = await openEvaluate(page);
  await forgetStalls(page);
  await resultsOf(page).getByLabel('Results file to import').setInputFiles(path);
  return panel;
}

/** Evaluate's results, drawn in the page's centre while the tab is open. */
function resultsOf(page: Page): Locator {
  return page.getByRole('region', { name: 'Evaluation results' });
}

test.describe('results files', () => {
  test.use({ maxStallMs: FILE_STALL_MS });

  test('40,000 rollouts each under a policy of its own are refused at once, naming the cap', async ({ page, sink }) => {
    const panel = await importResults(page, 'one-policy-each.jsonl', resultsFile(sink.url, 40_000, 40_000));
    const notice = panel.getByRole('alert', { name: 'Evaluation notice' });
    await expect(notice).toContainText('"one-policy-each.jsonl" was not imported', { timeout: 60_000 });
    await expect(notice).toContainText('40,000 policies');
    // Nothing was kept to freeze the next visit.
    await page.reload();
    await openEvaluate(page);
    await expect(resultsOf(page)).toContainText('No results yet');
  });

  test('40,000 rollouts over the most policies a file may hold import, draw and come back on the next visit, never stalling the page', async ({ page, sink }) => {
    const panel = await importResults(page, 'many-policies.jsonl', resultsFile(sink.url, 40_000, 100));
    await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Imported "many-policies.jsonl": 100 policies, 40,000 rollouts.', { timeout: 60_000 });
    const table = resultsOf(page).getByRole('table', { name: 'Results per policy' });
    await expect(table.locator('tbody tr')).toHaveCount(100);
    await expect(resultsOf(page).getByRole('figure', { name: 'Accuracy against cost' })).toBeVisible();
    // The charts draw what can be read (and drawn at once); the table lists every policy.
    await expect(resultsOf(page)).toContainText('The charts draw 24 of the 100 policies');

    await page.reload();
    await openEvaluate(page);
    await expect(resultsOf(page).getByRole('table', { name: 'Results per policy' }).locator('tbody tr')).toHaveCount(100, { timeout: 60_000 });
  });

  // Issue 31, items 9 and 10: pass^k of 40,000 rollouts of one task took 12 s (O(K²)), its
  // binomials past a float's range made it NaN, the table was a column per k, and the kept copy
  // was refused after a reload as "not usable (an older or damaged copy)".
  test('a τ² results file of 50,000 rollouts of one task: pass^k at once, 8 columns, and the same after a reload', async ({ page, sink }) => {
    const panel = await importResults(page, 'tau2-many.jsonl', tau2ResultsFile(sink.url, 50_000));
    await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Imported "tau2-many.jsonl": 1 policy, 50,000 rollouts.', { timeout: 90_000 });
    const expectTable = async () => {
      const table = resultsOf(page).getByRole('table', { name: 'τ² figures per policy' });
      await expect(table.locator('thead th')).toHaveText(['Policy', ...[1, 2, 3, 4, 5, 6, 7].map((k) => `pass^${k}`), 'pass^50,000', 'DB', 'Simulated user']);
      // All right but one: pass^1 is 49,999 / 50,000; no k of 50,000 rollouts of which one failed.
      await expect(table.locator('tbody td')).toHaveText(['100.0%', '100.0%', '100.0%', '100.0%', '100.0%', '100.0%', '100.0%', '0.0%', '100.0% (49999/50000)', '—']);
      await expect(resultsOf(page)).toContainText('Of pass^1…pass^50,000, the table shows the first 7 and the last; Export JSON holds them all.');
      await expect(resultsOf(page).getByRole('list', { name: 'Accuracy per policy' })).toContainText('pass^50,000 0.0%');
    };
    await expectTable();
    await page.reload();
    await forgetStalls(page);
    await openEvaluate(page);
    await expectTable();
    await expect(page.getByRole('alert', { name: 'Evaluation notice' })).toHaveCount(0);
  });

  test('100 policies each named by 80,000 characters of markup are refused at once, naming the cap', async ({ page, sink }) => {
    const panel = await importResults(page, 'long-names.jsonl', longNamedPoliciesFile(sink.url, 100, 80_000));
    const notice = panel.getByRole('alert', { name: 'Evaluation notice' });
    await expect(notice).toContainText('"long-names.jsonl" was not imported', { timeout: 60_000 });
    await expect(notice).toContainText("A policy's name is 80,000 characters; a name may be 1,000.");
    await expect(resultsOf(page).getByRole('table', { name: 'Results per policy' })).toHaveCount(0);
  });
});

test.describe('suites and domains', () => {
  test.describe(() => {
    test.use({ maxStallMs: FILE_STALL_MS });

    test('a suite of 10,000 tasks, the most one may hold, is read and described, never stalling the page', async ({ page, sink }) => {
      await page.goto('/');
      const panel = await openEvaluate(page);
      await forgetStalls(page);
      const path = await fileOf('full.jsonl', suiteFile(sink.url, 10_000));
      await panel.getByLabel('Suite file to import').setInputFiles(path);
      await expect(panel.getByLabel('Suite contents')).toContainText(/10,?000 tasks/, { timeout: 60_000 });
      await expect(panel.getByRole('alert', { name: 'Suite problems' })).toHaveCount(0);
    });
  });

  test('a suite nested 30,000 deep, one over the task cap, and domains the page lacks each get a clear problem; nothing runs', async ({ page, sink }) => {
    await page.goto('/');
    const panel = await openEvaluate(page);
    const input = panel.getByLabel('Suite file to import');
    const problems = panel.getByRole('alert', { name: 'Suite problems' });

    await input.setInputFiles({ name: 'deep.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(suiteFile(sink.url, 2, 30_000)) });
    await expect(problems).toContainText('line 1: nested more than');

    await input.setInputFiles({ name: 'many.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(suiteFile(sink.url, 10_001)) });
    await expect(problems).toContainText('more than 10,000 tasks');

    // A domain is a name of a built-in one: a path, a URL or a prototype's name is no domain.
    const domains = ['__proto__', '../../etc/passwd', `${sink.url}/domain`, 'retail-of-mine'];
    const lines = domains.map((domain, index) => JSON.stringify({ id: `d${index}`, task: 'Refund my order.', answer: 'x', domain })).join('\n');
    await input.setInputFiles({ name: 'domains.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(`${lines}\n`) });
    await expect(problems).toContainText('line 1');
    await expect(problems).toContainText('line 3');
    const named = JSON.stringify({ id: 'd', task: 'Refund my order.', domain: 'retail-of-mine', check: { kind: 'db', actions: [] } });
    await input.setInputFiles({ name: 'unknown-domain.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(`${named}\n`) });
    await expect(panel.getByLabel('Suite contents')).toContainText('domain: retail-of-mine');
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    await expect(panel.getByRole('alert', { name: 'Evaluation notice' })).toContainText('which the playground does not have');
  });
});
