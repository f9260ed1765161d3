// Scratch: item 9 measured on main's markup (recharts bars). Not committed.
import { expect, test } from './support/playground.ts';

test.describe.configure({ timeout: 180_000 });

for (const round of [1, 2, 3, 4, 5]) {
  test(`demo: every bar of the per-step chart is drawn when the run's end is (${round})`, async ({ page, playground }) => {
    await page.addInitScript(() => {
      const seen: { finishedAt: number | null; steps: number | null; barsAtFinish: number | null; allBarsAt: number | null } = { finishedAt: null, steps: null, barsAtFinish: null, allBarsAt: null };
      Object.defineProperty(window, '__item9', { value: seen });
      const bars = () => {
        const figure = [...document.querySelectorAll('figure')].find((f) => f.querySelector('figcaption')?.textContent?.startsWith('Cost per step'));
        return figure ? figure.querySelectorAll('.recharts-bar-rectangle').length : 0;
      };
      new MutationObserver(() => {
        const now = performance.now();
        const status = document.querySelector('[role="status"][aria-label="Run status"]')?.textContent?.trim() ?? '';
        if (seen.finishedAt === null && status !== '' && !/^(Starting|Running|Stopping)/.test(status)) {
          const match = /(\d+) steps?\b/.exec(status);
          if (match) {
            seen.finishedAt = now;
            seen.steps = Number(match[1]);
            seen.barsAtFinish = bars();
          }
        }
        if (seen.finishedAt !== null && seen.allBarsAt === null && bars() === seen.steps) seen.allBarsAt = now;
      }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    await playground.open();
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await expect(playground.runStatus).toContainText('Running', { timeout: 15_000 });
    await playground.waitForFinish(90_000);
    const read = () => page.evaluate(() => (window as unknown as { __item9: Record<string, number | null> }).__item9);
    await expect.poll(async () => (await read()).allBarsAt !== null, { timeout: 20_000 }).toBe(true);
    const seen = await read();
    console.log(`ITEM9 round ${round}: ${JSON.stringify(seen)} lag ${((seen.allBarsAt ?? 0) - (seen.finishedAt ?? 0)).toFixed(0)} ms`);
    expect((seen.allBarsAt ?? Infinity) - (seen.finishedAt ?? 0)).toBeLessThanOrEqual(200);
  });
}
