// The before/after strip (issue 24, item 5): after a second run of the demo under another
// preference, the Task screen shows this run's route, cost and time against the one before, the
// step where the routes part, and the line of reasoning that names the preference; presenter view
// shows it too, large, once every step is shown.

import { expect, test } from './support/playground.ts';
import { cutOrSideways, smallText } from './support/screenChecks.ts';

// Two whole demo runs (Python included) on a loaded two-core box.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1280, height: 720 } });

test('a second run under Cheapest shows its route, cost and time against the Balanced one, where they part and why', async ({ page, playground, consoleErrors }) => {
  await playground.open();
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await playground.waitForFinish(120_000);
  const strip = page.getByRole('region', { name: 'Before and after' });
  // One run: nothing to set it against.
  await expect(strip).toHaveCount(0);
  const task = await playground.taskText();

  await playground.preferences.getByRole('radio', { name: 'Cheapest' }).check();
  await playground.run(task);
  await playground.waitForFinish(120_000);
  await expect(strip).toBeVisible();
  const rows = strip.getByRole('row');
  await expect(rows.nth(1)).toContainText('This run');
  await expect(rows.nth(1)).toContainText('Cheapest');
  await expect(rows.nth(2)).toContainText('Run before');
  await expect(rows.nth(2)).not.toContainText('Cheapest');
  for (const row of [rows.nth(1), rows.nth(2)]) await expect(row).toContainText(/\$[\d.]+.*\d+(\.\d+)? s/);
  const now = await strip.getByRole('list', { name: 'This run: route' }).getByRole('listitem').allInnerTexts();
  const before = await strip.getByRole('list', { name: 'Run before: route' }).getByRole('listitem').allInnerTexts();
  expect(now).not.toEqual(before);
  const parting = now.findIndex((step, index) => step !== before[index]) + 1;
  await expect(strip).toContainText(`The routes part at step ${parting}: ${now[parting - 1]} now, ${before[parting - 1]} before.`);
  await expect(strip.getByLabel("Why, in the orchestrator's words")).toHaveText(/cheap|price|cost/i);
  expect(await cutOrSideways(page, strip)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('before-after-1280x720.png') });

  // In presenter view (turned on after the run: every step is shown), large.
  await page.getByRole('button', { name: 'Presenter view' }).click();
  await expect(page.getByRole('region', { name: 'Question' })).toBeVisible();
  await expect(strip).toBeVisible();
  expect(await smallText(strip, { html: 24, svg: 18 })).toEqual([]);
  expect(await cutOrSideways(page, strip)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('before-after-presenter-1280x720.png') });
  expect(consoleErrors).toEqual([]);
});
