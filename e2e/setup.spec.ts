// The Setup panel and the header's config buttons in the real page: importing and exporting the
// file the CLI reads, editing it, and API keys (in the worker's memory unless the user chooses to
// remember one), checked against the scripted server's recorded requests and every browser store.

import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { parseConfig } from '../workers/hosts/config.ts';
import type { Scenario } from '../cli/scripted/scenario.ts';
import type { ScriptedServer } from '../cli/scripted/scriptedServer.ts';
import { everyTurn, expect, openSideTab, plantLocalStorage, scriptedConfig, test, type Playground } from './support/playground.ts';

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
const KEY = 'not-a-real-key-setup-spec-placeholder';

/** One step: the orchestrator answers through answer-2 straight away. */
const quickAnswer: Scenario = everyTurn(
  { content: '<tool_call>\n{"name": "answer", "arguments": {"model": "answer-2"}}\n</tool_call>', usage: { prompt_tokens: 900, completion_tokens: 20 } },
  { model: 'scripted/answerer-mini', content: '<answer>Helsinki</answer>', usage: { prompt_tokens: 300, completion_tokens: 5 } },
);

function setupPanel(page: Page) {
  return page.getByRole('region', { name: 'Setup' });
}

async function openSection(page: Page, title: string): Promise<void> {
  await openSideTab(page, 'Setup');
  const section = setupPanel(page).locator('details').filter({ has: page.locator('summary', { hasText: title }) });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  await expect(section).toHaveAttribute('open', '');
}

async function exportConfig(page: Page): Promise<Record<string, unknown>> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export config' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('orchestra-config.json');
  return JSON.parse(await readFile(await file.path(), 'utf8')) as Record<string, unknown>;
}

/** Everything this origin keeps in the browser, as text: both storages, every IndexedDB record, cookies. */
async function browserStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts = [JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage }), document.cookie];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error(`cannot open ${info.name}`));
      });
      for (const storeName of db.objectStoreNames) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        const read = (request: IDBRequest) =>
          new Promise<unknown>((resolve, reject) => {
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error ?? new Error(`cannot read ${storeName}`));
          });
        parts.push(info.name, storeName, JSON.stringify(await read(store.getAllKeys())), JSON.stringify(await read(store.getAll())));
      }
      db.close();
    }
    return parts.join('\n');
  });
}

/** The authorization headers of the completions the scripted server received since `from` (CORS preflights left out). */
function authorizations(server: ScriptedServer, from = 0): Array<string | undefined> {
  return server.requests
    .slice(from)
    .filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions')
    .map((request) => request.headers.authorization);
}

async function runOnce(playground: Playground): Promise<void> {
  await playground.run('What is the capital of Finland?');
  await playground.waitForFinish();
  await expect(playground.runStatus).toContainText('Answered');
}

async function setKey(page: Page, provider: string, key: string, remember: boolean): Promise<void> {
  await openSection(page, 'API keys');
  const row = setupPanel(page).getByRole('group', { name: `Key for ${provider}` });
  await row.getByLabel(`API key for ${provider}`).fill(key);
  if (remember) {
    await row.getByLabel('Remember on this device').check();
    await expect(row.getByRole('note')).toContainText('anyone with access to this browser profile can read it');
  }
  await row.getByRole('button', { name: 'Set key' }).click();
  await expect(row.getByLabel(`API key for ${provider}`)).toHaveValue('');
  await expect(row).toContainText(remember ? 'key set, remembered on this device' : 'key set');
}

test.describe('config file', () => {
  test('importing a file fills the forms, and edits show their problems by field', async ({ page, playground, consoleErrors }) => {
    const config = scriptedConfig('http://127.0.0.1:4999');
    await playground.open();
    const setup = await playground.openTab('Setup');
    await expect(setup).toContainText('Config: the built-in example');
    await expect(setup.getByLabel('Orchestrator endpoint (base URL)')).toHaveValue('http://localhost:8000/v1');

    await playground.importConfig(config, 'scripted.json');
    await expect(setup).toContainText('Config: imported from scripted.json');
    await expect(setup.getByLabel('Orchestrator model', { exact: true })).toHaveValue(ORCHESTRATOR);
    await expect(setup.getByLabel('Orchestrator provider')).toHaveValue('scripted');
    await expect(setup.getByLabel('Orchestrator endpoint (base URL)')).toHaveValue('http://127.0.0.1:4999/v1');
    await expect(setup.getByRole('radio', { name: /Calls read from the text/ })).toBeChecked();
    await expect(setup.getByRole('group', { name: 'Key for scripted' })).toContainText('no key');

    await openSection(page, 'Experts');
    const answer2 = setup.getByRole('group', { name: 'answer-2' });
    await expect(answer2.getByLabel('Model')).toHaveValue('scripted/answerer-mini');
    await expect(answer2.getByLabel('Tool')).toHaveValue('answer');
    await expect(answer2.getByLabel('Typical latency (seconds)')).toHaveValue('5');

    await openSection(page, 'Prices');
    await expect(setup.getByLabel('Prices as of')).toHaveValue('2025-11-26');
    await expect(setup.getByLabel('scripted/answerer output price, $ per million tokens')).toHaveValue('10');
    await expect(setup.getByLabel('scripted/answerer-mini input price, $ per million tokens')).toHaveValue('0.25');

    // A model with no price anywhere shows as unknown, not $0.
    await answer2.getByLabel('Model').fill('mystery/model');
    const mysteryRow = setup.getByRole('row', { name: /mystery\/model/ });
    await expect(mysteryRow).toContainText('price unknown');
    await expect(setup.getByLabel('mystery/model input price, $ per million tokens')).toHaveValue('');
    await expect(setup).toContainText('Config: edited here');

    // A broken field is marked and its problem named, in the list and beside the field.
    const endpoint = setup.getByLabel('Orchestrator endpoint (base URL)');
    await endpoint.fill('http//localhost:8000');
    await expect(endpoint).toHaveAttribute('aria-invalid', 'true');
    await expect(setup).toContainText('providers.scripted.baseUrl must be a full http(s) URL such as http://localhost:8000/v1');
    await setup.getByLabel('mystery/model input price, $ per million tokens').fill('3');
    await expect(setup).toContainText('pricing.models.mystery/model.outputPerM');
    await setup.getByLabel('mystery/model output price, $ per million tokens').fill('4');
    await expect(setup).not.toContainText('pricing.models.mystery/model');
    await expect(mysteryRow).toContainText('this config');

    await setup.getByRole('button', { name: 'Reset to example' }).click();
    await expect(setup).toContainText('Config: the built-in example');
    await expect(setup.getByLabel('Orchestrator endpoint (base URL)')).toHaveValue('http://localhost:8000/v1');
    await expect(setup.getByLabel('Orchestrator endpoint (base URL)')).not.toHaveAttribute('aria-invalid', 'true');
    expect(consoleErrors).toEqual([]);
  });

  test('an invalid file shows each problem by field and changes nothing', async ({ page, playground }) => {
    await playground.open();
    const setup = await playground.openTab('Setup');
    const base = scriptedConfig('http://127.0.0.1:4999');
    const orchestrator = base.orchestrator as Record<string, unknown>;
    await playground.importConfig(
      {
        ...base,
        providers: { scripted: { kind: 'openai-compatible', baseUrl: 'not a url', apiKey: KEY } },
        orchestrator: { ...orchestrator, provider: 'vllm' },
        limits: { maxTurns: 1000 },
      },
      'broken.json',
    );
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('broken.json was not imported');
    await expect(alert).toContainText('providers.scripted.baseUrl must be a full http(s) URL');
    await expect(alert).toContainText('providers.scripted Unrecognized key: "apiKey"');
    await expect(alert).toContainText('limits.maxTurns Too big: expected number to be <=500');
    // The key-shaped value in the rejected file is not echoed back.
    await expect(alert).not.toContainText(KEY);
    await expect(alert).not.toContainText(/\bat \S+:\d+|Error:|ZodError|ConfigError/);
    await expect(setup).toContainText('Config: the built-in example');

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import config' }).click();
    await (await chooser).setFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{ "name": "half') });
    await expect(alert).toContainText('notes.json was not imported');
    await expect(alert).toContainText('not valid JSON');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await expect(alert).toBeHidden();

    // A good file afterwards imports, and the alert does not come back.
    await playground.importConfig(base, 'good.json');
    await expect(setup).toContainText('Config: imported from good.json');
    await expect(alert).toBeHidden();
  });

  test('export downloads the config with the preferences, which the CLI parses', async ({ page, playground }) => {
    const preference = { outcome: 0.2, cost: 0.7, latency: 0.1, tools: { 'answer-1': -0.5 } };
    const config = scriptedConfig('http://127.0.0.1:4999', { preference, preferenceInstruction: false });
    await playground.open();
    await playground.importConfig(config);
    expect(await exportConfig(page)).toEqual(config);

    await playground.openTab('Setup');
    await setupPanel(page).getByLabel('Orchestrator model', { exact: true }).fill('my/orchestrator');
    const edited = await exportConfig(page);
    expect(edited).toEqual({ ...config, orchestrator: { ...(config.orchestrator as object), model: 'my/orchestrator' } });
    expect(parseConfig(edited).orchestrator.model).toBe('my/orchestrator');

    // The built-in example exports with the current preferences and is valid for the CLI too.
    await setupPanel(page).getByRole('button', { name: 'Reset to example' }).click();
    const example = await exportConfig(page);
    expect(example.preference).toEqual(preference);
    expect(example.experts).toBe('paper');
    expect(() => parseConfig(example)).not.toThrow();
  });

  test('a config saved by a newer version of the playground is kept aside untouched, not overwritten', async ({ page, playground }) => {
    const SETUP_KEY = 'orchestra-playground:setup';
    const saved = JSON.stringify({ state: { draft: scriptedConfig('http://127.0.0.1:4999'), source: { kind: 'edited' }, future: 'field' }, version: 9 });
    await plantLocalStorage(page, SETUP_KEY, saved);
    await playground.open();
    await playground.openTab('Setup');
    const alert = setupPanel(page).getByRole('alert');
    await expect(alert).toContainText('saved by a newer version of the playground (format 9; this one reads up to 1)');
    await expect(alert).toContainText(`${SETUP_KEY}:saved-by-version-9`);
    await expect(setupPanel(page)).toContainText('Config: the built-in example');
    expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), `${SETUP_KEY}:saved-by-version-9`))!)).toEqual(JSON.parse(saved));
  });
});

test.describe('API keys', () => {
  test('a key and a base URL are asked only of a provider whose kind sends requests to one', async ({ page, playground, consoleErrors }) => {
    const base = scriptedConfig('http://127.0.0.1:4999');
    const providers = { ...(base.providers as object), tab: { kind: 'gguf' }, local: { kind: 'webllm' }, claude: { kind: 'anthropic' } };
    await playground.open();
    await playground.importConfig({ ...base, providers, orchestrator: { ...(base.orchestrator as object), provider: 'tab' } }, 'kinds.json');
    // The first screen says where the orchestrator runs: a gguf one here, once loaded in Models.
    await expect(page.getByRole('region', { name: 'Watch a small model orchestrate bigger ones' })).toContainText('in this browser: load it in Models before you run');
    await openSection(page, 'API keys');
    const setup = setupPanel(page);
    for (const keyed of ['scripted', 'claude']) await expect(setup.getByLabel(`API key for ${keyed}`)).toBeVisible();
    // Models in this tab (llama.cpp, web-llm) send nothing anywhere: no key to ask for.
    for (const here of ['tab', 'local']) await expect(setup.getByRole('group', { name: `Key for ${here}` })).toHaveCount(0);

    // An orchestrator of a gguf provider has no endpoint; one of an anthropic provider has, defaulted.
    await expect(setup.getByLabel('Orchestrator provider')).toHaveValue('tab');
    await expect(setup.getByLabel('Orchestrator endpoint (base URL)')).toHaveCount(0);
    await setup.getByLabel('Orchestrator provider').selectOption('claude');
    await expect(setup.getByLabel('Orchestrator endpoint (base URL)')).toHaveAttribute('placeholder', 'https://api.anthropic.com/v1 (default)');

    await openSection(page, 'Providers');
    const tab = setup.getByRole('group', { name: 'tab', exact: true });
    await expect(tab.getByLabel('Kind')).toHaveValue('gguf');
    await expect(tab.getByLabel('Base URL')).toHaveCount(0);
    await expect(tab).toContainText('run in this browser by llama.cpp');
    await expect(setup.getByRole('group', { name: 'claude', exact: true }).getByLabel('Base URL')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('a key held in memory reaches the provider and nothing else', async ({ page, playground, scripted }) => {
    const server = await scripted.start(quickAnswer);
    const consoleText: string[] = [];
    page.on('console', (message) => consoleText.push(message.text()));
    await playground.open();
    await playground.importConfig(scriptedConfig(server.url));
    await setKey(page, 'scripted', KEY, false);
    await runOnce(playground);

    const sent = authorizations(server);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.every((header) => header === `Bearer ${KEY}`)).toBe(true);

    expect(await browserStorage(page)).not.toContain(KEY);
    expect(JSON.stringify(await exportConfig(page))).not.toContain(KEY);
    expect(await page.content()).not.toContain(KEY);
    expect(page.url()).not.toContain(KEY);
    expect(consoleText.join('\n')).not.toContain(KEY);

    // Held in memory only: a reload forgets it.
    await page.reload();
    await openSection(page, 'API keys');
    await expect(setupPanel(page).getByRole('group', { name: 'Key for scripted' })).toContainText('no key');
    const before = server.requests.length;
    await runOnce(playground);
    expect(authorizations(server, before).every((header) => header === undefined)).toBe(true);
  });

  test('"Remember on this device" keeps it across a reload until "Forget"', async ({ page, playground, scripted }) => {
    const server = await scripted.start(quickAnswer);
    await playground.open();
    await playground.importConfig(scriptedConfig(server.url));
    await setKey(page, 'scripted', KEY, true);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).toContain(KEY);
    expect(JSON.stringify(await exportConfig(page))).not.toContain(KEY);

    await page.reload();
    await playground.openTab('Setup');
    const row = setupPanel(page).getByRole('group', { name: 'Key for scripted' });
    await expect(row).toContainText('key set, remembered on this device');
    await runOnce(playground);
    const sent = authorizations(server);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.every((header) => header === `Bearer ${KEY}`)).toBe(true);

    await playground.openTab('Setup');
    await row.getByRole('button', { name: 'Forget' }).click();
    await expect(row).toContainText('no key');
    await expect(row.getByRole('button', { name: 'Forget' })).toHaveCount(0);
    expect(await browserStorage(page)).not.toContain(KEY);
    const before = server.requests.length;
    await runOnce(playground);
    expect(authorizations(server, before).every((header) => header === undefined)).toBe(true);

    await page.reload();
    await playground.openTab('Setup');
    await expect(setupPanel(page).getByRole('group', { name: 'Key for scripted' })).toContainText('no key');
    expect(await browserStorage(page)).not.toContain(KEY);
  });
});
