// The IndexedDB layer every stored thing goes through (workers/storage/database.ts), in a real
// Chromium with two tabs of the app: a database several versions behind walks every migration
// with its data, an older tab that will not let go fails a newer tab's upgrade with a message that
// says what to do, and a tab whose database another tab upgraded closes it and, on its next use,
// says a newer version has taken over.

import type { Page } from '@playwright/test';
import type { DatabaseHarness } from './harness/database.ts';
import { expect, test } from './support/test.ts';

const HARNESS = '/e2e/harness/database.html';

async function openHarness(page: Page): Promise<void> {
  await page.goto(HARNESS);
  await page.waitForFunction(() => 'databaseHarness' in window);
}

const call = <K extends keyof DatabaseHarness>(page: Page, method: K, ...args: Parameters<DatabaseHarness[K]>) =>
  page.evaluate(
    ([name, rest]) => (window.databaseHarness[name] as (...a: unknown[]) => Promise<unknown>)(...rest),
    [method, args] as [K, unknown[]],
  );

test('a database at an older version walks every migration and keeps its records', async ({ page }) => {
  await openHarness(page);
  expect(await call(page, 'open', 1)).toBe(true);
  expect(await call(page, 'put', { id: 'a', title: 'Helsinki' })).toBe(true);
  expect(await call(page, 'put', { id: 'b', title: 'Tampere' })).toBe(true);

  // The same tab, now running code that knows version 2.
  await page.reload();
  await page.waitForFunction(() => 'databaseHarness' in window);
  expect(await call(page, 'open', 2)).toBe(true);
  expect(await call(page, 'byKey', 'helsinki')).toEqual([{ id: 'a', title: 'Helsinki', key: 'helsinki' }]);
  expect(await call(page, 'all')).toHaveLength(2);
});

test('an older tab that holds the database makes a newer tab’s upgrade fail with what to do, not hang', async ({ context }) => {
  const older = await context.newPage();
  await openHarness(older);
  expect(await call(older, 'holdRawConnection')).toBe(1);

  const newer = await context.newPage();
  await openHarness(newer);
  const opened = await call(newer, 'open', 2);
  expect(opened).toContain('held by an older version of the playground in another tab');
  expect(opened).toContain('close that tab and try again');
});

test('a tab lets another tab upgrade, then says a newer version took over instead of failing blindly', async ({ context }) => {
  const first = await context.newPage();
  await openHarness(first);
  expect(await call(first, 'open', 1)).toBe(true);
  expect(await call(first, 'put', { id: 'a', title: 'Oulu' })).toBe(true);

  const second = await context.newPage();
  await openHarness(second);
  // Not blocked: the first tab closes its connection when the second asks to upgrade.
  expect(await call(second, 'open', 2)).toBe(true);
  expect(await call(second, 'byKey', 'oulu')).toEqual([{ id: 'a', title: 'Oulu', key: 'oulu' }]);

  // The first tab's code knows only version 1: its next use reopens and says why it cannot.
  const stale = await call(first, 'all');
  expect(stale).toContain('a newer version of the playground has upgraded it');
  expect(stale).toContain('Reload');
});
