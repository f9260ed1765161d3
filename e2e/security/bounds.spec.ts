// Nothing a model, a simulated user or a shared run file sends holds the orchestrator worker,
// freezes the page or erases a run (issue 31, items 6 to 8), in the real page against the hostile
// scripted server: τ²'s `calculate` given a product of a thousand powers (it ran about four
// minutes in the worker that holds the keys, deaf to Stop and to the run's time limit), the same
// call kept in a forged run file and replayed by a fork, a tool-call delta at stream index
// 4,294,967,294, a call nested 5,000 deep (the run left no record at all), and a simulated user's
// turn of 60,000 calls (drawn as 60,000 rows).

import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import type { ScriptedResponse } from '../../cli/scripted/scenario.ts';
import { ORCHESTRATOR_MODEL } from '../fixtures/cliHarness.ts';
import { tau2Config, TAU2_USER } from '../fixtures/tau2Eval.ts';
import { AGENT, USAGE } from '../fixtures/tau2/evalCli.ts';
import { openSideTab, scriptedConfig, type Playground } from '../support/playground.ts';
import { expect, test } from './fixtures.ts';

// τ²-retail's 1.2 MB database loads with the first run in its domain, on a loaded two-core box.
test.describe.configure({ timeout: 120_000 });

/** 1,000 factors of 9**24000: 9 KB, each power under the old per-power cap. */
const COSTLY = Array(1000).fill('9**24000').join('*');
const REFUSED = 'an int in this expression would have more than 100,000 bits';

const call = (name: string, args: unknown) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const turn = (content: string, extra: Partial<ScriptedResponse> = {}): ScriptedResponse => ({ content, usage: { prompt_tokens: 800, completion_tokens: 30 }, ...extra });
const DONE = turn('<message>Done: I have taken care of your request.</message>');

/** Opens the page on the scripted config (with `limits`), the Task tab's domain τ²-Bench retail. */
async function inRetail(page: Page, playground: Playground, url: string, limits: Record<string, unknown> = { maxTurns: 10 }): Promise<void> {
  await playground.open();
  await playground.importConfig(scriptedConfig(url, { limits }));
  await page.getByRole('combobox', { name: 'Domain' }).selectOption({ label: 'τ²-Bench retail' });
}

test.describe('the worker never blocks', () => {
  test('a costly calculate is refused at once, and the run’s time limit ends a run that keeps asking for it', async ({ page, playground, scripted }) => {
    const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: [turn(call('calculate', { expression: COSTLY }), { repeat: true })] } });
    await inRetail(page, playground, server.url, { maxTurns: 500, maxWallSeconds: 5 });
    const started = Date.now();
    await playground.run('What is the product of these?');
    await expect(playground.trace).toContainText(REFUSED, { timeout: 60_000 });
    await playground.waitForFinish(30_000);
    await expect(playground.runStatus).toContainText('Stopped: reached the time limit');
    // Five seconds of limit, and the page's and the worker's start-up on a loaded box.
    expect(Date.now() - started).toBeLessThan(40_000);
  });

  test('Stop ends a run that keeps asking for a costly calculate, at once', async ({ page, playground, scripted }) => {
    // A reply a second, as a model streams one: the run goes on until stopped.
    const slow = { repeat: true, chunkSize: 4_000, chunkDelayMs: 400 };
    const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: [turn(call('calculate', { expression: COSTLY }), slow)] } });
    await inRetail(page, playground, server.url, { maxTurns: 500 });
    await playground.run('What is the product of these?');
    await expect(playground.trace).toContainText(REFUSED, { timeout: 60_000 });
    const pressed = Date.now();
    await playground.stopButton.click();
    await playground.waitForFinish(10_000);
    expect(Date.now() - pressed).toBeLessThan(10_000);
    await expect(playground.runStatus).toContainText('Stopped by you');
  });

  test('a tool-call delta at stream index 4,294,967,294 is one call, read at once', async ({ page, playground, scripted }) => {
    const far = turn('', { toolCalls: [{ name: 'calculate', arguments: { expression: '2 + 3' }, index: 4_294_967_294 }] });
    const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: [far, DONE] } });
    await inRetail(page, playground, server.url);
    await playground.run('What is 2 + 3?');
    await playground.waitForFinish(60_000);
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace.getByRole('group', { name: 'Call calculate' })).toContainText(/Result\s*5/);
  });

  test('a forged run file’s kept costly calculate is not replayed for minutes: the fork is refused at once, saying why', async ({ page, playground, scripted }) => {
    // A real run in the domain, exported; its kept call then forged into the costly one.
    const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: [turn(call('calculate', { expression: '2 + 3' })), DONE, DONE] } });
    await inRetail(page, playground, server.url);
    await playground.run('What is 2 + 3?');
    await playground.waitForFinish(60_000);
    const history = await openSideTab(page, 'History');
    const download = page.waitForEvent('download');
    await history.getByRole('list', { name: 'Stored runs' }).getByRole('article').first().getByRole('button', { name: 'Export' }).click();
    const exported = await readFile(await (await download).path(), 'utf8');
    // The call's arguments (a JSON string "2 + 3" wherever they are kept), and the task, so the
    // forged run is told apart from the one it was made from.
    const forged = exported.replace(/"2 \+ 3"/g, JSON.stringify(COSTLY)).replaceAll('What is 2 + 3?', 'Forged: what is this product?');
    expect(forged).toContain(COSTLY);

    const panel = await openSideTab(page, 'History');
    await panel.getByTestId('history-import-input').setInputFiles({ name: 'forged.json', mimeType: 'application/json', buffer: Buffer.from(forged) });
    await expect(panel.getByRole('status')).toContainText('Imported 1 run from "forged.json"');
    await panel.getByRole('list', { name: 'Stored runs' }).getByRole('article').filter({ hasText: 'Forged: what is this product?' }).getByRole('button', { name: 'Open' }).click();
    const banner = page.getByTestId('stored-run-banner');
    await banner.getByRole('combobox', { name: 'Run again from' }).selectOption({ label: 'after step 1' });
    page.once('dialog', (dialog) => void dialog.accept());
    const pressed = Date.now();
    await banner.getByRole('button', { name: 'Run again' }).click();
    await playground.openTab('Task');
    await expect(playground.runStatus).toContainText("This run cannot go on from the stored one: step 1's call calculate succeeded in the stored run but fails on a fresh copy", { timeout: 30_000 });
    await expect(playground.runStatus).toContainText(REFUSED);
    expect(Date.now() - pressed).toBeLessThan(30_000);
  });
});

test.describe('a run always leaves a record', () => {
  test('a call nested 5,000 deep is refused as the reply’s own problem; the run goes on and History keeps it whole', async ({ page, playground, scripted }) => {
    // 10 kB of text: JSON.stringify itself overflows on the value.
    const nested = `<tool_call>\n{"name": "calculate", "arguments": {"expression": ${'['.repeat(5_000)}"x"${']'.repeat(5_000)}}}\n</tool_call>`;
    const server = await scripted.start({ models: { [ORCHESTRATOR_MODEL]: [turn(nested), DONE] } });
    await inRetail(page, playground, server.url);
    await playground.run('Work this out.');
    await playground.waitForFinish(60_000);
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace).toContainText('the call nests more than 128 arrays and objects deep, more than the playground reads');
    const history = await openSideTab(page, 'History');
    const row = history.getByRole('list', { name: 'Stored runs' }).getByRole('article').first();
    await expect(row).toContainText('Work this out.');
    await expect(row).toContainText('Answered');
  });
});

test.describe('bounded conversations', () => {
  test('a simulated user’s turn of 60,000 calls ends its rollout with the reason; nothing draws 60,000 rows', async ({ page, playground, scripted }) => {
    const calls = Array.from({ length: 60_000 }, (_, i) => ({ name: 'check_status_bar', arguments: {}, id: `u${i}` }));
    const server = await scripted.start({ models: { [AGENT]: [{ content: 'How can I help?', usage: USAGE, repeat: true }], [TAU2_USER]: [{ content: '', toolCalls: calls, usage: USAGE }] } });
    await playground.open();
    await playground.importConfig(tau2Config(server.url));
    const panel = await openSideTab(page, 'Evaluate');
    await panel.getByRole('combobox', { name: 'Suite' }).selectOption('tau2-retail');
    await expect(panel.getByLabel('Suite contents')).toContainText('domain: tau2-retail', { timeout: 30_000 });
    await panel.getByRole('combobox', { name: 'Simulated user' }).selectOption('user-sim');
    await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
    await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
    await panel.getByRole('spinbutton', { name: 'Rollouts per task' }).fill('1');
    await panel.getByRole('textbox', { name: 'Tasks (first N)' }).fill('1');
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Done: 1 rollouts run.', { timeout: 90_000 });
    const results = page.getByRole('region', { name: 'Evaluation results' });
    await expect(results).toContainText('1 stopped abnormally');
    await results.getByText('Every rollout (1)').click();
    const rollout = results.getByRole('list', { name: 'Rollouts' }).getByRole('listitem');
    await expect(rollout).toContainText('failed at its turn 1 of task 0');
    await expect(rollout).toContainText('more than 128 tool calls in one reply');
    // Its stored run: the error in the status line, no user turn of 60,000 rows.
    await rollout.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByRole('status', { name: 'Run status' })).toContainText('Stopped by an error');
    await expect(page.locator('.user-turn-call')).toHaveCount(0);
  });
});
