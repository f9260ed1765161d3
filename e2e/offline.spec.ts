// Offline use, with the service worker the rest of the browser tests block: after one visit the
// app opens with the network cut (Playwright's offline mode), reads its corpus and runs Python;
// "Try the demo" runs to its answer, Python included; a run with models in this browser searches the corpus and runs Python offline; API responses
// and keys are never kept; a new build is offered as an update and taken on reload.

import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import type { SampleTask } from '../tools/search/sampleTasks.ts';
import type { FakeEngineScript, FakeReply } from './fixtures/doubles/fakeWebLlmEngine.ts';
import { CACHE_PREFIX } from '../workers/hosts/offline/cachePolicy.ts';
import { formatToolCall } from '../workers/engine/qwen3/render.ts';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { startStaticSite } from './fixtures/staticSite.ts';
import { serveFakeModelWorkers } from './support/fakeWebllm.ts';
import { expect, openSideTab, scriptedConfig, test } from './support/playground.ts';

test.use({ serviceWorkers: 'allow' });
// The first visit saves about 32 MB (Pyodide is most of it) and Python starts from scratch.
test.describe.configure({ timeout: 180_000 });

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
const KEY = 'not-a-real-key-offline-spec-placeholder';

function offlineStatus(page: Page): Locator {
  return page.getByRole('status', { name: 'Offline use' });
}

/** Waits until the service worker has saved everything and controls the page. */
async function waitUntilSaved(page: Page): Promise<void> {
  await expect(offlineStatus(page)).toHaveText('Works offline', { timeout: 120_000 });
}

/** Every request URL kept in the app's caches. */
async function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async (prefix) => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith(prefix)) continue;
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  }, CACHE_PREFIX);
}

function quickAnswer(): Scenario {
  return {
    models: {
      [ORCHESTRATOR]: [{ content: '<tool_call>\n{"name": "answer", "arguments": {"model": "answer-1"}}\n</tool_call>', usage: { prompt_tokens: 900, completion_tokens: 20 } }],
      'scripted/answerer': [{ content: '<answer>Helsinki</answer>', usage: { prompt_tokens: 300, completion_tokens: 5 } }],
    },
  };
}

test.describe('offline after the first visit', () => {
  test('the app opens, lists its sample tasks, reads its corpus and runs Python with the network cut; API calls and keys are never kept', async ({
    playground,
    page,
    context,
    scripted,
  }) => {
    const server = await scripted.start(quickAnswer());
    await playground.open();
    await waitUntilSaved(page);

    // Online, with the service worker in charge, a run (with a key) reaches the model server.
    await playground.importConfig(scriptedConfig(server.url));
    const setup = await playground.openTab('Setup');
    const keyRow = setup.getByRole('group', { name: 'Key for scripted' });
    const keys = setup.locator('details').filter({ has: page.locator('summary', { hasText: 'API keys' }) });
    if ((await keys.getAttribute('open')) === null) await keys.locator('summary').click();
    await keyRow.getByLabel('API key for scripted').fill(KEY);
    await keyRow.getByRole('button', { name: 'Set key' }).click();
    await playground.run('What is the capital of Finland?');
    await playground.waitForFinish();
    await expect(playground.runStatus).toContainText('Answered');
    expect(server.requests.some((request) => request.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    // Python's harness page, visited once.
    await page.goto('/e2e/harness/python.html');
    await expect(page.locator('#status')).toHaveText('ready');

    const kept = await cachedUrls(page);
    const origin = new URL(page.url()).origin;
    expect(kept.length).toBeGreaterThan(20);
    // Only this origin's build files and pages: nothing of the model server, nothing with a key.
    expect(kept.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(kept.filter((url) => url.includes(new URL(server.url).host) || url.includes(KEY) || url.includes('/v1/'))).toEqual([]);
    for (const path of ['/', '/index.html', '/generated/corpus.json', '/pyodide/pyodide.asm.wasm', '/pyodide/python_stdlib.zip']) {
      expect(kept).toContain(new URL(path === '/' ? '/index.html' : path, origin).href);
    }

    await context.setOffline(true);
    await page.goto('/');
    // Chromium 150 drops the emulated offline state when this cross-origin isolated page comes
    // back in a new renderer process; set it again so the page (and its workers) see it.
    await context.setOffline(false);
    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await expect(page.getByRole('heading', { level: 1, name: 'Orchestra Playground' })).toBeVisible();
    await expect(offlineStatus(page)).toHaveText('Works offline');
    // The sample tasks and the corpus come from the saved copy.
    await expect(page.getByRole('combobox', { name: /Sample task/ }).getByRole('option')).toHaveCount(51);
    const corpus = await page.evaluate(async () => {
      const response = await fetch('generated/corpus.json');
      return { status: response.status, documents: ((await response.json()) as unknown[]).length };
    });
    expect(corpus).toEqual({ status: 200, documents: 2762 });
    // A remote model cannot be reached offline, and the run says so.
    await playground.importConfig(scriptedConfig(server.url));
    await playground.run('What is the capital of Finland?');
    await playground.waitForFinish();
    await expect(playground.runStatus).toContainText('This browser is offline');

    // Python (Pyodide, its standard library included) from the saved copy, in a worker.
    await page.goto('/e2e/harness/python.html');
    await expect(page.locator('#status')).toHaveText('ready');
    const result = await page.evaluate(() => window.pythonHarness.run('import statistics\nprint(statistics.mean([558457, 1000]))', 90_000));
    expect(result).toMatchObject({ stdout: '279728.5\n', error: null, timedOut: false });
  });

  test('"Try the demo" runs to its answer with the network cut, Python included', async ({ playground, page, context }) => {
    const samples = (await (await page.request.get('/generated/sample-tasks.json')).json()) as SampleTask[];
    await playground.open();
    await waitUntilSaved(page);

    await context.setOffline(true);
    await page.reload();
    await expect(offlineStatus(page)).toHaveText('Works offline');
    // "Best answer": the demo checks the figures with Python before it answers.
    await playground.preferences.getByRole('radio', { name: 'Best answer' }).check();
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await expect(playground.runStatus).toContainText('Running', { timeout: 15_000 });
    await playground.waitForFinish(150_000);

    await expect(playground.runStatus).toContainText('Answered');
    const task = await playground.task.inputValue();
    const sample = samples.find((candidate) => candidate.question === task);
    expect(sample, `"${task}" is one of the sample tasks`).toBeDefined();
    await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText(sample!.answer);
    const route = (await playground.steps().locator('.step-summary').allTextContents()).map((text) => text.trim());
    expect(route).toContain('enhance_reasoning → reasoner-1');
    // Pyodide came from the saved copy and ran the expert's code.
    const output = playground.trace.locator('pre.code-output').first();
    await expect(output).toBeVisible();
    await expect(output).not.toHaveText('(no output)');
    await expect(playground.trace.locator('.code-stderr')).toHaveCount(0);
  });

  test('a new build is offered as an update, and taken on reload without fetching unchanged files again', async ({ page }) => {
    // The build the browser tests run (dist-e2e/), served by a host of our own so that a new one can
    // be deployed mid-test.
    const site = await startStaticSite(fileURLToPath(new URL('../dist-e2e/', import.meta.url)));
    try {
      await page.goto(`${site.url}/`);
      await waitUntilSaved(page);
      const [first] = await page.evaluate(async (prefix) => (await caches.keys()).filter((name) => name.startsWith(prefix)), CACHE_PREFIX);

      // A new build is deployed: its service worker carries another version, the same files.
      const current = await (await fetch(`${site.url}/sw.js`)).text();
      const next = current.replace(/(\\"version\\":\\")[0-9a-f]+/, '$1next-build');
      expect(next).not.toBe(current);
      site.replace('/sw.js', next);
      const requestsBefore = site.requests.length;
      // The browser looks for a new service worker on each page load.
      await page.reload();
      await expect(offlineStatus(page)).toContainText('A new version is ready.', { timeout: 60_000 });
      // Its files were all saved already: copied over, not downloaded again.
      expect(site.requests.slice(requestsBefore).filter((path) => path !== '/sw.js')).toEqual([]);

      // The page reloads itself once the new build takes over: until then it says so, and never
      // "Works offline" (the new build activates a moment before it takes over the page).
      const shown: string[] = [];
      await page.exposeFunction('recordOfflineStatus', (text: string) => shown.push(text));
      await page.evaluate(`(() => {
        const status = document.querySelector('[role="status"][aria-label="Offline use"]');
        new MutationObserver(() => recordOfflineStatus(status.textContent)).observe(status, { subtree: true, childList: true, characterData: true });
      })()`);
      const reloaded = page.waitForEvent('load', { timeout: 60_000 });
      await offlineStatus(page).getByRole('button', { name: 'Reload' }).click();
      await reloaded;
      expect(shown[0]).toBe('Reloading into the new version…');
      expect(shown).not.toContain('Works offline');
      await expect(offlineStatus(page)).toHaveText('Works offline', { timeout: 60_000 });
      const names = await page.evaluate(async (prefix) => (await caches.keys()).filter((name) => name.startsWith(prefix)), CACHE_PREFIX);
      expect(names).toContain(`${CACHE_PREFIX}next-build`);
      expect(names).not.toContain(first);
    } finally {
      await site.close();
    }
  });

  test('a run with models in this browser searches the corpus and runs Python with the network cut', { tag: '@webgpu' }, async ({
    playground,
    page,
    context,
  }) => {
    const call = (name: string, args: Record<string, unknown>) => formatToolCall({ name, arguments: args });
    const reply = (text: string): FakeReply => ({ deltas: text.match(/[\s\S]{1,8}/g) ?? [], usage: { promptTokens: 200 }, chunkDelayMs: 5 });
    const orchestrator: FakeEngineScript = {
      loads: [{ stepDelayMs: 10 }],
      replies: [
        reply(`<think>\nLook it up.\n</think>\n\n${call('search_corpus', { query: 'Helsinki population' })}`),
        reply(`<think>\nIn thousands.\n</think>\n\n${call('run_python', { code: 'print(558457 // 1000)' })}`),
        reply('<message>Helsinki has about 558 thousand people.</message>'),
      ],
    };
    // The service worker fetches the model worker's script itself: the context's route answers it.
    await serveFakeModelWorkers(context, [orchestrator]);
    await playground.open();
    await waitUntilSaved(page);
    // Loaded once online, so web-llm's own scripts are saved too.
    await loadLocalModel(page);

    await context.setOffline(true);
    await page.reload();
    await expect(offlineStatus(page)).toHaveText('Works offline');
    const row = await loadLocalModel(page);
    await row.getByRole('button', { name: 'Use as orchestrator' }).click();
    await playground.openTab('Task');
    await page.getByRole('radio', { name: /Function calling/ }).check();
    await playground.run('How many thousand people live in Helsinki?');
    await playground.waitForFinish(120_000);

    await expect(playground.runStatus).toContainText('Answered');
    const [search, python] = [playground.steps().nth(0), playground.steps().nth(1)];
    await expect(search.getByRole('group', { name: 'Call search_corpus' })).toContainText('Helsinki');
    await expect(python.locator('pre.code-output')).toHaveText('558\n');
    await expect(playground.trace).toContainText('Helsinki has about 558 thousand people.');
  });
});

/** Loads the small orchestrator model in the Models tab (asking to download only the first time). */
async function loadLocalModel(page: Page): Promise<Locator> {
  const label = 'Qwen3 0.6B (q4f32)';
  const models = await openSideTab(page, 'Models');
  const row = models.getByRole('group', { name: label, exact: true });
  await row.getByRole('button', { name: /^Load/ }).click();
  // It asks "Download …?" the first time and "Load …?" once the files are kept; this helper
  // serves both visits.
  const dialog = page.getByRole('dialog', { name: /^(Download|Load) Qwen3 0\.6B \(q4f32\)\?$/ });
  const loaded = row.getByText('Loaded · 4,096 tokens');
  await expect(dialog.or(loaded)).toBeVisible({ timeout: 30_000 });
  if (await dialog.isVisible()) await dialog.getByRole('button', { name: /^(Download|Load)/ }).click();
  await expect(loaded).toBeVisible({ timeout: 30_000 });
  return row;
}
