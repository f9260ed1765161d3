// The Models tab on a machine with no GPU (headless Chromium without --enable-unsafe-webgpu offers
// no WebGPU adapter), at 1280 × 800 and 1920 × 1080 (issue 24, item 13): every control inside its
// panel, the catalogue dropdown included, and no word of WebGPU layers where the models can only
// run on the CPU. Boxes are asserted; the screenshots are to be looked at.

import { CPU_REASONS } from '../workers/backends/gguf/cpuReasons.ts';
import { expect, openSideTab, test } from './support/playground.ts';
import { cutOrSideways, screenshot } from './support/screenChecks.ts';

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test(`at ${size.width} × ${size.height}: the catalogue dropdown and every control stay inside the Models panel, and no GPU means no WebGPU layers`, async ({ page, playground, consoleErrors }, testInfo) => {
    await page.setViewportSize(size);
    await playground.open();
    const panel = await openSideTab(page, 'Models');
    const section = panel.locator('section.gguf-models');
    const catalogue = section.getByRole('combobox', { name: 'Catalogue' });
    await expect(catalogue).toBeVisible();

    const frame = (await panel.boundingBox())!;
    for (const control of [catalogue, ...(await section.locator('select, input, button').all())]) {
      if (!(await control.isVisible())) continue;
      const box = (await control.boundingBox())!;
      const name = ((await control.getAttribute('aria-label')) ?? (await control.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? el.tagName))).slice(0, 40);
      expect(box.x, `${name} starts inside the panel`).toBeGreaterThanOrEqual(frame.x - 0.5);
      expect(box.x + box.width, `${name} ends inside the panel (${frame.x + frame.width})`).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
    }
    expect(await cutOrSideways(page, section)).toEqual([]);

    // No adapter here: the panel says where models run, for a person, and offers no layer count.
    await expect(section).toContainText(CPU_REASONS.noAdapter);
    await expect(section.getByLabel(/Layers on WebGPU/)).toHaveCount(0);
    await expect(section).not.toContainText('999');
    await expect(section).not.toContainText('layers on WebGPU');
    await screenshot(page, testInfo, `models-${size.width}x${size.height}`);
    expect(consoleErrors).toEqual([]);
  });
}
