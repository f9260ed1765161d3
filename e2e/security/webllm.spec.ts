// Imported configs that name code (docs/security.md, "Models in the browser"): a web-llm provider's
// `weightsUrl` and `modelLibUrl` from a config load files, and code, onto the GPU. The page asks
// before using an address that is not web-llm's catalogue, once per address, and remembers the
// answer only with the config it was given for. The model worker is the test double at the GPU
// boundary (support/fakeWebllm.ts); it records in Cache Storage, as web-llm does, which weights
// and which model library a load used.

import type { Page } from '@playwright/test';
import { serveFakeModelWorkers } from '../support/fakeWebllm.ts';
import { expect, test } from './fixtures.ts';

const LABEL = 'Orchestrator-8B (q4f32, your weights)';

// The machine running these is shared and slow: every wait is generous.
test.describe.configure({ timeout: 120_000 });
const MODEL_ID = 'Orchestrator-8B-q4f32_1-MLC';

function configNaming(weightsUrl: string, modelLibUrl: string): Record<string, unknown> {
  return {
    protocol: 'function-calling',
    providers: { local: { kind: 'webllm', models: { [MODEL_ID]: { weightsUrl, quantization: 'q4f32_1', modelLibUrl } } } },
    orchestrator: { provider: 'local', model: MODEL_ID, toolMode: 'prompt' },
    experts: {},
  };
}

function modelRow(page: Page) {
  return page.getByRole('region', { name: 'Models in this browser' }).getByRole('group', { name: LABEL, exact: true });
}

/** The addresses web-llm's caches hold: the weights' shard list and the model library. */
async function cachedAddresses(page: Page): Promise<{ weights: string[]; libraries: string[] }> {
  return page.evaluate(async () => ({
    weights: (await (await caches.open('webllm/model')).keys()).map((request) => request.url).filter((url) => url.endsWith('tensor-cache.json')),
    libraries: (await (await caches.open('webllm/wasm')).keys()).map((request) => request.url),
  }));
}

test.describe('web-llm addresses from a config', () => {
  test('asks before loading weights and a model library from outside the catalogue, once per address and config', { tag: '@webgpu' }, async ({
    page,
    playground,
    sink,
  }) => {
    const workers = await serveFakeModelWorkers(page, [{ loads: [{ stepDelayMs: 10 }] }, { loads: [{ stepDelayMs: 10 }] }, { loads: [{ stepDelayMs: 10 }] }]);
    const weightsUrl = `${sink.url}/you/Orchestrator-8B-q4f32_1-MLC/resolve/main/`;
    const libraryUrl = `${sink.url}/lib/Orchestrator-8B-webgpu.wasm`;
    await playground.open();
    await playground.importConfig(configNaming(weightsUrl, libraryUrl), 'shared.json');
    await playground.openTab('Models');
    const panel = page.getByRole('region', { name: 'Models in this browser' });
    await expect(panel.getByLabel('Weights URL')).toHaveValue(weightsUrl);
    await expect(panel.getByLabel('Model library URL (optional)')).toHaveValue(libraryUrl);

    const row = modelRow(page);
    await row.getByRole('button', { name: 'Load…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Download ${LABEL}?` });
    const note = dialog.getByRole('note', { name: 'Addresses outside the catalogue' });
    await expect(note).toContainText('These files do not come from web-llm’s catalogue.');
    await expect(note).toContainText(`Weights: ${weightsUrl}`);
    await expect(note).toContainText(`Model library (code that runs on this computer’s GPU): ${libraryUrl}`);

    // "Not now" loads nothing: no model worker started.
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(dialog).toBeHidden();
    expect(workers.served).toBe(0);

    await row.getByRole('button', { name: 'Load…', exact: true }).click();
    await dialog.getByRole('button', { name: /^Trust them and download [\d.]+ GB and load$/ }).click();
    await expect(row).toContainText('Loaded · 4,096 tokens', { timeout: 15_000 });
    expect(await cachedAddresses(page)).toEqual({ weights: [`${weightsUrl}tensor-cache.json`], libraries: [libraryUrl] });

    // Agreed once for this config: after a reload the cached model loads without asking again.
    await row.getByRole('button', { name: 'Unload', exact: true }).click();
    await page.reload();
    // The cache is read once the panel is on screen.
    await modelRow(page).scrollIntoViewIfNeeded();
    await modelRow(page).getByRole('button', { name: 'Load', exact: true }).click();
    await expect(modelRow(page)).toContainText('Loaded · 4,096 tokens', { timeout: 15_000 });
    await modelRow(page).getByRole('button', { name: 'Unload', exact: true }).click();

    // Another config is another choice: the same addresses are asked about again.
    await playground.importConfig(configNaming(weightsUrl, libraryUrl), 'another.json');
    await modelRow(page).getByRole('button', { name: 'Load…', exact: true }).click();
    const again = page.getByRole('dialog', { name: `Load ${LABEL}?` });
    await expect(again.getByRole('note', { name: 'Addresses outside the catalogue' })).toContainText(libraryUrl);
    await again.getByRole('button', { name: 'Not now' }).click();
    expect(workers.served).toBe(2);
  });

  test('a catalogue model loads without that question', { tag: '@webgpu' }, async ({ page, playground }) => {
    await serveFakeModelWorkers(page, [{ loads: [{ stepDelayMs: 10 }] }]);
    await playground.open();
    await playground.openTab('Models');
    const row = page.getByRole('region', { name: 'Models in this browser' }).getByRole('group', { name: 'Qwen3 0.6B (q4f32)', exact: true });
    await row.getByRole('button', { name: 'Load…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Download Qwen3 0.6B (q4f32)?' });
    await expect(dialog.getByRole('note', { name: 'Addresses outside the catalogue' })).toHaveCount(0);
    await dialog.getByRole('button', { name: /^Download [\d.]+ (MB|GB) and load$/ }).click();
    await expect(row).toContainText('Loaded · 4,096 tokens', { timeout: 15_000 });
  });
});
