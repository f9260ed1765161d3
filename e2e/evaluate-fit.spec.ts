// The Evaluate tab in the side column at 1280 × 800 and 1920 × 1080: the suite dropdown lists
// τ²-Bench's and ToolScale's suites under long names, and a fieldset grows to its widest content
// by default, so the dropdown (and "Import suite…" beside it) went out of the panel. Boxes are
// asserted; the screenshots are to be looked at.

import { expect, openSideTab, test } from './support/playground.ts';
import { screenshot } from './support/screenChecks.ts';

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test(`at ${size.width} × ${size.height}: the suite dropdown and every control stay inside the Evaluate panel`, async ({ page, playground, consoleErrors }, testInfo) => {
    await page.setViewportSize(size);
    await playground.open();
    const panel = await openSideTab(page, 'Evaluate');
    const suite = panel.getByRole('combobox', { name: 'Suite' });
    await expect(suite).toBeVisible();
    await expect(suite.locator('option', { hasText: 'τ²-Bench telecom' })).toHaveCount(1);

    const frame = (await panel.boundingBox())!;
    for (const control of await panel.locator('fieldset select, fieldset button').all()) {
      if (!(await control.isVisible())) continue;
      const box = (await control.boundingBox())!;
      const name = ((await control.getAttribute('aria-label')) ?? (await control.textContent()) ?? '').slice(0, 40);
      expect(box.x + box.width, `${name} ends inside the panel (${frame.x + frame.width})`).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
    }
    await screenshot(page, testInfo, `evaluate-${size.width}x${size.height}`);
    expect(consoleErrors).toEqual([]);
  });
}
