// A replay's clock (issue 24, item 8): at 1× the Cost panel's Elapsed is the recorded time the
// replay has reached — the same figure as the replay's own position — never the time since the
// run was recorded.

import { syntheticRun } from './fixtures/syntheticRun.ts';
import { expect, test } from './support/playground.ts';

test('during a 1× replay, Elapsed is the replay position, paused or playing', async ({ page, playground }) => {
  // A three-step run recorded weeks ago, its events a second apart: over half a minute at 1×.
  const events = syntheticRun('clock-run', 1, 3).map((event, index) => ({ ...event, t: index * 1_000 }));
  const file = JSON.stringify({ format: 'orchestra-playground/runs', version: 1, exportedAt: new Date().toISOString(), runs: [{ id: 'clock-run', events }] });
  await page.goto('/');
  await playground.openTab('History');
  const history = page.getByRole('tabpanel', { name: 'History' });
  await history.getByTestId('history-import-input').setInputFiles({ name: 'clock.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await expect(history.getByRole('status')).toContainText('Imported 1 run');
  await history.getByRole('list', { name: 'Stored runs' }).getByRole('article').first().getByRole('button', { name: 'Replay' }).click();

  const banner = page.getByTestId('stored-run-banner');
  await banner.getByRole('combobox', { name: 'Speed' }).selectOption('1');
  const position = banner.locator('.replay-position');
  const elapsed = page.getByRole('region', { name: 'Cost and latency' }).locator('dt:text-is("Elapsed") + dd');
  /** The position's time ("Step 1 of 3 · 1.3 s" → "1.3 s"). */
  const positionTime = async () => ((await position.textContent()) ?? '').split(' · ')[1];

  // Playing: both follow the replay (read together, on one frame).
  await expect(banner.getByRole('button', { name: 'Pause' })).toBeVisible();
  for (let sample = 0; sample < 3; sample++) {
    await page.waitForTimeout(700);
    const [shownElapsed, shownPosition] = await page.evaluate(() => [
      [...document.querySelectorAll('.cost-figures dt')].find((dt) => dt.textContent === 'Elapsed')?.nextElementSibling?.textContent,
      document.querySelector('.replay-position')?.textContent?.split(' · ')[1],
    ]);
    expect(shownElapsed).toBe(shownPosition);
  }

  // Paused: still the same figure, and it stays put.
  await banner.getByRole('button', { name: 'Pause' }).click();
  const paused = await positionTime();
  await expect(elapsed).toHaveText(paused!);
  await page.waitForTimeout(1_000);
  await expect(elapsed).toHaveText(paused!);

  // Stepping back moves both.
  await banner.getByRole('button', { name: 'Previous step' }).click();
  await expect(elapsed).toHaveText((await positionTime())!);
});
