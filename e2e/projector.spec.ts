// Presenter view on a projector (issue 24, item 1), at 1920 × 1080 and at a classroom projector's
// 1280 × 720: with a run on screen, the question large at the top, the trace and the cost chart
// only (no side column), text of 24 px and more, chart labels of 18 px and more, nothing cut or
// scrolled sideways; Space steps; the keyboard's focus is where the next action is. Sizes and
// overflow are asserted; the screenshots in test-results/ are there to be looked at.

import { expect, test } from './support/playground.ts';
import { cutOrSideways, PROJECTOR_SIZES, screenshot, smallText } from './support/screenChecks.ts';

// A whole demo run (Python included) through the real page and worker, on a loaded two-core box.
test.describe.configure({ timeout: 150_000 });

for (const size of PROJECTOR_SIZES) {
  test(`at ${size.width} × ${size.height}: the question on top, the trace and the cost chart, large, nothing cut`, async ({ page, playground, consoleErrors }, testInfo) => {
    await page.setViewportSize(size);
    await playground.open();
    await page.getByRole('button', { name: 'Presenter view' }).click();
    // "Try the demo" from the keyboard: the run takes the side column (and the button) off the
    // screen, and the focus goes to the next thing to do, showing the next step.
    await page.getByRole('button', { name: 'Try the demo' }).focus();
    await page.keyboard.press('Enter');
    const pacing = page.getByRole('group', { name: 'Presenter pacing' });
    const next = pacing.getByRole('button', { name: 'Show next step' });
    await expect(next).toBeVisible({ timeout: 30_000 });
    await expect(next).toBeFocused({ timeout: 30_000 });
    await playground.waitForFinish(120_000);
    const task = await playground.taskText();

    // The question, large, at the top; no side column (its tabs, the task box, the preferences).
    const question = page.getByRole('region', { name: 'Question' });
    await expect(question).toContainText(task);
    await expect(question).toBeInViewport({ ratio: 1 });
    const questionSize = await question.locator('.presenter-question-text').evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    expect(questionSize).toBeGreaterThanOrEqual(32);
    await expect(page.getByRole('tablist', { name: 'Side panels' })).toBeHidden();
    await expect(playground.preferences).toBeHidden();
    await expect(playground.task).toBeHidden();

    // Space steps, as before.
    await expect(playground.steps()).toHaveCount(1);
    await page.keyboard.press('Space');
    await expect(playground.steps()).toHaveCount(2);
    await pacing.getByRole('button', { name: 'Show all' }).click();
    await expect(playground.runStatus).toContainText('Answered');

    // The trace and the cost chart, side by side on one screen; the cost's tables are not shown.
    const chart = page.locator('.cost-chart').first();
    await screenshot(page, testInfo, `projector-${size.width}x${size.height}`);
    for (const shown of [playground.trace, playground.totalCost, chart]) await expect(shown).toBeInViewport();
    // The steps have the room: the first card's head and its line of reasoning are on screen, not
    // pushed under the fold by the banner.
    await expect(playground.steps().first().getByRole('button', { expanded: false })).toBeInViewport({ ratio: 1 });
    await expect(playground.steps().first().getByLabel('Reasoning, in one line')).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('table', { name: 'Where it went' })).toBeHidden();
    await expect(chart.locator('.step-chart-plot svg')).toBeVisible();

    const app = page.locator('.app');
    expect(await smallText(app, { html: 24, svg: 18 })).toEqual([]);
    expect(await cutOrSideways(page, app)).toEqual([]);

    // An opened card (its reasoning, the call, the result) is large and whole as well.
    await playground.steps().first().getByRole('button', { expanded: false }).click();
    await expect(playground.steps().first().getByRole('button', { expanded: true })).toBeVisible();
    expect(await smallText(app, { html: 24, svg: 18 })).toEqual([]);
    expect(await cutOrSideways(page, app)).toEqual([]);
    await screenshot(page, testInfo, `projector-open-card-${size.width}x${size.height}`);

    // Every control on screen has a name.
    const unnamed = await page.locator('button:visible, select:visible, input:visible, [role="button"]:visible').evaluateAll((controls) =>
      controls.filter((control) => (control.getAttribute('aria-label') ?? control.textContent ?? '').trim() === '' && !control.getAttribute('aria-labelledby') && !(control as HTMLInputElement).labels?.length).map((control) => control.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);

    // P leaves presenter view: the side column is back.
    await page.keyboard.press('p');
    await expect(page.getByRole('tablist', { name: 'Side panels' })).toBeVisible();
    await expect(question).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
}
