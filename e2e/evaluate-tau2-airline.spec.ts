// τ²-Bench airline in the Evaluate tab, as a new user meets it: the suite says it needs τ²'s
// db.json, which the playground does not ship; a file that is not τ²'s airline database is
// refused naming the file and the field; db.json chosen on disk is kept; a download asks the
// server for the size first and fetches nothing until Download is pressed (a local HTTP double
// stands in for τ²-Bench's repository: the machine has no internet), and what it fetched is kept
// across a reload. Then the suite's first two tasks run with the scripted user against the
// scripted server, graded as τ² grades them, the agent's calls in the rollout's trace. The
// database is the generated one of the tests (e2e/fixtures/tau2/airline/generate_db.py).

import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatFileSize } from '../app/format.ts';
import { startStaticSite, type StaticSite } from './fixtures/staticSite.ts';
import { AIRLINE_TEST_DB, tau2Config, tau2Scenario, tau2Task, type AgentPlan } from './fixtures/tau2Eval.ts';
import { expect, test } from './support/playground.ts';

test.describe.configure({ timeout: 180_000 });

const PLAN: AgentPlan[] = [{ id: '0' }, { id: '1' }];
let site: StaticSite;

test.beforeAll(async () => {
  site = await startStaticSite(dirname(AIRLINE_TEST_DB), { headers: { 'access-control-allow-origin': '*' } });
  site.replace('/not-tau2.json', '{"flights": {}, "users": {}, "bookings": {}}');
});
test.afterAll(() => site.close());

test("τ²'s airline on the user's db.json: refused without it, kept from a file or a download, then run with the scripted user", async ({ playground, page, scripted }) => {
  const server = await scripted.start(tau2Scenario(PLAN, false, 'airline'));
  await playground.open();
  await playground.importConfig(tau2Config(server.url));
  await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'Evaluate' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Evaluate' });
  await panel.getByRole('combobox', { name: 'Suite' }).selectOption('tau2-airline');
  const database = panel.getByRole('group', { name: 'τ²’s airline database' });
  await expect(database).toBeInViewport();
  await expect(database).toContainText('which the playground does not ship');
  await expect(panel.getByRole('alert', { name: 'Suite problems' })).toContainText("τ²-Bench's airline needs its database (db.json)");

  // A file that is not τ²'s: refused, naming it and the field.
  await database.getByLabel('Airline database file').setInputFiles({ name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from('{"flights": {}, "users": {}, "bookings": {}}') });
  const problem = database.getByRole('alert');
  await expect(problem).toContainText("orders.json is not τ²'s airline database: 2 validation errors for FlightDB");
  await expect(problem).toContainText('Extra inputs are not permitted');
  await expect(problem).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('airline-refused-1280.png') });

  // The db.json of a τ²-Bench checkout, chosen on disk: checked and kept; the suite reads.
  await database.getByLabel('Airline database file').setInputFiles(AIRLINE_TEST_DB);
  const size = formatFileSize(statSync(AIRLINE_TEST_DB).size);
  await expect(database.getByTestId('airline-db-kept')).toContainText(`Using your file db.json (${size}), kept in this browser`);
  await expect(panel.getByLabel('Suite contents')).toContainText('50 tasks · checks: τ² criteria 50 · domain: tau2-airline', { timeout: 30_000 });
  await database.getByRole('button', { name: 'Forget it' }).click();
  await expect(database.getByTestId('airline-db-kept')).toHaveCount(0);
  await expect(panel.getByRole('alert', { name: 'Suite problems' })).toContainText('needs its database');

  // A download: the size first, nothing fetched until Download; a wrong file refused.
  const address = database.getByRole('textbox', { name: 'Download from' });
  await expect(address).toHaveValue('https://raw.githubusercontent.com/sierra-research/tau2-bench/main/data/tau2/domains/airline/db.json');
  await address.fill(`${site.url}/not-tau2.json`);
  await database.getByRole('button', { name: 'Check its size' }).click();
  await expect(database.getByTestId('airline-db-size')).toHaveText('The file is 44 B. Nothing is downloaded until you press Download.');
  expect(site.calls).toEqual(['HEAD /not-tau2.json']);
  await database.getByRole('button', { name: 'Download 44 B' }).click();
  await expect(database.getByRole('alert')).toContainText(`${site.url}/not-tau2.json is not τ²'s airline database`);
  await address.fill(`${site.url}/db.json`);
  await database.getByRole('button', { name: 'Check its size' }).click();
  await expect(database.getByTestId('airline-db-size')).toHaveText(`The file is ${size}. Nothing is downloaded until you press Download.`);
  expect(site.calls.filter((call) => call.endsWith('/db.json'))).toEqual(['HEAD /db.json']);
  await page.screenshot({ path: test.info().outputPath('airline-size-1280.png') });
  await database.getByRole('button', { name: `Download ${size}` }).click();
  await expect(database.getByTestId('airline-db-kept')).toContainText(`Using the download from ${site.url}/db.json (${size}), kept in this browser`);
  expect(site.calls.filter((call) => call.endsWith('/db.json'))).toEqual(['HEAD /db.json', 'GET /db.json']);

  // Kept across a reload, so it works with the network down.
  await page.reload();
  await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'Evaluate' }).click();
  await panel.getByRole('combobox', { name: 'Suite' }).selectOption('tau2-airline');
  await expect(database.getByTestId('airline-db-kept')).toContainText(`the download from ${site.url}/db.json`);
  await expect(panel.getByLabel('Suite contents')).toContainText('50 tasks · checks: τ² criteria 50 · domain: tau2-airline', { timeout: 30_000 });

  // The first two tasks with the scripted user: the agent replays their golden calls.
  await panel.getByRole('combobox', { name: 'Simulated user' }).selectOption('scripted');
  await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
  await panel.getByRole('spinbutton', { name: 'Concurrency' }).fill('1');
  await panel.getByRole('textbox', { name: 'Tasks (first N)' }).fill('2');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Done: 2 rollouts run.', { timeout: 120_000 });
  const results = page.getByRole('region', { name: 'Evaluation results' });
  const figures = results.getByRole('table', { name: 'τ² figures per policy' });
  await expect(figures.locator('tr[data-policy="orchestrator"]')).toContainText('100.0% (2/2)');
  await expect(results.getByRole('list', { name: 'Accuracy per policy' })).toContainText('100.0%');
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await expect(figures).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath(`airline-results-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Task 1's rollout in the trace: the user's opening, the agent's two reads, its message.
  await results.getByText('Every rollout (2)').click();
  await results.getByRole('list', { name: 'Rollouts' }).getByRole('listitem').nth(1).getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('stored-run-banner')).toBeVisible();
  const reservation = tau2Task('1', 'airline').evaluationCriteria!.actions![1]!.arguments.get('reservation_id') as string;
  const read = playground.trace.getByRole('group', { name: 'Call get_reservation_details' });
  await expect(read).toContainText(`"reservation_id": "${reservation}"`);
  await read.scrollIntoViewIfNeeded();
  await expect(read).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('airline-trace-1280.png') });
});
