// The workspace's layout in real Chromium: at 1280 × 720 the task, the trace and the cost fit one
// screen (History, Evaluate, Setup, Models, Documents and Tools are side tabs); on a phone, Run brings the live
// status and the trace into view, and keyboard hints are not shown on a touch screen. The
// screenshots it takes land in test-results/ and are there to be looked at.

import type { Page, TestInfo } from '@playwright/test';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { expect, scriptedConfig, test } from './support/playground.ts';

const TASK = 'What is the population of the capital of Finland?';
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

/** Search, then answer: enough for a trace with two cards and a final answer. */
function searchThenAnswer(): Scenario {
  const turn = (tool: string, alias: string) => ({
    content: `<think>Next: ${tool}.</think>\n<tool_call>\n{"name": "${tool}", "arguments": {"model": "${alias}"}}\n</tool_call>`,
    usage: { prompt_tokens: 900, completion_tokens: 25 },
  });
  return {
    models: {
      [ORCHESTRATOR]: [turn('search', 'search-1'), turn('answer', 'answer-2')],
      'scripted/searcher': [{ content: '<query>capital of Finland population</query>', usage: { prompt_tokens: 300, completion_tokens: 8 } }],
      'scripted/answerer-mini': [{ content: '<answer>558,457</answer>', usage: { prompt_tokens: 1500, completion_tokens: 6 } }],
    },
  };
}

/** The page does not scroll: everything outside the columns fits the window. */
async function pageScrolls(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 1);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test.describe('at 1280 × 720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the first screen shows the task, the welcome and the cost; History, Evaluate, Setup, Models, Documents and Tools are tabs', async ({
    playground,
    page,
    consoleErrors,
  }, testInfo) => {
    await playground.open();
    const tabs = page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab');
    await expect(tabs).toHaveText(['Task', 'History', 'Evaluate', 'Setup', 'Models', 'Documents', 'Tools']);
    await expect(page.getByRole('tab', { name: 'Task' })).toHaveAttribute('aria-selected', 'true');
    for (const shown of [playground.task, playground.runButton, page.getByRole('region', { name: 'Watch a small model orchestrate bigger ones' }), playground.totalCost]) {
      await expect(shown).toBeInViewport();
    }
    await expect(page.getByRole('region', { name: 'Setup' })).toBeHidden();
    await expect(page.getByRole('region', { name: 'Documents' })).toBeHidden();
    expect(await pageScrolls(page)).toBe(false);
    await expect(page.getByRole('status', { name: 'WebGPU' })).not.toContainText('Checking');
    await screenshot(page, testInfo, 'first-screen-1280x720');

    // The welcome's "Setup" opens the Setup tab.
    await page.getByRole('region', { name: 'Watch a small model orchestrate bigger ones' }).getByRole('button', { name: 'Setup' }).first().click();
    await expect(page.getByRole('region', { name: 'Setup' })).toBeVisible();
    await expect(playground.task).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test('a run: its status, trace, answer and cost on one screen, also while another tab is open', async ({ playground, page, scripted }, testInfo) => {
    const server = await scripted.start(searchThenAnswer());
    await playground.open();
    await playground.importConfig(scriptedConfig(server.url));
    await playground.run(TASK);
    await playground.waitForFinish();

    const finalAnswer = playground.trace.getByRole('region', { name: 'Final answer' });
    await expect(finalAnswer).toContainText('558,457');
    for (const shown of [playground.task, playground.runButton, playground.runStatus, playground.trace, finalAnswer, playground.totalCost]) {
      await expect(shown).toBeInViewport();
    }
    expect(await pageScrolls(page)).toBe(false);
    await screenshot(page, testInfo, 'run-1280x720');

    // Setup beside the run: the trace and the cost stay where they were.
    const setup = await playground.openTab('Setup');
    await expect(setup.getByRole('region', { name: 'Setup' })).toBeInViewport();
    for (const shown of [playground.runStatus, finalAnswer, playground.totalCost]) await expect(shown).toBeInViewport();
    expect(await pageScrolls(page)).toBe(false);
  });

  test('the tabs follow the arrow keys, and the open one is kept across a reload', async ({ playground, page }) => {
    await playground.open();
    const task = page.getByRole('tab', { name: 'Task' });
    await task.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'History' })).toBeFocused();
    await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Evaluate' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Setup' })).toBeFocused();
    await expect(page.getByRole('tab', { name: 'Setup' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('End');
    await expect(page.getByRole('tab', { name: 'Tools' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('region', { name: 'Tools', exact: true })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(task).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Tools' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('region', { name: 'Tools', exact: true })).toBeVisible();
    // Only the open tab is in the Tab order.
    await expect(task).toHaveAttribute('tabindex', '-1');
  });
});

test.describe('on a phone (390 × 844, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('Run brings the live status and the trace into view; no keyboard hints on a touch screen', async ({ playground, page, scripted }, testInfo) => {
    const scenario = searchThenAnswer();
    // Slow enough to see the run live.
    const first = scenario.models[ORCHESTRATOR]?.[0];
    if (first) Object.assign(first, { chunkSize: 4, chunkDelayMs: 60 });
    const server = await scripted.start(scenario);
    await playground.open();
    await playground.importConfig(scriptedConfig(server.url));
    await expect(page.getByText('Ctrl+Enter runs')).toBeHidden();

    await playground.task.fill(TASK);
    await playground.runButton.tap();
    // The status line comes to the top of the screen while the run goes, the trace under it.
    await expect(playground.runStatus).toContainText('Running');
    await expect(playground.runStatus).toBeInViewport();
    await expect(playground.steps().first()).toBeInViewport();
    await expect(playground.trace.getByText('move · ')).toBeHidden();
    await screenshot(page, testInfo, 'run-390x844');
    await playground.waitForFinish();
    await expect(playground.runStatus).toBeInViewport();
    await screenshot(page, testInfo, 'run-finished-390x844');
  });
});
