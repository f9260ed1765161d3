// Imported configs are untrusted (docs/security.md, "Config files"): a file with 12,000 providers,
// one saved in this browser by an earlier version, a provider named "__proto__", kinds no backend
// has ("__proto__", "constructor") and prototype pollution are refused with plain reasons, read
// off the page's thread, and never stall the page.

import type { Page } from '@playwright/test';
import { plantLocalStorage, scriptedConfig } from '../support/playground.ts';
import { expect, test } from './fixtures.ts';

const SETUP_KEY = 'orchestra-playground:setup';

function withProviders(count: number): Record<string, unknown> {
  const config = scriptedConfig('http://127.0.0.1:4999');
  const providers = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`p${i}`, { kind: 'openai-compatible', baseUrl: `http://h${i}.example/v1` }]),
  );
  return { ...config, providers: { ...(config.providers as object), ...providers } };
}

async function importText(page: Page, text: string, name: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import config' }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

function setupPanel(page: Page) {
  return page.getByRole('region', { name: 'Setup' });
}

test.describe('hostile config files', () => {
  test('a file with 12,000 providers is refused at once, saying the limit, and changes nothing', async ({ page, playground }) => {
    await playground.open();
    await playground.importConfig(scriptedConfig('http://127.0.0.1:4999'), 'good.json');
    const text = JSON.stringify(withProviders(12_000));
    expect(text.length).toBeLessThan(1_000_000);
    // A file this large is read in a worker, not on the page's thread.
    const reader = page.waitForEvent('worker', { predicate: (worker) => worker.url().includes('configImport.worker') });
    await importText(page, text, 'huge.json');
    await reader;
    const alert = page.getByRole('alert').filter({ hasText: 'huge.json was not imported' });
    await expect(alert).toContainText('providers 12,001 providers; a config may have at most 50');
    await playground.openTab('Setup');
    await expect(setupPanel(page)).toContainText('Config: imported from good.json');
    await expect(setupPanel(page).getByRole('group', { name: /^Key for p\d/ })).toHaveCount(0);
    // Nothing of it was kept on this device.
    expect(await page.evaluate((key) => localStorage.getItem(key)?.length ?? 0, SETUP_KEY)).toBeLessThan(20_000);
  });

  test('a 12,000-provider config saved by an earlier version is set aside on load, with the reason', async ({ page, playground }) => {
    const saved = JSON.stringify({ state: { draft: withProviders(12_000), source: { kind: 'imported', fileName: 'huge.json' }, rememberedProviders: [] }, version: 1 });
    await plantLocalStorage(page, SETUP_KEY, saved);
    await playground.open();
    // The Setup tab says it has something to read; the welcome points there.
    await expect(page.getByRole('tab', { name: 'Setup, has problems' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Watch a small model orchestrate bigger ones' })).toContainText(
      'The config saved in this browser could not be loaded; Setup says why.',
    );
    await playground.openTab('Setup');
    const alert = setupPanel(page).getByRole('alert');
    await expect(alert).toContainText('The config saved in this browser was not loaded, so the built-in example is shown instead');
    await expect(alert).toContainText('providers: 12,001 providers; a config may have at most 50');
    await expect(setupPanel(page)).toContainText('Config: the built-in example');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await expect(alert).toBeHidden();
    // The example took its place in storage, so the next load is an ordinary one.
    await page.reload();
    await expect(setupPanel(page)).toContainText('Config: the built-in example');
    await expect(setupPanel(page).getByRole('alert')).toHaveCount(0);
  });

  test('a provider named "__proto__" is refused rather than shown and then lost; pollution reaches nothing', async ({ page, playground }) => {
    await playground.open();
    const config = scriptedConfig('http://127.0.0.1:4999');
    const text = JSON.stringify(config).replace(
      '"providers":{',
      '"providers":{"__proto__":{"kind":"openai-compatible","baseUrl":"http://127.0.0.1:1/v1","polluted":"yes"},',
    );
    await importText(page, text, 'proto.json');
    const alert = page.getByRole('alert').filter({ hasText: 'proto.json was not imported' });
    await expect(alert).toContainText('providers "__proto__" cannot be a name: JavaScript reserves it, so it would be lost. Rename it.');
    await playground.openTab('Setup');
    await expect(setupPanel(page)).toContainText('Config: the built-in example');
    await expect(setupPanel(page).getByRole('group', { name: '__proto__' })).toHaveCount(0);

    // Pollution at the top level and through constructor.prototype: refused, and no object changed.
    const polluting = JSON.stringify(config).replace(
      /^\{/,
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},',
    );
    await importText(page, polluting, 'pollute.json');
    await expect(page.getByRole('alert').filter({ hasText: 'pollute.json was not imported' })).toContainText('"__proto__" cannot be a name');
    expect(await page.evaluate(() => ({}) as { polluted?: unknown }).then((object) => object.polluted)).toBeUndefined();
    expect(await page.evaluate(() => (Object.prototype as { polluted?: unknown }).polluted ?? null)).toBeNull();

    // Adding one by hand in Setup is refused the same way.
    await setupPanel(page).locator('summary', { hasText: 'Providers' }).click();
    const add = setupPanel(page).getByRole('group', { name: 'Add a provider' });
    await add.getByLabel('Name').fill('__proto__');
    await add.getByRole('button', { name: 'Add provider' }).click();
    await expect(add).toContainText('"__proto__" is reserved in JavaScript: choose another name.');
  });

  test('providers whose kind no backend has ("__proto__", "constructor", "toString", a made-up one) get a clear problem on import and on load; every tab still draws', async ({ page, playground }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const config = scriptedConfig('http://127.0.0.1:4999');
    const odd = { proto: { kind: '__proto__' }, ctor: { kind: 'constructor' }, str: { kind: 'toString' }, made: { kind: 'no-such-kind', baseUrl: 'http://127.0.0.1:1/v1' } };
    const hostile = { ...config, providers: { ...(config.providers as object), ...odd } };
    const saved = JSON.stringify({ state: { draft: hostile, source: { kind: 'imported', fileName: 'kinds.json' }, rememberedProviders: [] }, version: 1 });
    await plantLocalStorage(page, SETUP_KEY, saved);
    await playground.open();
    await playground.openTab('Setup');
    // Loaded as saved, with its problems listed, and no run starts from it.
    const panel = setupPanel(page);
    await expect(panel).toContainText('4 problems to fix before a run');
    for (const name of Object.keys(odd)) await expect(panel.getByText(`providers.${name}.kind`, { exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Setup, has problems' })).toBeVisible();
    for (const tab of ['Models', 'Evaluate', 'History', 'Setup'] as const) await playground.openTab(tab);
    await importText(page, JSON.stringify(hostile), 'kinds.json');
    const alert = page.getByRole('alert').filter({ hasText: 'kinds.json was not imported' });
    for (const name of Object.keys(odd)) await expect(alert).toContainText(`providers.${name}.kind`);
    expect(errors).toEqual([]);
  });
});
