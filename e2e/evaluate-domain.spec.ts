// A built-in domain suite in the Evaluate tab: the retail domain's tasks run in the page's
// orchestrator worker (its tools in QuickJS) against the scripted server, which plays one task's
// golden actions and one wrong write for another. The first is solved, the second not, its verdict
// names the row; the stored run's trace shows the rows the write changed. The results survive a
// reload (kept in IndexedDB) until cleared.

import type { Locator, Page } from '@playwright/test';
import { ORCHESTRATOR_MODEL } from './fixtures/cliHarness.ts';
import { actionsOf, playActions } from './fixtures/evalScenario.ts';
import { builtInDomainDir, loadDomainDir } from '../cli/nodeDomains.ts';
import { expect, scriptedConfig, test } from './support/playground.ts';

// 24 domain rollouts one at a time through the page, the worker and QuickJS on a loaded two-core box.
test.describe.configure({ timeout: 120_000 });

const retail = loadDomainDir(builtInDomainDir('retail'));
const SOLVED = 'retail-01-cancel-by-mistake';
const WRONG = 'retail-02-cancel-no-longer-needed';

/** The orchestrator's turns, task after task in the suite's order: the golden calls for SOLVED, a
 * cancellation with the wrong reason for WRONG, and for every other task only a message (no write). */
function retailScenario() {
  return {
    models: {
      [ORCHESTRATOR_MODEL]: retail.tasks.flatMap((task) =>
        task.id === SOLVED
          ? playActions(actionsOf(task))
          : task.id === WRONG
            ? playActions([{ name: 'cancel_order', arguments: { order_id: 'O-5003', reason: 'ordered_by_mistake' } }])
            : playActions([]),
      ),
    },
  };
}

async function openEvaluate(page: Page): Promise<Locator> {
  await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'Evaluate' }).click();
  return page.getByRole('tabpanel', { name: 'Evaluate' });
}

test('the retail suite: the golden calls solve a task, a wrong write does not and its verdict names the row; the trace shows the diff', async ({ playground, page, scripted }) => {
  const server = await scripted.start(retailScenario());
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));
  const panel = await openEvaluate(page);

  await panel.getByRole('combobox', { name: 'Suite' }).selectOption('retail');
  await expect(panel.getByLabel('Suite contents')).toContainText(`${retail.tasks.length} tasks · checks: db ${retail.tasks.length} · domain: retail`);
  await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
  // One at a time: the scripted turns are served in order, task after task.
  await panel.getByRole('spinbutton', { name: 'Concurrency' }).fill('1');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText(`Done: ${retail.tasks.length} rollouts run.`, { timeout: 100_000 });

  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByText(`Every rollout (${retail.tasks.length})`).click();
  const rollouts = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('list', { name: 'Rollouts' });
  const solved = rollouts.getByRole('listitem').filter({ hasText: `${SOLVED} · orchestrator` });
  await expect(solved.getByLabel('correct', { exact: true })).toBeVisible();
  await expect(solved).toContainText('the database equals the golden state');
  const wrong = rollouts.getByRole('listitem').filter({ hasText: `${WRONG} · orchestrator` });
  await expect(wrong.getByLabel('wrong', { exact: true })).toBeVisible();
  await expect(wrong).toContainText('the database differs from the golden state in 1 row: orders/O-5003: cancel_reason is "ordered_by_mistake", expected "no_longer_needed"');
  // Tasks whose golden state is the seed (the policy says to refuse) are solved by changing nothing;
  // those that needed a write are not.
  const refusals = retail.tasks.filter((task) => task.id !== WRONG && actionsOf(task).length === 0).length;
  const row = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('table', { name: 'Results per policy' }).locator('tr[data-policy="orchestrator"]');
  await expect(row.locator('td').first()).toHaveText(`${refusals + 1}/${retail.tasks.length}`);

  // The wrong rollout's stored run: the cancel_order call and the rows it changed, before and after.
  await wrong.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('stored-run-banner')).toBeVisible();
  const call = playground.trace.getByRole('group', { name: 'Call cancel_order' });
  await expect(call).toContainText('Database · 2 rows changed');
  const order = call.getByRole('table', { name: 'orders/O-5003' });
  await expect(order.getByRole('row', { name: /^cancel_reason/ })).toHaveText(['cancel_reason', 'null', '"ordered_by_mistake"'].join(''));
  await expect(order.getByRole('row', { name: /^status/ })).toHaveText(['status', '"pending"', '"cancelled"'].join(''));
  await call.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('domain-diff.png') });

  // After a reload the last results come back from this browser's storage: the table, the charts,
  // every rollout's verdict. Clear takes them away for good.
  await page.reload();
  await openEvaluate(page);
  // The results are in the centre while the tab is open.
  const again = page.getByRole('region', { name: 'Evaluation results' });
  await expect(again.getByRole('heading', { name: /^Results/ })).toContainText('builtin:retail · kept from');
  await expect(again.getByRole('table', { name: 'Results per policy' }).locator('tr[data-policy="orchestrator"] td').first()).toHaveText(`${refusals + 1}/${retail.tasks.length}`);
  await expect(again.getByRole('figure', { name: 'Accuracy against cost' })).toBeVisible();
  await again.getByText(`Every rollout (${retail.tasks.length})`).click();
  await expect(again.getByRole('list', { name: 'Rollouts' }).getByRole('listitem').filter({ hasText: `${WRONG} · orchestrator` })).toContainText('orders/O-5003: cancel_reason is "ordered_by_mistake"');
  await again.getByRole('button', { name: 'Clear' }).click();
  await expect(again.getByText(/^No results yet/)).toBeVisible();
  await page.reload();
  const cleared = await openEvaluate(page);
  await expect(cleared.getByRole('combobox', { name: 'Suite' })).toBeVisible();
  await expect(again.getByText(/^No results yet/)).toBeVisible();
  await expect(again.getByRole('table', { name: 'Results per policy' })).toHaveCount(0);
});
