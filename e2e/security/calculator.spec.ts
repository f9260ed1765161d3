// The calculator under attack (issue 8, item 4), through normal function-calling runs against the
// scripted server: mathjs ran synchronously inside the orchestrator worker, so setPowerset(1:19)
// ran past the tool deadline and maxWallSeconds, setCartesian(1:10000, 1:10000) crashed the tab
// and format(10^(10^8), {notation: "fixed"}) wrote without end. Now the caps refuse those at once,
// and whatever the caps let through runs in the calculator's own worker with a deadline, which a
// Stop or the run's time limit ends without touching the orchestrator worker or its keys.

import type { Page } from '@playwright/test';
import type { Scenario } from '../../cli/scripted/scenario.ts';
import { openSideTab, scriptedConfig, type Playground } from '../support/playground.ts';
import { expect, test } from './fixtures.ts';

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
const KEY = 'not-a-real-key-calculator-spec-placeholder';
/** Allowed by every cap, and slow: each union compares 200 × 200 BigNumbers (a fraction of a second). */
const SLOW = Array.from({ length: 60 }, () => 'setUnion(1:200, 1:200)').join('; ');
const usage = { prompt_tokens: 400, completion_tokens: 30 };
const call = (expression: string) => `<tool_call>\n${JSON.stringify({ name: 'calculator', arguments: { expression } })}\n</tool_call>`;

/** The orchestrator sends `first` (one or more calls), then answers whatever it reads back. */
function calculatorScenario(first: string): Scenario {
  return {
    models: {
      [ORCHESTRATOR]: [
        { when: '<tool_response>', repeat: true, content: '<message>Done.</message>', usage },
        { content: `<think>Let the calculator do it.</think>\n${first}`, usage },
      ],
    },
  };
}

function calculatorConfig(serverUrl: string, overrides: { codeTimeoutSeconds?: number; maxWallSeconds?: number } = {}) {
  const base = scriptedConfig(serverUrl);
  return {
    ...base,
    protocol: 'function-calling',
    experts: {},
    functionCalling: { system: 'You compute.', tools: ['calculator'] },
    paper: { codeTimeoutSeconds: overrides.codeTimeoutSeconds ?? 60 },
    limits: { maxTurns: 5, ...(overrides.maxWallSeconds === undefined ? {} : { maxWallSeconds: overrides.maxWallSeconds }) },
  };
}

/** Holds a key in the orchestrator worker's memory, through Setup as a person would. */
async function setKey(page: Page, provider: string, key: string): Promise<void> {
  await openSideTab(page, 'Setup');
  const setup = page.getByRole('region', { name: 'Setup' });
  const section = setup.locator('details').filter({ has: page.locator('summary', { hasText: 'API keys' }) });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  const row = setup.getByRole('group', { name: `Key for ${provider}` });
  await row.getByLabel(`API key for ${provider}`).fill(key);
  await row.getByRole('button', { name: 'Set key' }).click();
  await expect(row).toContainText('key set');
}

async function stoppedInMs(playground: Playground): Promise<number> {
  const stoppedIn = /in (\d+(?:\.\d)?) (ms|s)/.exec((await playground.runStatus.textContent()) ?? '');
  return Number(stoppedIn?.[1]) * (stoppedIn?.[2] === 's' ? 1000 : 1);
}

test.describe('the calculator under attack', () => {
  test.describe.configure({ timeout: 180_000 });
  // Every test asks for `sink`: nothing reaches it, and the page never stalls over a second.

  test('the expressions that ran away, crashed the tab or wrote without end come back as clear refusals', async ({ playground, scripted, sink: _sink }) => {
    const expressions = ['setPowerset(1:19)', 'setCartesian(1:10000, 1:10000)', 'format(10^(10^8), {notation:"fixed"})'];
    const server = await scripted.start(calculatorScenario(expressions.map(call).join('\n')));
    await playground.open();
    await playground.importConfig(calculatorConfig(server.url));
    await playground.run('Compute these.');
    await playground.waitForFinish(120_000);
    await expect(playground.runStatus).toContainText('Answered');
    const calls = playground.trace.getByRole('group', { name: 'Call calculator' });
    await expect(calls).toHaveCount(3);
    await expect(calls.nth(0)).toContainText('setPowerset: that would make 524288 subsets; the limit is 4096');
    await expect(calls.nth(1)).toContainText('setCartesian: that would make 100000000 pairs; the limit is 10000');
    await expect(calls.nth(2)).toContainText(/format: that would write about 10000007\d characters; the limit is 65536/);
  });

  test('a runaway expression meets its deadline and the run goes on', async ({ playground, scripted, sink: _sink }) => {
    const server = await scripted.start(calculatorScenario(call(SLOW)));
    await playground.open();
    await playground.importConfig(calculatorConfig(server.url, { codeTimeoutSeconds: 2 }));
    await playground.run('Compute this.');
    await playground.waitForFinish(120_000);
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace.getByRole('group', { name: 'Call calculator' })).toContainText('it ran longer than 2 s, so it was stopped');
  });

  test('the run’s time limit ends a runaway expression', async ({ playground, scripted, sink: _sink }) => {
    const server = await scripted.start(calculatorScenario(call(SLOW)));
    await playground.open();
    await playground.importConfig(calculatorConfig(server.url, { maxWallSeconds: 3 }));
    await playground.run('Compute this.');
    await playground.waitForFinish(60_000);
    await expect(playground.runStatus).toContainText('Stopped: reached the time limit');
  });

  test('Stop ends a runaway expression within a second and costs no key held in memory', async ({ page, playground, scripted, sink: _sink }) => {
    const server = await scripted.start(calculatorScenario(call(SLOW)));
    await playground.open();
    await playground.importConfig(calculatorConfig(server.url));
    await setKey(page, 'scripted', KEY);
    await playground.run('Compute this.');
    await expect(playground.trace.getByRole('group', { name: 'Call calculator' })).toBeVisible({ timeout: 60_000 });
    // The expression is running in the calculator's worker.
    await page.waitForTimeout(1_000);
    await playground.stopButton.click();
    await expect(playground.runStatus).toContainText(/Stopped by you in \d+/);
    expect(await stoppedInMs(playground)).toBeLessThan(1_000);

    // The orchestrator worker lived through it: the next run still sends the key it holds.
    server.reset(calculatorScenario(call('6 * 7')));
    await playground.runButton.click();
    await playground.waitForFinish(120_000);
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace.getByRole('group', { name: 'Call calculator' })).toContainText('42');
    const sent = server.requests.map((request) => request.headers.authorization).filter(Boolean);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.every((header) => header === `Bearer ${KEY}`)).toBe(true);
  });
});
