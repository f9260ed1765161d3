// "Run evaluation" asks each endpoint its policies will call once, before the first rollout is
// paid for (issue 24, item 4): with one of them unreachable it refuses to start, names it and says
// what to do, and no rollout's request reaches the scripted server; with all of them there, the
// check is one GET of /models each before the first chat request.

import { closedPort } from './fixtures/closedPort.ts';
import type { Locator, Page } from '@playwright/test';
import { corpusEvalScenario } from './fixtures/evalScenario.ts';
import { expect, openSideTab, scriptedConfig, test } from './support/playground.ts';

test.describe.configure({ timeout: 90_000 });


async function evaluateTab(page: Page): Promise<Locator> {
  const panel = await openSideTab(page, 'Evaluate');
  await expect(panel.getByLabel('Suite contents')).toContainText('50 tasks');
  return panel;
}

test('one unreachable endpoint: the evaluation is refused, the endpoint and its alias named, and nothing is sent to the others', async ({ playground, page, scripted }) => {
  const server = await scripted.start(corpusEvalScenario());
  const port = await closedPort();
  const unreachable = `http://127.0.0.1:${port}/v1`;
  const config = scriptedConfig(server.url);
  const providers = config.providers as Record<string, Record<string, unknown>>;
  const experts = config.experts as Record<string, Record<string, unknown>>;
  await playground.open();
  // The strongest expert is served from an address where nothing listens.
  await playground.importConfig({
    ...config,
    providers: { ...providers, elsewhere: { ...providers.scripted, baseUrl: unreachable } },
    experts: { ...experts, 'answer-1': { ...experts['answer-1'], provider: 'elsewhere' } },
  });
  const panel = await evaluateTab(page);
  await panel.getByRole('button', { name: 'Run evaluation' }).click();

  const notice = panel.getByRole('alert', { name: 'Evaluation notice' });
  await expect(notice).toContainText('The evaluation could not start', { timeout: 20_000 });
  await expect(notice).toContainText(`The endpoint ${unreachable} (provider “elsewhere”)`);
  await expect(notice).toContainText('alias answer-1');
  await expect(notice).toContainText('could not be reached');
  await expect(notice).toContainText('Try the demo');
  await expect(panel.getByRole('button', { name: 'Run evaluation' })).toBeEnabled();
  // The reachable endpoint was asked once whether it is there, and no rollout was paid for.
  expect(server.requests.filter((request) => request.method === 'POST')).toEqual([]);
  expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models']);
});

test('every endpoint there: one look at /models, then the rollouts', async ({ playground, page, scripted }) => {
  const server = await scripted.start(corpusEvalScenario());
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));
  const panel = await evaluateTab(page);
  await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect.poll(() => server.requests.filter((request) => request.method === 'POST').length, { timeout: 30_000 }).toBeGreaterThan(0);
  await panel.getByRole('button', { name: 'Stop' }).click();
  const paths = server.requests.map((request) => `${request.method} ${request.path}`);
  expect(paths[0]).toBe('GET /v1/models');
  expect(paths.filter((path) => path === 'GET /v1/models')).toHaveLength(1);
  await expect(panel.getByRole('alert', { name: 'Evaluation notice' })).toHaveCount(0);
});

test('the built-in example with no server behind it: refused, its endpoints named, before anything is sent', async ({ playground, page }) => {
  await playground.open();
  const panel = await evaluateTab(page);
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  const notice = panel.getByRole('alert', { name: 'Evaluation notice' });
  await expect(notice).toContainText('The evaluation could not start', { timeout: 20_000 });
  await expect(notice).toContainText('The endpoint http://localhost:8000/v1 (provider “vllm”), which the orchestrator calls');
  await expect(notice).toContainText('Fix it in Setup');
});
