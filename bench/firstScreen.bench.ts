// How soon a presenter can press the first screen's main button (issue 24, item 16): the time from
// navigation to "Try the demo" being on the page and enabled, over fresh loads of the production
// build (a new browser context each: nothing cached), beside the first contentful paint. The
// target is a median of 400 ms or less over 5 loads.
//
//   npm run bench -- --only first-screen [--dist dist]

import { previewInChromium } from './previewServer.ts';
import { median } from './stats.ts';

const LOADS = 5;
export const TARGET_TRY_DEMO_MS = 400;

export interface FirstScreenResult {
  built: boolean;
  /** Per load, ms from navigation start. */
  tryDemoMs: number[];
  firstContentfulPaintMs: number[];
  medianTryDemoMs: number;
  medianFcpMs: number;
}

/** Runs in the page before its scripts: notes when the button first is there and enabled. A
 * string, not a function: tsx's compiled functions call a helper the page does not have. */
const WATCH_FOR_THE_BUTTON = `(() => {
  const seen = () => [...document.querySelectorAll('button')].some((button) =>
    button.textContent.trim() === 'Try the demo' && !button.disabled && button.getAttribute('aria-disabled') !== 'true');
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    window.tryDemoAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

export async function runFirstScreenBenchmark(options: { distDir?: string; log: (line: string) => void }): Promise<FirstScreenResult> {
  const { built, preview, browser, close } = await previewInChromium(options);
  const tryDemoMs: number[] = [];
  const firstContentfulPaintMs: number[] = [];
  try {
    for (let load = 0; load < LOADS; load++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(WATCH_FOR_THE_BUTTON);
      await page.goto(preview.url);
      await page.waitForFunction(() => (window as unknown as { tryDemoAt?: number }).tryDemoAt !== undefined, undefined, { timeout: 30_000 });
      const figures = await page.evaluate(() => ({
        tryDemo: (window as unknown as { tryDemoAt: number }).tryDemoAt,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      }));
      tryDemoMs.push(figures.tryDemo);
      firstContentfulPaintMs.push(figures.fcp);
      options.log(`  load ${load + 1}: "Try the demo" at ${figures.tryDemo.toFixed(0)} ms, first contentful paint ${figures.fcp.toFixed(0)} ms`);
      await context.close();
    }
  } finally {
    await close();
  }
  return { built, tryDemoMs, firstContentfulPaintMs, medianTryDemoMs: median(tryDemoMs), medianFcpMs: median(firstContentfulPaintMs.filter(Number.isFinite)) };
}

export function formatFirstScreenReport(result: FirstScreenResult): string {
  const ratio = result.medianTryDemoMs / TARGET_TRY_DEMO_MS;
  return [
    `First screen (${LOADS} fresh loads of the ${result.built ? 'fresh' : 'given'} production build, 1280 × 800)`,
    `  "Try the demo" clickable: median ${result.medianTryDemoMs.toFixed(0)} ms (${result.tryDemoMs.map((ms) => ms.toFixed(0)).join(', ')}); target ≤ ${TARGET_TRY_DEMO_MS} ms, ratio ${ratio.toFixed(2)} ${ratio <= 1 ? 'OK' : 'OVER'}`,
    `  first contentful paint: median ${result.medianFcpMs.toFixed(0)} ms`,
  ].join('\n');
}
