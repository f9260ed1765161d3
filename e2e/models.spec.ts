// Models in this browser, in real Chromium: the capability check against the real adapter (none in
// plain headless Chromium; SwiftShader with --enable-unsafe-webgpu), and loading and running
// local models through the real page, orchestrator worker and web-llm's own WebWorkerMLCEngine.
// Only the model worker (web-llm's engine on the GPU, which these machines cannot run) is replaced,
// at its script URL, by the fake engine behind web-llm's worker protocol (support/fakeWebllm.ts).

import type { Locator, Page } from '@playwright/test';
import type { FakeEngineScript, FakeReply } from './fixtures/doubles/fakeWebLlmEngine.ts';
import { formatToolCall } from '../workers/engine/qwen3/render.ts';
import { serveFakeModelWorkers } from './support/fakeWebllm.ts';
import { expect, openSideTab, test, type Playground } from './support/playground.ts';

const ORCHESTRATOR_LABEL = 'Qwen3 0.6B (q4f32)';
const EXPERT_LABEL = 'Qwen3 1.7B (q4f32)';

function modelsPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Models in this browser' });
}

function modelRow(page: Page, label: string): Locator {
  return modelsPanel(page).getByRole('group', { name: label, exact: true });
}

/** Loads a model through the panel as a person would: Load…, confirm the download, wait. */
async function loadModel(page: Page, label: string): Promise<Locator> {
  await openSideTab(page, 'Models');
  const row = modelRow(page, label);
  await row.getByRole('button', { name: 'Load…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Download ${label}?` });
  await expect(dialog).toContainText(/About [\d.]+ (MB|GB) of weights will be downloaded/);
  await dialog.getByRole('button', { name: /^Download [\d.]+ (MB|GB) and load$/ }).click();
  await expect(row).toContainText('Loaded · 4,096 tokens', { timeout: 15_000 });
  return row;
}

const call = (name: string, args: Record<string, unknown>) => formatToolCall({ name, arguments: args });

/** A reply streamed a few characters at a time, with the usage web-llm would report. */
function streamed(text: string, usage: FakeReply['usage'], chunkDelayMs = 15): FakeReply {
  return { deltas: text.match(/[\s\S]{1,6}/g) ?? [], usage, chunkDelayMs };
}

const SLOW_LOAD = { loads: [{ stepDelayMs: 120 }] };

async function chooseFunctionCalling(playground: Playground): Promise<void> {
  await playground.page.getByRole('radio', { name: /Function calling/ }).check();
}

test.describe('models in this browser', () => {
  test('without WebGPU the page says so and offers remote and scripted options', async ({ page, consoleErrors }) => {
    await page.goto('/');
    const status = page.getByRole('status', { name: 'WebGPU' });
    await expect(status).toContainText('WebGPU is not available');
    await expect(status).toContainText('web-llm’s models cannot run in this browser (they need WebGPU). GGUF models can, on the CPU with llama.cpp');
    await expect(status).toContainText('Remote models still can');
    await openSideTab(page, 'Models');
    const panel = modelsPanel(page);
    await expect(panel).toContainText('WebGPU is not available');
    await expect(panel).toContainText('set an OpenAI-compatible or Anthropic endpoint in Setup, or import a config');
    await expect(panel).toContainText('press “Try the demo” on the first screen');
    // No web-llm model to load; llama.cpp's section offers GGUF models instead.
    await expect(panel.locator('.model-list').getByRole('button', { name: /Load/ })).toHaveCount(0);
    await expect(panel.getByRole('heading', { name: 'GGUF models (llama.cpp)' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('the capability check reports what the adapter really has, and the catalogue follows it', { tag: '@webgpu' }, async ({ page, consoleErrors }) => {
    await page.goto('/');
    const adapter = await page.evaluate(async () => {
      const found = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
      if (!found) return null;
      return { vendor: found.info.vendor, architecture: found.info.architecture, software: found.info.isFallbackAdapter === true, shaderF16: found.features.has('shader-f16') };
    });
    if (!adapter) throw new Error('this project runs Chromium with --enable-unsafe-webgpu, which gives an adapter');

    await openSideTab(page, 'Models');
    const panel = modelsPanel(page);
    await expect(panel).toContainText(`WebGPU adapter: ${adapter.vendor}, ${adapter.architecture}`);
    await expect(panel).toContainText(adapter.software ? 'This is a software adapter' : 'This is a hardware adapter.');
    await expect(panel).toContainText(adapter.shaderF16 ? 'shader-f16 is supported' : 'shader-f16 is not supported, so only q4f32 models can run.');
    await expect(page.getByRole('status', { name: 'WebGPU' })).toContainText(
      adapter.shaderF16 ? '8 of 8 models in the catalogue can run here' : '4 of 8 models in the catalogue can run here (the q4f32 ones',
    );

    for (const size of ['0.6B', '1.7B', '4B', '8B']) {
      const f16 = modelRow(page, `Qwen3 ${size} (q4f16)`);
      const f32 = modelRow(page, `Qwen3 ${size} (q4f32)`);
      if (adapter.shaderF16) {
        await expect(f16.getByRole('button', { name: 'Load…', exact: true })).toBeEnabled();
      } else {
        await expect(f16).toContainText('Not available here');
        await expect(f16).toContainText(`Qwen3 ${size} (q4f16) needs shader-f16, which this GPU lacks: use the q4f32 variant.`);
        await expect(f16.getByRole('button', { name: /Load/ })).toHaveCount(0);
      }
      await expect(f32).not.toContainText('Not available here');
      await expect(f32).toContainText(/Download ≈ [\d.]+ (MB|GB) · GPU memory ≈ [\d.]+ GB at 4,096 tokens/);
      await expect(f32.getByRole('button', { name: 'Load…', exact: true })).toBeEnabled();
    }

    // The window's KV memory shows before anything loads, and the GPU memory estimate follows it.
    const row = modelRow(page, 'Qwen3 4B (q4f32)');
    const window = row.getByRole('combobox', { name: 'Context window' });
    await expect(window.locator('option:checked')).toHaveText('4,096 tokens (KV cache 1.2 GB)');
    // web-llm's own figure for Qwen3-4B q4f32 at 4,096 tokens: 4,328 MB.
    await expect(row).toContainText('GPU memory ≈ 4.2 GB at 4,096 tokens');
    await window.selectOption('16384');
    // 12,288 more tokens of KV cache at 288 KiB each (36 layers × 8 × 128 × 2 × 4 bytes).
    await expect(row).toContainText('GPU memory ≈ 7.6 GB at 16,384 tokens');

    // Asking before a download, and "Not now" loads nothing.
    await row.getByRole('button', { name: 'Load…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Download Qwen3 4B (q4f32)?' });
    await expect(dialog).toContainText('With a 16,384-token context window it then takes about');
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByRole('progressbar')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('loads with one progress bar, cancels, and shows a failed load in plain words', { tag: '@webgpu' }, async ({ page }) => {
    await serveFakeModelWorkers(page, [
      { loads: [{ stepDelayMs: 200 }] },
      { loads: [{ stepDelayMs: 60, error: { kind: 'quota', afterReports: 3 } }] },
      SLOW_LOAD,
    ]);
    await page.goto('/');
    await openSideTab(page, 'Models');
    const row = modelRow(page, ORCHESTRATOR_LABEL);
    await row.getByRole('button', { name: 'Load…', exact: true }).click();
    await page.getByRole('dialog', { name: `Download ${ORCHESTRATOR_LABEL}?` }).getByRole('button', { name: /^Download/ }).click();

    const bar = row.getByRole('progressbar', { name: `Loading ${ORCHESTRATOR_LABEL}` });
    await expect(bar).toBeVisible();
    // The first load also brings web-llm's runtime into the orchestrator worker.
    await expect(row).toContainText(/Downloading: \d+ MB of \d+ MB · about \d+ s left/, { timeout: 15_000 });
    await row.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(bar).toBeHidden({ timeout: 2000 });
    await expect(row.getByRole('button', { name: 'Load…', exact: true })).toBeEnabled();
    await expect(row.getByRole('alert')).toHaveCount(0);

    // The second model worker fails with web-llm's quota error.
    await row.getByRole('button', { name: 'Load…', exact: true }).click();
    await page.getByRole('dialog', { name: `Download ${ORCHESTRATOR_LABEL}?` }).getByRole('button', { name: /^Download/ }).click();
    const alert = row.getByRole('alert');
    await expect(alert).toContainText('The browser has no room left for the model’s files.');
    await expect(alert).toContainText('storage quota is used up. Delete cached models you no longer need');
    await expect(alert).toContainText(/This site stores [\d.]+ GB of the [\d.]+ GB the browser allows it/);

    // The third loads, and leaves its files in the browser cache as web-llm does: web-llm's own
    // cache check then finds them, the next load asks nothing, and they can be deleted.
    await row.getByRole('button', { name: 'Load…', exact: true }).click();
    await page.getByRole('dialog', { name: `Download ${ORCHESTRATOR_LABEL}?` }).getByRole('button', { name: /^Download/ }).click();
    await expect(alert).toBeHidden();
    await expect(row).toContainText(/Copying to the GPU|Compiling GPU shaders/);
    await expect(row).toContainText('Loaded · 4,096 tokens', { timeout: 15_000 });
    await expect(row.getByText('In cache', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: 'Unload', exact: true }).click();
    await expect(row.getByRole('button', { name: 'Load', exact: true })).toBeEnabled();
    await row.getByRole('button', { name: 'Delete from cache', exact: true }).click();
    await expect(row.getByText('In cache', { exact: true })).toBeHidden();
    await expect(row.getByRole('button', { name: 'Load…', exact: true })).toBeEnabled();
    // web-llm deletes the shards (it keeps the small shard list).
    const left = await page.evaluate(async () => (await (await caches.open('webllm/model')).keys()).map((request) => request.url));
    expect(left.filter((url) => url.includes('params_shard'))).toEqual([]);
  });

  test('a whole run on local models streams into the trace like a remote one, at $0, with prefill per turn', { tag: '@webgpu' }, async ({
    page,
    playground,
    consoleErrors,
  }) => {
    const orchestrator: FakeEngineScript = {
      loads: [{ stepDelayMs: 20 }],
      replies: [
        streamed(`<think>\nThe corpus should know.\n</think>\n\n${call('search_corpus', { query: 'capital of France' })}`, {
          promptTokens: 812,
          extra: { prefill_tokens_per_s: 951.4, decode_tokens_per_s: 42.46 },
        }),
        // The history only grew: web-llm prefilled just the new turn.
        streamed(`<think>\nThe expert can answer.\n</think>\n\n${call('call_expert', { expert: 'expert-1' })}`, {
          promptTokens: 64,
          extra: { prefill_tokens_per_s: 610.2, decode_tokens_per_s: 41.75 },
        }),
      ],
    };
    const expert: FakeEngineScript = {
      loads: [{ stepDelayMs: 20 }],
      replies: [streamed('<message>Paris is the capital of France.</message>', { promptTokens: 930, extra: { prefill_tokens_per_s: 1204, decode_tokens_per_s: 30.5 } })],
    };
    const modelWorkers = await serveFakeModelWorkers(page, [orchestrator, expert]);
    await playground.open();
    await chooseFunctionCalling(playground);

    const orchestratorRow = await loadModel(page, ORCHESTRATOR_LABEL);
    await orchestratorRow.getByRole('button', { name: 'Use as orchestrator' }).click();
    await expect(orchestratorRow.getByRole('button', { name: 'Is the orchestrator' })).toBeDisabled();
    const expertRow = await loadModel(page, EXPERT_LABEL);
    await expect(expertRow.getByRole('combobox', { name: 'Expert alias' })).toHaveValue('new:call_expert');
    await expertRow.getByRole('button', { name: 'Use as expert' }).click();

    await playground.run('What is the capital of France?');
    // The first turn's call is in the trace (its reasoning folds away once the turn is over, so
    // the check does not depend on how fast the double streams).
    await expect(playground.steps().first()).toContainText('{"query":"capital of France"}');
    await playground.waitForFinish();
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace).toContainText('Paris is the capital of France.');

    const steps = playground.steps();
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(0)).toContainText('prefill 812 tokens at 951 tok/s · decode 42.5 tok/s');
    await expect(steps.nth(1)).toContainText('prefill 64 tokens at 610 tok/s · decode 41.8 tok/s');
    await expect(steps.nth(1)).toContainText('prefill 930 tokens at 1,204 tok/s · decode 30.5 tok/s');
    await expect(steps.nth(0)).toContainText(/first token \d+ ms/);
    await expect(playground.totalCost).toContainText('$0');
    expect(modelWorkers.served).toBe(2);
    expect(consoleErrors).toEqual([]);
  });

  test('Stop interrupts a local model mid-stream; the model then runs again', { tag: '@webgpu' }, async ({ page, playground }) => {
    const thinking = `<think>\n${'Considering it slowly. '.repeat(60)}\n</think>\n\n<message>Done.</message>`;
    await serveFakeModelWorkers(page, [
      {
        loads: [{ stepDelayMs: 10 }],
        replies: [streamed(thinking, { promptTokens: 300 }, 60), streamed('<message>Hello again.</message>', { promptTokens: 20 })],
      },
    ]);
    await playground.open();
    await chooseFunctionCalling(playground);
    const row = await loadModel(page, ORCHESTRATOR_LABEL);
    await row.getByRole('button', { name: 'Use as orchestrator' }).click();

    await playground.run('Think about it.');
    await expect(playground.steps().first()).toContainText('Considering it slowly.');
    await playground.stopButton.click();
    // The page times the stop from the press to the run's end; under a second reads "… ms".
    await expect(playground.runStatus).toContainText(/Stopped by you in \d+ ms/, { timeout: 3000 });

    // Uninterrupted, the first reply would hold the model for seconds more (230 chunks, 60 ms apart).
    await playground.runButton.click();
    await playground.waitForFinish(5000);
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace).toContainText('Hello again.');
  });
});
