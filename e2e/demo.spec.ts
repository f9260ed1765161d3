import type { SampleTask } from '../tools/search/sampleTasks.ts';
import type { Locator } from '@playwright/test';
import { expect, test, type Playground } from './support/playground.ts';

// "Try the demo": a fresh profile, no config imported, no server started — the scripted demo runs
// in the orchestrator worker over the real corpus search and the real Python sandbox.

const NOTICE = 'A scripted demo, not a model';

// Whole demo runs (Python included) through the real page and worker: on a loaded two-core CI box
// that takes well over Playwright's default 30 s.
test.describe.configure({ timeout: 120_000 });

/** Each step's choice as its card names it ("search → search-3"), in order. */
async function route(playground: Playground): Promise<string[]> {
  return (await playground.steps().locator('.step-summary').allTextContents()).map((text) => text.trim());
}

/** The run's total in dollars, as the cost panel shows it ("$0.0012" or "≈$0.0012"). */
async function totalUsd(playground: Playground): Promise<number> {
  const text = (await playground.totalCost.textContent()) ?? '';
  const match = /\$([\d.]+)/.exec(text);
  if (!match) throw new Error(`not a cost: ${text}`);
  return Number(match[1]);
}

/** A run under a preset, started by `start` ("Try the demo", or Run): its route and total once it has answered. */
async function runUnder(playground: Playground, preset: string, start: Locator): Promise<{ route: string[]; usd: number }> {
  await playground.preferences.getByRole('radio', { name: preset }).check();
  await start.click();
  await expect(playground.runStatus).toContainText('Running', { timeout: 15_000 });
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('Answered');
  return { route: await route(playground), usd: await totalUsd(playground) };
}

test('one click runs the demo to the sample task’s own answer, labelled as a script everywhere', async ({ page, playground, consoleErrors }) => {
  const samples = (await (await page.request.get('/generated/sample-tasks.json')).json()) as SampleTask[];
  await playground.open();
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(playground.runStatus).toContainText('Running', { timeout: 15_000 });
  await playground.waitForFinish(60_000);

  const task = await playground.task.inputValue();
  const sample = samples.find((candidate) => candidate.question === task);
  expect(sample, `"${task}" is one of the sample tasks`).toBeDefined();
  expect(task).not.toContain('Finland');
  await expect(playground.runStatus).toContainText('Answered');
  await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText(sample!.answer);

  // The scripts' tokens are counted by no tokenizer: the cost is marked as an estimate.
  await expect(playground.totalCost).toContainText('≈$');
  await expect(page.getByLabel('About this run')).toContainText(NOTICE);
  await expect(page.getByLabel('About this run')).toContainText('connect an endpoint');
  const steps = playground.steps();
  expect(await steps.count()).toBeGreaterThan(1);
  for (const step of await steps.all()) await expect(step).toContainText(NOTICE.toLowerCase());
  // The first minute as a newcomer sees it, there to be looked at (test-results/).
  await page.screenshot({ path: test.info().outputPath('demo-run.png') });
  // Setup names it (and so does the exported config, whose name says it).
  const setup = await playground.openTab('Setup');
  await expect(setup).toContainText('the scripted demo (not a model)');
  // The config it replaced comes back in one click.
  await setup.getByRole('button', { name: 'Back to your config' }).click();
  await expect(setup).toContainText('Config: the built-in example');
  expect(consoleErrors).toEqual([]);
});

test('"Cheapest" and "Best answer" take different routes at different costs', async ({ page, playground }) => {
  test.setTimeout(180_000);
  await playground.open();
  const cheap = await runUnder(playground, 'Cheapest', page.getByRole('button', { name: 'Try the demo' }));
  const samples = (await (await page.request.get('/generated/sample-tasks.json')).json()) as SampleTask[];
  const task = await playground.task.inputValue();
  const sample = samples.find((candidate) => candidate.question === task);
  expect(sample).toBeDefined();
  await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText(sample!.answer);
  expect(cheap.route.every((step) => step === 'search → search-3' || step === 'answer → answer-3')).toBe(true);

  // The same task again (it stays in the task box) under "Best answer": real Python runs.
  await playground.preferences.getByRole('radio', { name: 'Best answer' }).check();
  await playground.runButton.click();
  await expect(playground.runStatus).toContainText('Running', { timeout: 15_000 });
  await playground.waitForFinish(150_000);
  await expect(playground.runStatus).toContainText('Answered');
  const best = { route: await route(playground), usd: await totalUsd(playground) };
  expect(best.route).toContain('enhance_reasoning → reasoner-1');
  expect(best.route.at(-1)).toBe('answer → answer-1');
  expect(best.route).not.toEqual(cheap.route);
  expect(best.usd).toBeGreaterThan(cheap.usd);
  await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText(sample!.answer);
});

test('"Cheapest" and "Fastest" take different routes: a slow cheap model against a fast dearer one (issue 24, item 7)', async ({ page, playground }) => {
  test.setTimeout(180_000);
  await playground.open();
  const cheap = await runUnder(playground, 'Cheapest', page.getByRole('button', { name: 'Try the demo' }));

  // The same task again (it stays in the task box).
  const fast = await runUnder(playground, 'Fastest', playground.runButton);

  expect(cheap.route.at(-1)).toBe('answer → answer-3');
  expect(fast.route.at(-1)).toBe('answer → answer-4');
  expect(fast.route).not.toEqual(cheap.route);
  expect(fast.usd).toBeGreaterThan(cheap.usd);
});
