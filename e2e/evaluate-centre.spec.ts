// Evaluate's results take the page's wide centre while the tab is open, as Compare does (issue 24,
// item 2), at 1920 × 1080 and at a projector's 1280 × 720: the table per policy whole (its "Tool
// calls" column included), the accuracy–cost chart wide, and a headline per policy, never one
// accuracy pooled over them. Sizes and overflow are asserted; the screenshots are to be looked at.

import { rolloutRecord } from './fixtures/rolloutRecord.ts';
import { expect, test } from './support/playground.ts';
import { cutOrSideways, PROJECTOR_SIZES, screenshot } from './support/screenChecks.ts';

/** A results file of `orchestra eval`: three policies over five tasks; each policy's accuracy differs. */
function resultsFile(): string {
  const header = { type: 'eval_started', version: 1, suite: 'corpus', suiteHash: 'h1', configHash: 'h2', seed: 's', startedAt: '2026-11-28T10:00:00.000Z' };
  const tools = { 'answer-2': 3, 'search-1': 2, 'reasoner-3': 1, python: 1 };
  const records = ['orchestrator', 'strongest-expert-alone', 'cheapest-expert-alone'].flatMap((policy, index) =>
    ['t1', 't2', 't3', 't4', 't5'].map((task, taskIndex) =>
      rolloutRecord(policy, task, 1, { correct: taskIndex < 4 - index, costUsd: 0.001 * (index + 1), toolFeatures: tools, verdict: { check: 'exact', correct: taskIndex < 4 - index, reason: 'r' } }),
    ),
  );
  return [header, ...records].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

for (const size of PROJECTOR_SIZES) {
  test(`at ${size.width} × ${size.height}: the results in the centre, whole, each policy headlined`, async ({ page, playground, consoleErrors }, testInfo) => {
    await page.setViewportSize(size);
    await playground.open();
    const panel = await playground.openTab('Evaluate');
    await panel.getByRole('button', { name: 'Run evaluation' }).waitFor();
    const results = page.getByRole('region', { name: 'Evaluation results' });
    await expect(results).toBeVisible();
    await results.getByLabel('Results file to import').setInputFiles({ name: 'results.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(resultsFile()) });

    // In the centre column, not the side column.
    await expect(page.locator('.column-trace').getByRole('region', { name: 'Evaluation results' })).toBeVisible();
    await expect(page.locator('.column-side').getByRole('table', { name: 'Results per policy' })).toHaveCount(0);

    // A headline per policy; no accuracy pooled over them (15 rollouts, 9 right).
    const headline = results.getByRole('list', { name: 'Accuracy per policy' });
    await expect(headline.getByRole('listitem')).toHaveText(['orchestrator 80.0% (4/5)', 'strongest-expert-alone 60.0% (3/5)', 'cheapest-expert-alone 40.0% (2/5)']);
    await expect(results).not.toContainText('(9/15)');

    // The table whole: every column on screen, nothing clipped or scrolled sideways.
    const table = results.getByRole('table', { name: 'Results per policy' });
    await expect(table.getByRole('columnheader', { name: 'Tool calls' })).toBeInViewport({ ratio: 1 });
    for (const cell of await table.getByRole('row').last().getByRole('cell').all()) await expect(cell).toBeInViewport({ ratio: 1 });
    expect(await cutOrSideways(page, results)).toEqual([]);

    // The accuracy–cost chart takes the centre's width.
    const chart = results.locator('svg.recharts-surface').first();
    await expect(chart).toBeVisible({ timeout: 30_000 });
    const [chartWidth, centreWidth] = await Promise.all([chart.evaluate((svg) => svg.getBoundingClientRect().width), results.evaluate((region) => region.getBoundingClientRect().width)]);
    expect(chartWidth).toBeGreaterThan(centreWidth * 0.6);
    expect(chartWidth).toBeGreaterThan(450);
    await screenshot(page, testInfo, `evaluate-centre-${size.width}x${size.height}`);

    // Back on the Task tab, the centre is the run's again.
    await playground.openTab('Task');
    await expect(results).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Try the demo' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
}
