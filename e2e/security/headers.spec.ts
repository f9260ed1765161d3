// The headers the app is served with (server/securityHeaders.ts), in the real browser against the
// production build: the page's Content-Security-Policy and each worker's own, cross-origin
// isolation, and every part of the app working under them with no violation anywhere — Python
// (Pyodide), QuickJS, pdf.js, Monaco, the charts, and web-llm's downloads from Hugging Face and
// GitHub (routed here: this machine has no internet).

import { minimalPdf } from '../fixtures/minimalPdf.ts';
import { DOCUMENT_DIRECTIVES, headersFor, installedPyodideVersion, serializePolicy, workerPolicies, workerPolicyFor } from '../../server/securityHeaders.ts';
import { syntheticRun } from '../fixtures/syntheticRun.ts';
import { runFileText } from './hostileFiles.ts';
import { loadScenario, openSideTab, scriptedConfig } from '../support/playground.ts';
import { expect, test } from './fixtures.ts';
import { WorkerInspector } from './support.ts';


const pyodideVersion = installedPyodideVersion();

test('the page and every worker come with their own policy and cross-origin isolation; a run uses them with no violation', async ({
  page,
  playground,
  scripted,
  request,
  sink: _sink,
}) => {
  test.setTimeout(240_000);
  const inspector = await WorkerInspector.attach(page);
  const response = await page.goto('/');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toBe(serializePolicy(DOCUMENT_DIRECTIVES));
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
  expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);

  // A run that searches, runs Python (which boots under its policy) and answers.
  const server = await scripted.start(loadScenario('cli-paper-prompt'));
  await playground.task.waitFor();
  await playground.importConfig(scriptedConfig(server.url));
  await playground.run('What is the population of the capital of Finland?');
  await playground.waitForFinish(200_000);
  await expect(playground.trace).toContainText('Helsinki population in thousands: 558.5');
  // The cost chart (drawn by the page, issue 26) renders under the policy too.
  await expect(page.getByRole('region', { name: 'Cost and latency' }).locator('.step-chart-plot svg').first()).toBeVisible();

  // Isolated all the way down, so the orchestrator worker can hand Python its interrupt buffer.
  expect(await inspector.evaluate('orchestrator.worker', 'crossOriginIsolated')).toBe(true);
  expect(await inspector.evaluate('python.worker', 'crossOriginIsolated')).toBe(true);

  for (const url of inspector.workerUrls()) {
    const served = await request.get(url);
    const expected = headersFor(new URL(url).pathname, { pyodideVersion, documentPolicy: true });
    expect(served.headers()['content-security-policy'], url).toBe(expected['Content-Security-Policy']);
    expect(served.headers()['cross-origin-embedder-policy'], url).toBe('require-corp');
  }
  expect(inspector.workerUrls().map((url) => new URL(url).pathname.split('/').pop()?.split('-')[0])).toEqual(
    expect.arrayContaining(['orchestrator.worker', 'python.worker']),
  );
  expect(inspector.violations()).toEqual([]);
  await inspector.detach();
});

test('History’s short-lived workers, the run file import and export, come with their own policy and work under it', async ({ page, request, sink: _sink }) => {
  const inspector = await WorkerInspector.attach(page);
  await page.goto('/');
  const history = await openSideTab(page, 'History');
  const run = { id: 'headers-run', events: syntheticRun('headers-run', 1, 2) };
  await history.getByTestId('history-import-input').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(runFileText([run])) });
  await expect(history.getByRole('status')).toContainText('Imported 1 run');
  const download = page.waitForEvent('download');
  await history.getByRole('list', { name: 'Stored runs' }).getByRole('article').first().getByRole('button', { name: 'Export' }).click();
  expect(await (await download).failure()).toBeNull();
  await expect(history.getByRole('status')).toContainText('Exported 1 run.');

  for (const stem of ['runFileImport.worker', 'runFileExport.worker']) {
    const url = inspector.workerUrls().find((candidate) => new URL(candidate).pathname.split('/').pop()!.startsWith(`${stem}-`));
    expect(url, stem).toBeDefined();
    const policy = workerPolicyFor(new URL(url!).pathname, workerPolicies(pyodideVersion));
    expect(policy?.stem, url).toBe(stem);
    const served = await request.get(url!);
    expect(served.headers()['content-security-policy'], url).toBe(serializePolicy(policy!.directives));
    expect(served.headers()['cross-origin-embedder-policy'], url).toBe('require-corp');
  }
  expect(inspector.violations()).toEqual([]);
  await inspector.detach();
});

test('Monaco, QuickJS and pdf.js work under their policies with no violation', async ({ page, sink: _sink }) => {
  test.setTimeout(180_000);
  const inspector = await WorkerInspector.attach(page);
  await page.goto('/');

  // A tool written in Monaco and tried in QuickJS.
  await openSideTab(page, 'Tools');
  const tools = page.getByRole('region', { name: 'Tools', exact: true });
  await tools.getByRole('button', { name: 'New tool' }).click();
  const code = tools.getByRole('group', { name: 'Implementation (JavaScript)' });
  await code.locator('.view-lines').click({ timeout: 60_000 });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('return 6 * 7;');
  await tools.getByRole('button', { name: 'Try it' }).click();
  await expect(tools.getByRole('region', { name: 'Try it result' })).toContainText('42', { timeout: 60_000 });

  // A PDF read by pdf.js in its worker, inside the documents worker.
  await openSideTab(page, 'Documents');
  const chooser = page.waitForEvent('filechooser');
  const documents = page.getByRole('region', { name: 'Documents' });
  await documents.getByRole('button', { name: 'Add documents' }).click();
  await (await chooser).setFiles([{ name: 'report.pdf', mimeType: 'application/pdf', buffer: minimalPdf([['The ferry carried 40 cars.']]) }]);
  await expect(documents).toContainText('report.pdf', { timeout: 60_000 });
  await expect(documents).not.toContainText('reading', { timeout: 60_000 });
  await expect(documents.getByRole('alert')).toHaveCount(0);

  expect(inspector.workerUrls().map((url) => new URL(url).pathname.split('/').pop()?.split('-')[0])).toEqual(
    expect.arrayContaining(['javascript.worker', 'documents.worker', 'pdf.worker.min']),
  );
  expect(inspector.violations()).toEqual([]);
  await inspector.detach();
});

test('web-llm downloads a model’s files from Hugging Face and GitHub under the headers', { tag: '@webgpu' }, async ({ page, sink: _sink }) => {
  test.setTimeout(120_000);
  const inspector = await WorkerInspector.attach(page);
  const cors = { 'access-control-allow-origin': '*' };
  const asked: string[] = [];
  // What the real hosts send: CORS, and (GitHub) CORP cross-origin. The chat config is the
  // smallest web-llm accepts; the model library is an empty WebAssembly module, which web-llm
  // compiles (under 'wasm-unsafe-eval') and then rejects for what it lacks.
  await page.route('https://huggingface.co/**', (route) => {
    asked.push(route.request().url());
    return route.fulfill({ headers: cors, contentType: 'application/json', body: JSON.stringify({ conv_template: {}, context_window_size: 4096 }) });
  });
  await page.route('https://raw.githubusercontent.com/**', (route) => {
    asked.push(route.request().url());
    return route.fulfill({
      headers: { ...cors, 'cross-origin-resource-policy': 'cross-origin' },
      contentType: 'application/wasm',
      body: Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]),
    });
  });
  await page.goto('/');
  await openSideTab(page, 'Models');
  const row = page.getByRole('region', { name: 'Models in this browser' }).getByRole('group', { name: 'Qwen3 0.6B (q4f32)', exact: true });
  await row.getByRole('button', { name: 'Load…', exact: true }).click();
  await page.getByRole('dialog', { name: 'Download Qwen3 0.6B (q4f32)?' }).getByRole('button', { name: /^Download/ }).click();
  // The configuration was read (cross-origin, through the Cache API), so the library was asked for.
  await expect.poll(() => asked.some((url) => url.startsWith('https://raw.githubusercontent.com/')), { timeout: 60_000 }).toBe(true);
  expect(asked[0]).toMatch(/^https:\/\/huggingface\.co\/mlc-ai\/Qwen3-0\.6B-q4f32_1-MLC\/resolve\/main\/mlc-chat-config\.json$/);
  // It fails on what the empty library lacks, past the download and the compile.
  const alert = row.getByRole('alert');
  await expect(alert).toBeVisible({ timeout: 60_000 });
  expect(await alert.textContent()).not.toMatch(/Content Security Policy|refused|CORS|blocked|network/i);
  expect(inspector.workerUrls().some((url) => url.includes('webllm.worker'))).toBe(true);
  expect(inspector.violations()).toEqual([]);
  await inspector.detach();
});
