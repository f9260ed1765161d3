// Checks on what a screen shows, by size and overflow rather than by pixels (issue 24): text big
// enough to read from the back of a room, nothing cut, nothing scrolled sideways. Used by the
// projector and first-screen specs at 1920 × 1080 and 1280 × 720.

import type { Locator, Page, TestInfo } from '@playwright/test';

export const PROJECTOR_SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;

export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Visible text under `root` smaller than the sizes given: HTML text under `html` px, chart (SVG)
 * text under `svg` px. Each as "12px: the text". */
export async function smallText(root: Locator, sizes: { html: number; svg: number }): Promise<string[]> {
  return root.evaluate((element, limits) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent || !parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const box = parent.getBoundingClientRect();
      // Visually hidden text (for screen readers: a 1 px clipped box) is not read on screen.
      if (box.width <= 1 || box.height <= 1) continue;
      const size = parseFloat(getComputedStyle(parent).fontSize);
      const limit = parent.closest('svg') ? limits.svg : limits.html;
      if (size < limit - 0.01) found.push(`${size}px: ${text.slice(0, 60)}`);
    }
    return found;
  }, sizes);
}

/** What is cut or scrolled sideways under `root`: an element whose content is wider than its box
 * (a clipped or ellipsised text, a column that scrolls sideways), the page wider than the window,
 * and chart labels outside their chart. */
export async function cutOrSideways(page: Page, root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const found: string[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${document.documentElement.clientWidth})`);
    for (const el of [element, ...element.querySelectorAll('*')]) {
      if (!(el instanceof HTMLElement) || el.closest('svg') || !el.checkVisibility()) continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') found.push(`cut or scrolls sideways: ${name(el)} (${el.scrollWidth} > ${el.clientWidth})`);
      if (box.right > window.innerWidth + 1 || box.left < -1) found.push(`outside the window: ${name(el)}`);
    }
    for (const svg of element.querySelectorAll('svg.recharts-surface')) {
      const frame = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll('text')) {
        const box = text.getBoundingClientRect();
        if (box.width === 0) continue;
        if (box.left < frame.left - 1 || box.right > frame.right + 1 || box.top < frame.top - 1 || box.bottom > frame.bottom + 1) found.push(`chart label outside its chart: "${text.textContent}"`);
      }
    }
    return found;
  });
}
