// History's export (a short-lived worker writes the run file; the page saves it) against a history
// another tab changes meanwhile: the file holds what is still there, and reads back.

import { readFile } from 'node:fs/promises';
import { syntheticRun } from '../fixtures/syntheticRun.ts';
import { openSideTab } from '../support/playground.ts';
import { readRunFile } from '../../workers/history/runFile.ts';
import { parseConfig } from '../../workers/hosts/config.ts';
import { expect, test } from './fixtures.ts';
import { runFileText } from './hostileFiles.ts';

test('an export of runs another tab deleted meanwhile holds the rest and says so; one of none left is not written', async ({ page, playground, sink: _sink }) => {
  test.setTimeout(120_000);
  await playground.open();
  const history = await openSideTab(page, 'History');
  const runs = [1, 2, 3].map((index) => ({ id: `kept-${index}`, events: syntheticRun(`kept-${index}`, index, 2) }));
  await history.getByTestId('history-import-input').setInputFiles({ name: 'three.json', mimeType: 'application/json', buffer: Buffer.from(runFileText(runs)) });
  await expect(history.getByRole('status')).toContainText('Imported 3 runs');
  const rows = history.getByRole('list', { name: 'Stored runs' }).getByRole('article');
  await expect(rows).toHaveCount(3);

  // Another tab of the playground deletes the first two.
  const other = await page.context().newPage();
  await other.goto('/');
  const otherHistory = await openSideTab(other, 'History');
  const otherRows = otherHistory.getByRole('list', { name: 'Stored runs' }).getByRole('article');
  for (const index of [1, 2]) {
    other.once('dialog', (dialog) => void dialog.accept());
    await otherRows.filter({ hasText: `Question ${index}:` }).getByRole('button', { name: 'Delete' }).click();
  }
  await expect(otherRows).toHaveCount(1);
  await other.close();

  // This tab still lists all three, and exports them.
  await expect(rows).toHaveCount(3);
  const download = page.waitForEvent('download');
  await history.getByRole('button', { name: /Export all/ }).click();
  await expect(history.getByRole('status')).toContainText('Exported 1 run.');
  await expect(history.getByRole('status')).toContainText('Left out 2 runs no longer in your history (deleted in another tab?).');
  const read = readRunFile(await readFile(await (await download).path(), 'utf8'), parseConfig);
  expect(read.ok && read.runs.map((run) => run.id)).toEqual(['kept-3']);
  expect(read.ok && read.warnings).toEqual([]);

  // The last one deleted too: nothing is written.
  const last = await page.context().newPage();
  await last.goto('/');
  const lastRows = (await openSideTab(last, 'History')).getByRole('list', { name: 'Stored runs' }).getByRole('article');
  last.once('dialog', (dialog) => void dialog.accept());
  await lastRows.first().getByRole('button', { name: 'Delete' }).click();
  await expect(lastRows).toHaveCount(0);
  await last.close();
  let downloaded = false;
  page.on('download', () => (downloaded = true));
  await rows.filter({ hasText: 'Question 2:' }).getByRole('button', { name: 'Export' }).click();
  await expect(history.getByRole('alert')).toContainText('The export failed: the run is no longer in your history (deleted in another tab?).');
  expect(downloaded).toBe(false);
});
