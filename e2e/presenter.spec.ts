// Presenter view, for projecting to a class: the demo (one click, no server) paced step by step
// while the run goes on underneath, collapsed cards with a line of reasoning and the menu's prices
// and latencies, the answer and the total in the status banner, the same pacing over a replay.
// The screenshots it takes land in test-results/ and are there to be looked at.

import type { Page, TestInfo } from '@playwright/test';
import type { SampleTask } from '../tools/search/sampleTasks.ts';
import { expect, test, type Playground } from './support/playground.ts';

// Whole demo runs through the real page and worker: slow on a loaded two-core box.
test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1280, height: 720 } });

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Turns presenter view on from the header, and runs the demo's sample task to its end. */
async function presentTheDemo(page: Page, playground: Playground): Promise<SampleTask> {
  const samples = (await (await page.request.get('/generated/sample-tasks.json')).json()) as SampleTask[];
  await playground.open();
  const toggle = page.getByRole('button', { name: 'Presenter view' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(playground.runStatus).toContainText('Running', { timeout: 15_000 });
  await playground.waitForFinish(90_000);
  const task = await playground.taskText();
  const sample = samples.find((candidate) => candidate.question === task);
  if (!sample) throw new Error(`"${task}" is not a sample task`);
  return sample;
}

function pacing(page: Page) {
  return page.getByRole('group', { name: 'Presenter pacing' });
}

test('paces the demo step by step, with a line of reasoning and the prices on each card, the answer and total in the banner', async ({
  page,
  playground,
  consoleErrors,
}, testInfo) => {
  const sample = await presentTheDemo(page, playground);

  // The run is over underneath, but the class has seen only its first step.
  await expect(playground.steps()).toHaveCount(1);
  await expect(pacing(page)).toContainText(/Step 1 of \d/);
  const total = Number(/Step 1 of (\d+)/.exec((await pacing(page).textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThan(2);
  await expect(playground.runStatus).toContainText('step 1 of');
  await expect(playground.runStatus).not.toContainText(sample.answer);
  await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toHaveCount(0);
  await expect(playground.trace.getByRole('note')).toContainText('Step 2 is ready');
  await screenshot(page, testInfo, 'presenter-paused-1280x720');

  // Space shows the next step, and only that one.
  await page.keyboard.press('Space');
  await expect(playground.steps()).toHaveCount(2);
  await expect(pacing(page)).toContainText(`Step 2 of ${total}`);

  // Each card is collapsed to a line of the orchestrator's reasoning, its choice, and the menu it
  // chose from with each alias's price and average latency.
  for (const card of await playground.steps().all()) {
    await expect(card.getByRole('button', { expanded: false })).toBeVisible();
    await expect(card.getByLabel('Reasoning, in one line')).toHaveText(/\w/);
    const chosen = (await card.locator('.step-summary').textContent())?.split(' → ')[1] ?? '';
    const chips = card.getByRole('list', { name: 'Tool menu' }).getByRole('listitem');
    expect(await chips.count()).toBeGreaterThan(1);
    for (const chip of await chips.all()) await expect(chip).toHaveText(/\$[\d.]+ \/ \$[\d.]+ · \d+s/);
    await expect(card.locator('li[aria-current="true"]')).toContainText(chosen);
  }

  // "Show all" catches up: every step, the answer and the total (cost and time) in the banner.
  await pacing(page).getByRole('button', { name: 'Show all' }).click();
  await expect(playground.steps()).toHaveCount(total);
  await expect(playground.runStatus).toContainText('Answered');
  await expect(playground.runStatus).toContainText(sample.answer);
  await expect(playground.runStatus).toContainText(new RegExp(`${total} steps · ≈\\$[\\d.]+ · [\\d.]+ s`));
  // The answer is the banner's; the trace keeps its room for the steps.
  await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toBeHidden();
  await expect(pacing(page).getByRole('button', { name: 'Show next step' })).toBeDisabled();
  await screenshot(page, testInfo, 'presenter-1280x720');
  // The cost chart beside the trace, on one screen.
  for (const shown of [playground.trace, playground.totalCost, page.locator('.cost-chart').first()]) await expect(shown).toBeInViewport();

  await page.setViewportSize({ width: 390, height: 844 });
  await playground.runStatus.evaluate((status) => status.scrollIntoView({ block: 'start', behavior: 'instant' }));
  await screenshot(page, testInfo, 'presenter-390x844');

  // Presenter view is kept across a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Presenter view' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Presenter view' }).click();
  await expect(page.getByRole('button', { name: 'Presenter view' })).toHaveAttribute('aria-pressed', 'false');
  expect(consoleErrors).toEqual([]);
});

test('paces a replay of a stored run the same way', async ({ page, playground }) => {
  const sample = await presentTheDemo(page, playground);
  await pacing(page).getByRole('button', { name: 'Show all' }).click();
  const total = await playground.steps().count();

  // The projector shows no side column: History is reached with presenter view off, and keeps its
  // column with presenter view back on.
  const toggle = page.getByRole('button', { name: 'Presenter view' });
  await toggle.click();
  const history = await playground.openTab('History');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await history.getByRole('list', { name: 'Stored runs' }).getByRole('article').first().getByRole('button', { name: 'Replay' }).click();
  const banner = page.getByTestId('stored-run-banner');
  await banner.getByRole('combobox').selectOption('instant');
  // The replay has re-streamed every event; the presenter shows them one step at a time.
  await expect(banner).toContainText(`Step ${total} of ${total}`);
  await expect(playground.steps()).toHaveCount(1);
  await pacing(page).getByRole('button', { name: 'Show next step' }).click();
  await expect(playground.steps()).toHaveCount(2);
  await pacing(page).getByRole('button', { name: 'Show all' }).click();
  await expect(playground.steps()).toHaveCount(total);
  await expect(playground.runStatus).toContainText(sample.answer);
});

test('P typed into the Tools code editor stays in the code and does not switch presenter view', async ({ page, playground }) => {
  await playground.open();
  const tools = await playground.openTab('Tools');
  await tools.getByRole('button', { name: 'New tool' }).click();
  const code = tools.getByRole('group', { name: 'Implementation (JavaScript)' });
  await code.locator('.view-lines').click({ timeout: 30_000 });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('return pp;');
  await expect(code.locator('.view-lines')).toContainText('return pp;');
  await expect(page.getByRole('button', { name: 'Presenter view' })).toHaveAttribute('aria-pressed', 'false');
});
