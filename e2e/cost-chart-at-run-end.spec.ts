// Issue 24, item 9: the per-step cost chart showed one or two bars of the demo's three when the
// status said the run had ended, and all of them seconds later. The chart's redraw was throttled to
// one a second while a run streamed and then rendered as a transition that yields to every other
// update, so the run's last steps reached it late. While a run streams the chart may lag the
// stream (it is drawn at a lower priority than the trace); the run's end it must draw in the same
// commit as the status line that says the run ended.

import { expect, test } from './support/playground.ts';

const RUN_TIMEOUT_MS = 90_000;
test.describe.configure({ timeout: 2 * RUN_TIMEOUT_MS });

interface ChartAtEnd {
  /** performance.now() of the first DOM change after which the status says the run ended. */
  finishedAt: number | null;
  /** The step count that status line gave. */
  steps: number | null;
  /** The chart's bars in that same DOM state. */
  barsAtFinish: number | null;
  /** When the chart first had a bar per step, after the end. */
  allBarsAt: number | null;
}

for (const round of [1, 2]) {
  test(`the demo's cost chart has every step's bar in the commit that says the run ended (${round})`, async ({ page, playground }) => {
    // Timed in the page: a MutationObserver callback sees each commit's DOM as it lands, so the
    // status line and the chart are read in the same state.
    await page.addInitScript(() => {
      const seen: ChartAtEnd = { finishedAt: null, steps: null, barsAtFinish: null, allBarsAt: null };
      Object.defineProperty(window, '__chartAtEnd', { value: seen });
      const bars = () => {
        const figure = [...document.querySelectorAll('figure')].find((element) => element.querySelector('figcaption')?.textContent?.startsWith('Cost per step'));
        // One subpath ("M…Z") per bar in the bars' path.
        return (figure?.querySelector('path.step-chart-bars')?.getAttribute('d')?.match(/M/g) ?? []).length;
      };
      new MutationObserver(() => {
        const now = performance.now();
        const status = document.querySelector('[role="status"][aria-label="Run status"]')?.textContent?.trim() ?? '';
        const steps = /(\d+) steps?\b/.exec(status);
        if (seen.finishedAt === null && steps && !/^(Starting|Running|Stopping)/.test(status)) {
          seen.finishedAt = now;
          seen.steps = Number(steps[1]);
          seen.barsAtFinish = bars();
        }
        if (seen.finishedAt !== null && seen.allBarsAt === null && bars() === seen.steps) seen.allBarsAt = now;
      }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    // The charts' module loads when the page is first idle; the run starts once it is here, so
    // what is timed is the redraw, not a download.
    const chartsModule = page.waitForResponse((response) => /\/CostCharts-[^/]*\.js$/.test(new URL(response.url()).pathname));
    await playground.open();
    await chartsModule;
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await playground.waitForFinish(RUN_TIMEOUT_MS);

    const read = () => page.evaluate(() => (window as unknown as { __chartAtEnd: ChartAtEnd }).__chartAtEnd);
    await expect.poll(async () => (await read()).finishedAt !== null, { timeout: 10_000 }).toBe(true);
    // A late chart would draw its last bars within a few seconds: wait for them, to report how late.
    await expect.poll(async () => (await read()).allBarsAt !== null, { timeout: 10_000 }).toBe(true).catch(() => undefined);
    const { finishedAt, steps, barsAtFinish, allBarsAt } = await read();
    expect(steps).toBeGreaterThan(1);
    // Drawn in the same commit as the status: no delay to allow for, whatever the machine's load.
    expect({ barsAtFinish, lagMs: allBarsAt === null ? 'never' : allBarsAt - (finishedAt ?? 0) }).toEqual({ barsAtFinish: steps, lagMs: 0 });
  });
}
