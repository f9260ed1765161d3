// A rollout must not depend on what ran before or beside it, in the page as in the CLI
// (cli/rolloutIsolation.test.ts): the scripted demo's orchestrator keeps its run's searches, so
// rollouts that shared one answered "unknown" at the first turn. Under the demo configuration the
// Evaluate tab answers the built-in corpus as each question alone answers it, and twelve copies of
// one question each the same way, many rollouts at once.

import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, openSideTab, test } from './support/playground.ts';

// Fifty demo rollouts (each a few paced seconds) sixteen at a time through the page and the worker.
test.describe.configure({ timeout: 120_000 });

const DEMO = JSON.parse(readFileSync(new URL('../cli/examples/demo.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const QUESTION = 'What is the capital of the largest country by area that borders Greece?';

/** The Evaluate tab with the orchestrator as the only policy, sixteen rollouts at a time. */
async function orchestratorOnly(page: Page): Promise<Locator> {
  const panel = await openSideTab(page, 'Evaluate');
  await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
  await expect(panel.getByRole('checkbox', { name: /^Orchestrator/ })).toBeChecked();
  await panel.getByRole('spinbutton', { name: 'Concurrency' }).fill('16');
  return panel;
}

/** The orchestrator's row of the results table, as its cells read. */
async function orchestratorRow(panel: Locator): Promise<string[]> {
  const row = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('table', { name: 'Results per policy' }).locator('tr[data-policy="orchestrator"]');
  return (await row.locator('th, td').allInnerTexts()).map((text) => text.trim());
}

test('under the demo, the built-in corpus and twelve copies of one question are answered as each question alone', async ({ playground, page }) => {
  await playground.open();
  await playground.importConfig(DEMO);
  const panel = await orchestratorOnly(page);

  // The built-in corpus: every sample question is one the demo reads to its answer.
  await expect(panel.getByLabel('Suite contents')).toContainText('50 tasks');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  const notice = panel.getByRole('status', { name: 'Evaluation notice' });
  await expect(notice).toContainText('Done: 50 rollouts run.', { timeout: 100_000 });
  expect((await orchestratorRow(panel)).slice(0, 3)).toEqual(['★ orchestrator', '50/50', '100.0% (92.9%–100.0%)']);

  // Twelve copies of one question: each searched, answered Ankara, at the same cost.
  const copies = Array.from({ length: 12 }, (_, index) => JSON.stringify({ id: `greece-${index + 1}`, task: QUESTION, answer: 'Ankara' })).join('\n');
  await panel.getByLabel('Suite file to import').setInputFiles({ name: 'greece-12.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(copies) });
  await expect(panel.getByLabel('Suite contents')).toContainText('12 tasks');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(notice).toContainText('Done: 12 rollouts run.', { timeout: 60_000 });
  expect((await orchestratorRow(panel)).slice(0, 2)).toEqual(['★ orchestrator', '12/12']);
  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByText('Every rollout (12)').click();
  const rollouts = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('list', { name: 'Rollouts' }).getByRole('listitem');
  await expect(rollouts).toHaveCount(12);
  const costs = new Set<string>();
  for (const rollout of await rollouts.all()) {
    await expect(rollout).toContainText('exact: "Ankara" equals "Ankara"');
    costs.add(/\$[\d.]+/.exec((await rollout.textContent()) ?? '')?.[0] ?? 'none');
  }
  expect([...costs]).toHaveLength(1);
});
