// A newcomer's first minute, at the sizes a presenter meets (1920 × 1080, a 1280 × 800 laptop, a
// 1280 × 720 projector): what the first screen says, where the keyboard's focus goes after "Try
// the demo", what the sample picker shows, and whether the Task tab's controls fit and read whole.
// Sizes and overflow are asserted; the screenshots land in test-results/ to be looked at.

import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/playground.ts';

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 800 },
  { width: 1280, height: 720 },
] as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Elements of `locator` whose text is cut: wider than their box (an ellipsis, or hidden overflow). */
async function cutText(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((elements) =>
    elements.filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.textContent ?? ''),
  );
}

/** The page scrolls sideways, or a column does. */
async function scrollsSideways(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll('.workspace > *')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => element.className || element.tagName),
  );
}

test.describe('the first screen', () => {
  for (const size of SIZES) {
    test(`at ${size.width} × ${size.height}: no GPU said for a person, the example endpoint on one line, the Task tab's controls whole`, async ({
      page,
      playground,
      consoleErrors,
    }, testInfo) => {
      await page.setViewportSize(size);
      await playground.open();
      const webgpu = page.getByRole('status', { name: 'WebGPU' });
      await expect(webgpu).not.toContainText('Checking');
      // Plain headless Chromium has no adapter: said without the API's name.
      await expect(webgpu).toContainText("no graphics adapter");
      await expect(webgpu).not.toContainText('requestAdapter');
      await expect(webgpu).not.toContainText('navigator.gpu');

      // An address is never broken inside a word ("localhos t:8000").
      const endpoint = page.getByRole('region', { name: 'Watch a small model orchestrate bigger ones' }).locator('code', { hasText: 'localhost:8000' });
      await expect(endpoint).toBeVisible();
      expect(await endpoint.evaluate((element) => element.getClientRects().length)).toBe(1);

      // "Try the demo" is there with the first screen, in view.
      await expect(page.getByRole('button', { name: 'Try the demo' })).toBeInViewport();

      // Preferences: no description cut (the objectives', and the tools' and experts' once opened),
      // each preset's name fits its button on one line.
      const details = playground.preferences.locator('.pref-slider-detail');
      expect(await cutText(details)).toEqual([]);
      for (const preset of await playground.preferences.locator('.pref-preset').all()) {
        const room = await preset.evaluate((label) => {
          const text = label.querySelector('span')!.getBoundingClientRect();
          const box = label.getBoundingClientRect();
          const lineHeight = parseFloat(getComputedStyle(label).lineHeight);
          return { left: text.left - box.left, right: box.right - text.right, lines: Math.round(text.height / lineHeight), name: label.textContent };
        });
        expect(room.lines, `${room.name} on one line`).toBe(1);
        expect(room.left, `${room.name}: room on the left`).toBeGreaterThanOrEqual(6);
        expect(room.right, `${room.name}: room on the right`).toBeGreaterThanOrEqual(6);
      }
      // The presets and the three sliders are on screen without scrolling, where the window allows (800 high and up).
      if (size.height >= 800) {
        await expect(playground.preferences.locator('.pref-preset-options')).toBeInViewport({ ratio: 1 });
        for (const slider of ['Correct answer', 'Low cost', 'Low latency']) {
          await expect(playground.preferences.getByRole('slider', { name: slider })).toBeInViewport({ ratio: 1 });
        }
      }
      expect(await scrollsSideways(page)).toEqual([]);
      await screenshot(page, testInfo, `first-screen-${size.width}x${size.height}`);
      await playground.preferences.getByText('Tools and experts').click();
      expect(await details.count()).toBeGreaterThan(3);
      expect(await cutText(details)).toEqual([]);
      expect(await scrollsSideways(page)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  }
});

test.describe('"Try the demo" from the keyboard', () => {
  // A whole demo run, Python included, on a loaded two-core machine.
  test.describe.configure({ timeout: 120_000 });

  test('Enter on it leaves the focus on Stop while the run goes, then on Run; the sample picker names the task it filled in', async ({ page, playground }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await playground.open();
    const samplePicker = page.getByRole('combobox', { name: 'Sample task' });
    await expect(samplePicker).toHaveValue('');
    const tryDemo = page.getByRole('button', { name: 'Try the demo' });
    await tryDemo.focus();
    await page.keyboard.press('Enter');
    await expect(playground.runStatus).toContainText('Running', { timeout: 15_000 });
    await expect(playground.stopButton).toBeFocused();
    await playground.waitForFinish(90_000);
    await expect(playground.runButton).toBeFocused();

    // The picker shows the sample the demo chose, not "Pick one…".
    const task = await playground.task.inputValue();
    await expect(samplePicker.locator('option:checked')).toHaveText(task);
    // Edited, the task is no longer the sample: the picker offers the list again.
    await playground.task.fill(`${task} Explain.`);
    await expect(samplePicker).toHaveValue('');
  });
});
