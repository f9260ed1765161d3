// Keys are bound to the endpoint they were entered for (docs/security.md, "Keys"): a remembered
// OpenAI key and an Anthropic key held in memory, each pointed elsewhere by an imported config or
// an edit, are held back and never reach the new host until the user agrees in Setup. And a
// redirect from an endpoint is never followed, so its key cannot ride along to the sink.

import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Scenario } from '../../cli/scripted/scenario.ts';
import type { ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { openSideTab, type Playground } from '../support/playground.ts';
import { formatToolCall } from '../../workers/engine/qwen3/render.ts';
import { longestPieceOfKey, MAX_KEY_PIECE } from '../fixtures/keyForms.ts';
import { expect, lightConfig, ORCHESTRATOR, test } from './fixtures.ts';

const KEY = 'not-a-real-key-origin-binding-placeholder';
const EXPERT = 'scripted/answerer-mini';

/** The orchestrator answers at once. */
const directAnswer: Scenario = { models: { [ORCHESTRATOR]: [{ repeat: true, content: '<message>Helsinki</message>' }] } };

/** The orchestrator hands the turn to expert-1, which answers. */
const expertAnswer: Scenario = {
  models: {
    [ORCHESTRATOR]: [{ repeat: true, content: formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } }) }],
    [EXPERT]: [{ repeat: true, content: '<message>Helsinki</message>' }],
  },
};

type ConfigValue = Record<string, unknown>;

/** The orchestrator alone, on a provider called `name`. */
function withProvider(serverUrl: string, name: string): ConfigValue {
  const config = lightConfig(serverUrl);
  const providers = config.providers as Record<string, ConfigValue>;
  return { ...config, providers: { [name]: providers.scripted }, orchestrator: { ...(config.orchestrator as ConfigValue), provider: name } };
}

/** The orchestrator on `scripted` (no key), and expert-1 on an Anthropic provider `claude`. */
function withAnthropicExpert(orchestratorUrl: string, claudeUrl: string): ConfigValue {
  const config = lightConfig(orchestratorUrl);
  return {
    ...config,
    providers: { ...(config.providers as ConfigValue), claude: { kind: 'anthropic', baseUrl: claudeUrl } },
    experts: { 'expert-1': { tool: 'call_expert', provider: 'claude', model: EXPERT, description: 'answers.' } },
  };
}

function setupPanel(page: Page) {
  return page.getByRole('region', { name: 'Setup' });
}

function keyRow(page: Page, provider: string) {
  return setupPanel(page).getByRole('group', { name: `Key for ${provider}` });
}

async function openSection(page: Page, title: string): Promise<void> {
  await openSideTab(page, 'Setup');
  const section = setupPanel(page).locator('details').filter({ has: page.locator('summary', { hasText: title }) });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  await expect(section).toHaveAttribute('open', '');
}

async function setKey(page: Page, provider: string, remember: boolean, key = KEY): Promise<void> {
  await openSection(page, 'API keys');
  const row = keyRow(page, provider);
  await row.getByLabel(`API key for ${provider}`).fill(key);
  if (remember) await row.getByLabel('Remember on this device').check();
  await row.getByRole('button', { name: 'Set key' }).click();
  await expect(row).toContainText(remember ? 'key set, remembered on this device' : 'key set');
}

/** The key each POST to a model endpoint carried, oldest first (CORS preflights left out);
 * `path` keeps only one endpoint's. */
function keysSent(server: ScriptedServer, path?: string, from = 0): Array<string | undefined> {
  return server.requests
    .slice(from)
    .filter((request) => request.method === 'POST' && (path === undefined || request.path === path))
    .map((request) => request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, ''));
}

async function runAndExpect(playground: Playground, outcome: string): Promise<void> {
  await playground.run('What is the capital of Finland?');
  await playground.waitForFinish();
  await expect(playground.runStatus).toContainText(outcome);
}

/** Everything the history keeps in IndexedDB, as text. */
const storedHistory = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('orchestra-playground-history');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['runs', 'batches']);
          const runs = tx.objectStore('runs').getAll();
          const batches = tx.objectStore('batches').getAll();
          tx.oncomplete = () => resolve(JSON.stringify([runs.result, batches.result]));
        };
      }),
  );

test.describe('keys are bound to their endpoint', () => {
  test('a remembered OpenAI key is held back from the host an imported config names, until the user agrees', async ({
    page,
    playground,
    scripted,
  }) => {
    const [first, second] = await Promise.all([scripted.start(directAnswer), scripted.start(directAnswer)]);
    await playground.open();
    await playground.importConfig(withProvider(first.url, 'openai'), 'mine.json');
    await setKey(page, 'openai', true);
    await runAndExpect(playground, 'Answered');
    expect(keysSent(first)).toEqual([KEY]);

    // A later visit: the key comes back from this device's storage, with its address.
    await page.reload();
    await playground.openTab('Setup');
    const row = keyRow(page, 'openai');
    await expect(row).toContainText('key set, remembered on this device');
    await expect(row).toContainText(`Sent only to ${first.url}`);

    await playground.importConfig(withProvider(second.url, 'openai'), 'shared.json');
    const question = row.getByRole('alert');
    await expect(question).toContainText(`This key was entered for ${first.url}, and openai now sends its requests to ${second.url}.`);
    await expect(question).toContainText('The key is not sent there unless you say so.');
    await expect(row).toContainText('key held back');
    await expect(setupPanel(page).locator('summary', { hasText: 'API keys' })).toContainText('1 held back');

    await runAndExpect(playground, 'The run could not start.');
    await expect(playground.runStatus).toContainText(
      `The key for "openai" was entered for ${first.url}, and this config sends openai's requests to ${second.url}. The key was not sent.`,
    );
    expect(second.requests).toEqual([]);

    await playground.openTab('Setup');
    await question.getByRole('button', { name: `Use it with ${second.url}` }).click();
    await expect(question).toBeHidden();
    await expect(row).toContainText(`Sent only to ${second.url}`);
    const firstBefore = first.requests.length;
    await runAndExpect(playground, 'Answered');
    expect(keysSent(second)).toEqual([KEY]);
    expect(first.requests.length).toBe(firstBefore);

    // The agreement is remembered with the key.
    await page.reload();
    await playground.openTab('Setup');
    await expect(keyRow(page, 'openai')).toContainText(`Sent only to ${second.url}`);
    await expect(keyRow(page, 'openai').getByRole('alert')).toHaveCount(0);
  });

  test('an Anthropic key held in memory is held back when an edit points the provider elsewhere', async ({ page, playground, scripted }) => {
    const [first, second] = await Promise.all([scripted.start(expertAnswer), scripted.start(expertAnswer)]);
    await playground.open();
    await playground.importConfig(withAnthropicExpert(first.url, first.url));
    await setKey(page, 'claude', false);
    await runAndExpect(playground, 'Answered');
    expect(keysSent(first, '/v1/messages')).toEqual([KEY]);

    await openSection(page, 'Providers');
    await setupPanel(page).getByRole('group', { name: 'claude' }).getByLabel('Base URL').fill(`${second.url}/v1`);
    const row = keyRow(page, 'claude');
    await expect(row.getByRole('alert')).toContainText(`This key was entered for ${first.url}, and claude now sends its requests to ${second.url}.`);
    await runAndExpect(playground, 'The run could not start.');
    expect(second.requests).toEqual([]);

    // Entering another key is the other way out: it is bound to the new address at once.
    await playground.openTab('Setup');
    await row.getByLabel('API key for claude').fill(`${KEY}-2`);
    await row.getByRole('button', { name: 'Set key' }).click();
    await expect(row.getByRole('alert')).toHaveCount(0);
    await expect(row).toContainText(`Sent only to ${second.url}`);
    await playground.importConfig(withAnthropicExpert(first.url, first.url));
    await row.getByRole('alert').getByRole('button', { name: `Use it with ${first.url}` }).click();
    const before = first.requests.length;
    await runAndExpect(playground, 'Answered');
    expect(keysSent(first, '/v1/messages', before)).toEqual([`${KEY}-2`]);
    expect(second.requests).toEqual([]);
  });
});

test.describe('redirects', () => {
  test('an endpoint that redirects to another host gets no key there: the run says where it pointed', async ({ playground, scripted, sink }) => {
    const server = await scripted.start(expertAnswer);
    await playground.open();
    await playground.importConfig(withAnthropicExpert(server.url, server.url));
    await setKey(playground.page, 'claude', false);
    server.setFault({ kind: 'redirect', status: 307, location: `${sink.url}/v1/messages` });
    // The orchestrator's own call (no key) is the first to meet it.
    await runAndExpect(playground, 'Stopped by an error');
    await expect(playground.runStatus).toContainText('The endpoint redirected the request elsewhere');
    await expect(playground.runStatus).toContainText('which the browser does not reveal');
    await expect(playground.runStatus).toContainText('never follow a redirect');

    // The Anthropic expert's call, with its x-api-key, meets it too.
    server.reset(expertAnswer);
    server.setFault(null);
    const scenario: Scenario = {
      models: {
        ...expertAnswer.models,
        [EXPERT]: [{ content: '<message>Helsinki</message>', fault: { kind: 'redirect', location: `${sink.url}/v1/messages` } }],
      },
    };
    server.reset(scenario);
    await playground.run('What is the capital of Finland?');
    await playground.waitForFinish();
    const trace = playground.trace;
    await expect(trace).toContainText('redirected the request');
    expect(keysSent(server, '/v1/messages')).toEqual([KEY]);
  });
});

test.describe('keys echoed in a normal reply', () => {
  // URL-encoding and base64 both change it, so every form is a different string.
  const ECHOED = 'sk-echo/Key+with=chars_0123456789';
  const forms = [ECHOED, Buffer.from(ECHOED).toString('base64').replace(/=+$/, ''), encodeURIComponent(ECHOED)];
  const MARKER = '[scripted API key removed]';
  const echo = 'Authenticated as {{api_key}} ({{api_key_base64}}; {{api_key_url}}).';
  /** A gateway that echoes the key in its 200 reply, four characters a delta: every key is split. */
  const echoing: Scenario = {
    models: { [ORCHESTRATOR]: [{ repeat: true, reasoning: echo, content: `${echo} <message>Helsinki. ${echo}</message>`, chunkSize: 4 }] },
  };

  test('never reach the events, the screen, the history or an export; an export that would still hold one is not written', async ({ page, playground, scripted }) => {
    const server = await scripted.start(echoing);
    await playground.open();
    await playground.importConfig(lightConfig(server.url));
    await setKey(page, 'scripted', false, ECHOED);
    await runAndExpect(playground, 'Answered');
    expect(keysSent(server)).toEqual([ECHOED]);

    // The screen: the trace, the answer, the reasoning, what the model saw.
    await expect(playground.trace).toContainText(MARKER);
    const shown = await page.locator('body').innerText();
    for (const form of forms) expect(shown).not.toContain(form);
    await expect(playground.trace).toContainText(`Helsinki. Authenticated as ${MARKER} (${MARKER}; ${MARKER}).`);
    // The history, as stored.
    const stored = await storedHistory(page);
    expect(stored).toContain(MARKER);
    for (const form of forms) expect(stored).not.toContain(form);
    // An export.
    const history = await openSideTab(page, 'History');
    const rows = history.getByRole('list', { name: 'Stored runs' }).getByRole('article');
    const download = page.waitForEvent('download');
    await rows.first().getByRole('button', { name: 'Export' }).click();
    const exported = await readFile(await (await download).path(), 'utf8');
    expect(exported).toContain(MARKER);
    for (const form of forms) expect(exported).not.toContain(form);

    // A run that still holds the key (kept by an earlier version, or imported): its export is
    // refused after the last scan, naming the provider and not the key.
    const leaked = exported.replaceAll(MARKER, encodeURIComponent(ECHOED)).replaceAll('"runId":"', '"runId":"old-').replace(/"id":"/, '"id":"old-');
    await history.getByTestId('history-import-input').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(leaked) });
    await expect(history.getByRole('status')).toContainText('Imported 1 run');
    const old = rows.filter({ hasText: 'Answered' }).first();
    await expect(rows).toHaveCount(2);
    let downloaded = false;
    page.on('download', () => (downloaded = true));
    await history.getByRole('button', { name: /Export all/ }).click();
    await expect(history.getByRole('alert')).toContainText('The export was not written: it holds the API key of "scripted"');
    expect(await history.getByRole('alert').innerText()).not.toContain(ECHOED);
    expect(downloaded).toBe(false);
    await expect(old).toBeVisible();
  });
});

// Issue 31's proofs (items 2, 3 and 10): a hostile endpoint echoes the key it was sent in forms the
// redactor once missed. Whatever it sends, no request body the server receives, nothing IndexedDB
// keeps and no export holds any of the key, in any form Node's own decoders would turn back into it.
test.describe('keys echoed in forms a parser turns back into the key', () => {
  const ECHOED = 'sk-proj-browserEcho7Qm3vT8pX2rLk9wZc4nHs';
  const MARKER = '[scripted API key removed]';
  /** The orchestrator searches with the key JSON-escaped (a server-parsed call), then with it as
   * base64 wrapped over lines (a call written as text), then answers, its reasoning ending inside
   * the key (the stream stops there). */
  const hostile: Scenario = {
    models: {
      [ORCHESTRATOR]: [
        { content: '', toolCalls: [{ name: 'search_corpus', arguments: '{"query": "Helsinki {{api_key_json_u}}"}' }], chunkSize: 5 },
        { content: '<tool_call>\n{"name": "search_corpus", "arguments": {"query": "Finland {{api_key_base64_lines_json}}"}}\n</tool_call>', chunkSize: 5 },
        { reasoning: 'Signed in as {{api_key_cut}}', content: '<message>Helsinki</message>', chunkSize: 5 },
      ],
    },
  };

  const postBodies = (server: ScriptedServer) => server.requests.filter((request) => request.method === 'POST').map((request) => JSON.stringify(request.body));

  async function exportAll(page: Page): Promise<string> {
    const history = await openSideTab(page, 'History');
    const download = page.waitForEvent('download');
    await history.getByRole('button', { name: /Export all/ }).click();
    return readFile(await (await download).path(), 'utf8');
  }

  test('JSON-escaped and wrapped base64 in tool calls, a stream cut inside the key: the tool gets the marker, and no request, store or export holds the key', async ({ page, playground, scripted }) => {
    const server = await scripted.start(hostile);
    await playground.open();
    await playground.importConfig(lightConfig(server.url, { functionCalling: { system: 'Be brief.', tools: ['search_corpus'] } }));
    await setKey(page, 'scripted', false, ECHOED);
    await runAndExpect(playground, 'Answered');

    // The search tool was handed the marker, and the trace shows it, where the key was.
    await expect(playground.trace).toContainText(`Helsinki ${MARKER}`);
    await expect(playground.trace).toContainText(`Finland ${MARKER}`);
    for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
      await page.setViewportSize({ width, height });
      const shown = playground.trace.getByText(`Helsinki ${MARKER}`).first();
      await shown.scrollIntoViewIfNeeded();
      await expect(shown).toBeInViewport();
      await page.screenshot({ path: test.info().outputPath(`key-forms-trace-${width}x${height}.png`) });
    }
    const bodies = postBodies(server);
    expect(bodies).toHaveLength(3);
    // The second and third requests carry the calls back: the marker, never the key.
    expect(bodies[2]).toContain(MARKER);
    for (const body of bodies) expect(longestPieceOfKey(body, ECHOED)).toBeLessThanOrEqual(MAX_KEY_PIECE);
    expect(longestPieceOfKey(await page.locator('body').innerText(), ECHOED)).toBeLessThanOrEqual(MAX_KEY_PIECE);
    expect(longestPieceOfKey(await storedHistory(page), ECHOED)).toBeLessThanOrEqual(MAX_KEY_PIECE);
    const exported = await exportAll(page);
    expect(exported).toContain(MARKER);
    expect(longestPieceOfKey(exported, ECHOED)).toBeLessThanOrEqual(MAX_KEY_PIECE);
  });

  test('a 401 that echoes the key across its 300th character shows *** on screen, in the store and in the export, none of the key', async ({ page, playground, scripted }) => {
    const server = await scripted.start({
      models: { [ORCHESTRATOR]: [{ repeat: true, content: 'never', fault: { kind: 'status', status: 401, message: `Incorrect API key provided: ${'x'.repeat(255)}{{api_key}}.`, times: 10 } }] },
    });
    await playground.open();
    await playground.importConfig(lightConfig(server.url));
    await setKey(page, 'scripted', false, ECHOED);
    await runAndExpect(playground, 'Stopped by an error');
    await expect(playground.runStatus).toContainText(`${'x'.repeat(20)}***`);
    for (const [width, height] of [[1280, 720], [1920, 1080]] as const) {
      await page.setViewportSize({ width, height });
      // The marker is on screen, not clipped by the unbroken run of x before it.
      const marker = await playground.runStatus.evaluate((status) => {
        const range = document.createRange();
        const walker = document.createTreeWalker(status, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent?.indexOf('***') ?? -1;
          if (at === -1) continue;
          range.setStart(node, at);
          range.setEnd(node, at + 3);
          const box = range.getBoundingClientRect();
          const frame = status.getBoundingClientRect();
          return { inside: box.left >= frame.left && box.right <= frame.right && box.bottom <= frame.bottom, right: box.right };
        }
        return null;
      });
      expect(marker).toMatchObject({ inside: true });
      await page.screenshot({ path: test.info().outputPath(`key-forms-401-${width}x${height}.png`) });
    }
    expect(longestPieceOfKey(await page.locator('body').innerText(), ECHOED)).toBeLessThanOrEqual(MAX_KEY_PIECE);
    expect(longestPieceOfKey(await storedHistory(page), ECHOED)).toBeLessThanOrEqual(MAX_KEY_PIECE);
    expect(longestPieceOfKey(await exportAll(page), ECHOED)).toBeLessThanOrEqual(MAX_KEY_PIECE);
  });

  test('the last scan before an export decodes what it scans: a run imported with the key JSON-escaped or as wrapped base64 is not exported', async ({ page, playground, scripted }) => {
    const server = await scripted.start(directAnswer);
    await playground.open();
    await playground.importConfig(lightConfig(server.url));
    await setKey(page, 'scripted', false, ECHOED);
    await runAndExpect(playground, 'Answered');
    const clean = await exportAll(page);
    const history = await openSideTab(page, 'History');
    // Escaped twice, so that it is still escaped once the import has parsed the file's JSON.
    const escaped = [...ECHOED].map((char) => `\\\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const wrapped = Buffer.from(ECHOED).toString('base64').replace(/.{16}(?=.)/g, '$&\\r\\n');
    for (const [name, form] of [['escaped', escaped], ['wrapped', wrapped]] as const) {
      const leaked = clean.replace('Helsinki', `Helsinki ${form}`).replaceAll('"runId":"', `"runId":"${name}-`).replace(/"id":"/, `"id":"${name}-`);
      expect(leaked).not.toContain(ECHOED);
      await history.getByTestId('history-import-input').setInputFiles({ name: `${name}.json`, mimeType: 'application/json', buffer: Buffer.from(leaked) });
      await expect(history.getByRole('status')).toContainText('Imported 1 run');
    }
    let downloaded = false;
    page.on('download', () => (downloaded = true));
    await history.getByRole('button', { name: /Export all/ }).click();
    await expect(history.getByRole('alert')).toContainText('The export was not written: it holds the API key of "scripted"');
    expect(downloaded).toBe(false);
  });
});
