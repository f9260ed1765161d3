// A task typed into the Task tab, run in a domain picked there (issue 23 item 5): a ToolScale one
// (railway) and a τ²-Bench one (retail). The scripted orchestrator (the real scripted server)
// calls the domain's write tool; the run's system prompt is the domain's policy, the call runs
// against the domain's database in the page's worker, and the trace shows the rows it changed.
// The domain's data is fetched with its first run, not with the page.

import type { Page } from '@playwright/test';
import { readTau2Domain } from '../cli/nodeTau2.ts';
import { ORCHESTRATOR_MODEL } from './fixtures/cliHarness.ts';
import { requestsFor } from './fixtures/cliHarness.ts';
import { playActions } from './fixtures/evalScenario.ts';
import { expect, scriptedConfig, test } from './support/playground.ts';

// The page, its worker and a domain's first load (railway's database, retail's 1.2 MB) on a loaded two-core box.
test.describe.configure({ timeout: 90_000 });

/** Whether the page (its workers included) has fetched a script holding `marker`, a string found
 * only in one domain's database. */
function watchFor(page: Page, marker: string): { seen: boolean } {
  const watch = { seen: false };
  page.context().on('response', (response) => {
    if (!/\.(js|json)(\?|$)/.test(response.url())) return;
    void response
      .text()
      .then((text) => {
        if (text.includes(marker)) watch.seen = true;
      })
      .catch(() => undefined);
  });
  return watch;
}

test('a ToolScale domain: the typed task runs against railway’s database and the trace shows the rows changed', async ({ playground, page, scripted }) => {
  const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: playActions([{ name: 'cancel_reservation', arguments: { reservation_id: 'cz201' } }]) } });
  // Railway's database holds this booking reference; nothing else the app ships does.
  const railwayData = watchFor(page, 'czpnr12345');
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));

  // The picker is a labelled select the keyboard reaches and moves through.
  const domain = page.getByRole('combobox', { name: 'Domain' });
  await expect(domain).toHaveValue('');
  await domain.focus();
  await page.keyboard.press('ArrowDown');
  await expect(domain).toHaveValue('retail');
  await domain.selectOption({ label: 'ToolScale railway' });
  await expect(domain).toHaveValue('toolscale-railway');
  await expect(page.getByRole('group', { name: 'Protocol' })).toContainText('ToolScale railway: its policy, its tools over a fresh copy of its database, function calling.');
  expect(railwayData.seen).toBe(false);

  await playground.run('Please cancel my train reservation cz201; I am user cz101.');
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('Answered · 2 steps');
  await expect(playground.trace).toContainText('I have taken care of your request');
  await expect.poll(() => railwayData.seen).toBe(true);

  // The orchestrator read railway's policy and was offered railway's tools.
  const [first] = requestsFor(server.requests, ORCHESTRATOR_MODEL);
  const system = first!.body.messages[0]!.content;
  expect(system.startsWith(readTau2Domain('railway').policy)).toBe(true);
  for (const tool of readTau2Domain('railway').agentTools) expect(system).toContain(`"name": "${tool.name}"`);

  // The call ran against the domain's database: τ²'s answer, and the row it changed.
  const call = playground.trace.getByRole('group', { name: 'Call cancel_reservation' });
  await expect(call).toContainText(/Database · \d+ rows? changed/);
  const reservation = call.getByRole('table', { name: 'reservations/cz201' });
  await expect(reservation.getByRole('row', { name: /^status/ })).toHaveText(['status', '"confirmed"', '"cancelled"'].join(''));
  await call.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('toolscale-railway.png') });
});

test('a τ²-Bench domain: retail’s policy and tools, a fresh database each run, the order’s row changed', async ({ playground, page, scripted }) => {
  const cancel = playActions([{ name: 'cancel_pending_order', arguments: { order_id: '#W5918442', reason: 'no longer needed' } }]);
  const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: [...cancel, ...cancel] } });
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));
  await page.getByRole('combobox', { name: 'Domain' }).selectOption({ label: 'τ²-Bench retail' });

  for (const round of [1, 2]) {
    await playground.run('Cancel my pending order #W5918442, I no longer need it.');
    await playground.waitForFinish(60_000);
    // Each run starts from the seed: the second cancels the same pending order again.
    const call = playground.trace.getByRole('group', { name: 'Call cancel_pending_order' });
    const order = call.getByRole('table', { name: 'orders/#W5918442' });
    await expect(order.getByRole('row', { name: /^status/ }), `run ${round}`).toHaveText(['status', '"pending"', '"cancelled"'].join(''));
    await expect(call, `run ${round}`).toContainText('"status": "cancelled"');
  }
  const requests = requestsFor(server.requests, ORCHESTRATOR_MODEL);
  expect(requests[0]!.body.messages[0]!.content.startsWith(readTau2Domain('retail').policy)).toBe(true);
  // The call's result went back to the orchestrator as τ² words it.
  expect(JSON.stringify(requests[1]!.body.messages.at(-1))).toContain('cancelled');
});

test('a built-in domain: its tools run in the sandbox against its own database', async ({ playground, page, scripted }) => {
  const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: playActions([{ name: 'cancel_order', arguments: { order_id: 'O-5001', reason: 'ordered_by_mistake' } }]) } });
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));
  await page.getByRole('combobox', { name: 'Domain' }).selectOption({ label: 'Retail (built in)' });
  await playground.run('I am Maya Chen; please cancel order O-5001, I ordered it by mistake.');
  await playground.waitForFinish(60_000);
  const call = playground.trace.getByRole('group', { name: 'Call cancel_order' });
  await expect(call.getByRole('table', { name: 'orders/O-5001' }).getByRole('row', { name: /^status/ })).toHaveText(['status', '"pending"', '"cancelled"'].join(''));
  expect(requestsFor(server.requests, ORCHESTRATOR_MODEL)[0]!.body.messages[0]!.content).toContain('Harbor & Pine Outfitters');
});

test('History runs a domain run again in its domain: from the start, and after step 1 from the database step 1 left', async ({ playground, page, scripted }) => {
  test.setTimeout(150_000);
  const cancel = playActions([{ name: 'cancel_pending_order', arguments: { order_id: '#W5918442', reason: 'no longer needed' } }]);
  const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: cancel } });
  const retail = readTau2Domain('retail');
  await playground.open();
  // Tools to the server: a function-calling run can be forked then (fork.ts).
  await playground.importConfig(scriptedConfig(server.url, { orchestrator: { provider: 'scripted', model: ORCHESTRATOR_MODEL, toolMode: 'server' } }));
  const domain = page.getByRole('combobox', { name: 'Domain' });
  await domain.selectOption({ label: 'τ²-Bench retail' });
  await playground.run('Cancel my pending order #W5918442, I no longer need it.');
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('Answered · 2 steps');
  // The picker back on None: what runs again comes from the stored run, not from the picker.
  await domain.selectOption({ label: 'None' });

  const runAgain = async (after: string, steps: number) => {
    const history = page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'History' });
    await history.click();
    await page.getByRole('tabpanel', { name: 'History' }).getByRole('list', { name: 'Stored runs' }).getByRole('article').first().getByRole('button', { name: 'Open' }).click();
    const banner = page.getByTestId('stored-run-banner');
    await expect(banner).toContainText('It plays in the same domain, τ²-Bench retail.');
    await banner.getByRole('combobox', { name: 'Run again from' }).selectOption({ label: after });
    page.once('dialog', (dialog) => void dialog.accept());
    await banner.getByRole('button', { name: 'Run again' }).click();
    await playground.openTab('Task');
    await playground.waitForFinish(60_000);
    await expect(playground.runStatus).toContainText(`Answered · ${steps} steps`);
  };

  // From the start: retail's policy and tools, its fresh database (the order pending again).
  server.reset({ models: { [ORCHESTRATOR_MODEL]: cancel } });
  await runAgain('from the start', 2);
  const [again] = requestsFor(server.requests, ORCHESTRATOR_MODEL);
  expect(again!.body.messages[0]!.content.startsWith(retail.policy)).toBe(true);
  expect(again!.body.tools?.map((tool) => (tool as { function: { name: string } }).function.name)).toEqual(expect.arrayContaining(retail.agentTools.map((tool) => tool.name)));
  const call = playground.trace.getByRole('group', { name: 'Call cancel_pending_order' });
  await expect(call.getByRole('table', { name: 'orders/#W5918442' }).getByRole('row', { name: /^status/ })).toHaveText(['status', '"pending"', '"cancelled"'].join(''));

  // After step 1: step 1's cancellation kept as recorded and its database rebuilt, so the order
  // the live step 2 looks up is cancelled.
  server.reset({ models: { [ORCHESTRATOR_MODEL]: playActions([{ name: 'get_order_details', arguments: { order_id: '#W5918442' } }]) } });
  await runAgain('after step 1', 3);
  const [forked] = requestsFor(server.requests, ORCHESTRATOR_MODEL);
  expect(forked!.body.messages[0]!.content.startsWith(retail.policy)).toBe(true);
  await expect(playground.trace.getByRole('group', { name: 'Call get_order_details' })).toContainText('"status": "cancelled"');
  expect(requestsFor(server.requests, ORCHESTRATOR_MODEL)).toHaveLength(2);
});
