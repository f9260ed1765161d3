// Keys are bound to the endpoint they were entered for (docs/security.md, "Keys"): a remembered
// OpenAI key and an Anthropic key held in memory, each pointed elsewhere by an imported config or
// an edit, are held back and never reach the new host until the user agrees in Setup. And a
// redirect from an endpoint is never followed, so its key cannot ride along to the sink.

import type { Page } from '@playwright/test';
import type { Scenario } from '../../cli/scripted/scenario.ts';
import type { ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { openSideTab, type Playground } from '../support/playground.ts';
import { formatToolCall } from '../../workers/engine/qwen3/render.ts';
import { expect, lightConfig, ORCHESTRATOR, test } from './fixtures.ts';

const KEY = 'not-a-real-key-origin-binding-placeholder';
const EXPERT = 'scripted/answerer-mini';

/** The orchestrator answers at once. */
const directAnswer: Scenario = { models: { [ORCHESTRATOR]: [{ repeat: true, content: '<message>Helsinki</message>' }] } };

/** The orchestrator hands the turn to expert-1, which answers. */
const expertAnswer: Scenario = {
  models: {
    [ORCHESTRATOR]: [{ repeat: true, content: formatToolCall({ name: 'call_expert', arguments: { expert: 'expert-1' } }) }],
    [EXPERT]: [{ repeat: true, content: '<message>Helsinki</message>' }],
  },
};

type ConfigValue = Record<string, unknown>;

/** The orchestrator alone, on a provider called `name`. */
function withProvider(serverUrl: string, name: string): ConfigValue {
  const config = lightConfig(serverUrl);
  const providers = config.providers as Record<string, ConfigValue>;
  return { ...config, providers: { [name]: providers.scripted }, orchestrator: { ...(config.orchestrator as ConfigValue), provider: name } };
}

/** The orchestrator on `scripted` (no key), and expert-1 on an Anthropic provider `claude`. */
function withAnthropicExpert(orchestratorUrl: string, claudeUrl: string): ConfigValue {
  const config = lightConfig(orchestratorUrl);
  return {
    ...config,
    providers: { ...(config.providers as ConfigValue), claude: { kind: 'anthropic', baseUrl: claudeUrl } },
    experts: { 'expert-1': { tool: 'call_expert', provider: 'claude', model: EXPERT, description: 'answers.' } },
  };
}

function setupPanel(page: Page) {
  return page.getByRole('region', { name: 'Setup' });
}

function keyRow(page: Page, provider: string) {
  return setupPanel(page).getByRole('group', { name: `Key for ${provider}` });
}

async function openSection(page: Page, title: string): Promise<void> {
  await openSideTab(page, 'Setup');
  const section = setupPanel(page).locator('details').filter({ has: page.locator('summary', { hasText: title }) });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  await expect(section).toHaveAttribute('open', '');
}

async function setKey(page: Page, provider: string, remember: boolean): Promise<void> {
  await openSection(page, 'API keys');
  const row = keyRow(page, provider);
  await row.getByLabel(`API key for ${provider}`).fill(KEY);
  if (remember) await row.getByLabel('Remember on this device').check();
  await row.getByRole('button', { name: 'Set key' }).click();
  await expect(row).toContainText(remember ? 'key set, remembered on this device' : 'key set');
}

/** The key each POST to a model endpoint carried, oldest first (CORS preflights left out);
 * `path` keeps only one endpoint's. */
function keysSent(server: ScriptedServer, path?: string, from = 0): Array<string | undefined> {
  return server.requests
    .slice(from)
    .filter((request) => request.method === 'POST' && (path === undefined || request.path === path))
    .map((request) => request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, ''));
}

async function runAndExpect(playground: Playground, outcome: string): Promise<void> {
  await playground.run('What is the capital of Finland?');
  await playground.waitForFinish();
  await expect(playground.runStatus).toContainText(outcome);
}

test.describe('keys are bound to their endpoint', () => {
  test('a remembered OpenAI key is held back from the host an imported config names, until the user agrees', async ({
    page,
    playground,
    scripted,
  }) => {
    const [first, second] = await Promise.all([scripted.start(directAnswer), scripted.start(directAnswer)]);
    await playground.open();
    await playground.importConfig(withProvider(first.url, 'openai'), 'mine.json');
    await setKey(page, 'openai', true);
    await runAndExpect(playground, 'Answered');
    expect(keysSent(first)).toEqual([KEY]);

    // A later visit: the key comes back from this device's storage, with its address.
    await page.reload();
    await playground.openTab('Setup');
    const row = keyRow(page, 'openai');
    await expect(row).toContainText('key set, remembered on this device');
    await expect(row).toContainText(`Sent only to ${first.url}`);

    await playground.importConfig(withProvider(second.url, 'openai'), 'shared.json');
    const question = row.getByRole('alert');
    await expect(question).toContainText(`This key was entered for ${first.url}, and openai now sends its requests to ${second.url}.`);
    await expect(question).toContainText('The key is not sent there unless you say so.');
    await expect(row).toContainText('key held back');
    await expect(setupPanel(page).locator('summary', { hasText: 'API keys' })).toContainText('1 held back');

    await runAndExpect(playground, 'The run could not start.');
    await expect(playground.runStatus).toContainText(
      `The key for "openai" was entered for ${first.url}, and this config sends openai's requests to ${second.url}. The key was not sent.`,
    );
    expect(second.requests).toEqual([]);

    await playground.openTab('Setup');
    await question.getByRole('button', { name: `Use it with ${second.url}` }).click();
    await expect(question).toBeHidden();
    await expect(row).toContainText(`Sent only to ${second.url}`);
    const firstBefore = first.requests.length;
    await runAndExpect(playground, 'Answered');
    expect(keysSent(second)).toEqual([KEY]);
    expect(first.requests.length).toBe(firstBefore);

    // The agreement is remembered with the key.
    await page.reload();
    await playground.openTab('Setup');
    await expect(keyRow(page, 'openai')).toContainText(`Sent only to ${second.url}`);
    await expect(keyRow(page, 'openai').getByRole('alert')).toHaveCount(0);
  });

  test('an Anthropic key held in memory is held back when an edit points the provider elsewhere', async ({ page, playground, scripted }) => {
    const [first, second] = await Promise.all([scripted.start(expertAnswer), scripted.start(expertAnswer)]);
    await playground.open();
    await playground.importConfig(withAnthropicExpert(first.url, first.url));
    await setKey(page, 'claude', false);
    await runAndExpect(playground, 'Answered');
    expect(keysSent(first, '/v1/messages')).toEqual([KEY]);

    await openSection(page, 'Providers');
    await setupPanel(page).getByRole('group', { name: 'claude' }).getByLabel('Base URL').fill(`${second.url}/v1`);
    const row = keyRow(page, 'claude');
    await expect(row.getByRole('alert')).toContainText(`This key was entered for ${first.url}, and claude now sends its requests to ${second.url}.`);
    await runAndExpect(playground, 'The run could not start.');
    expect(second.requests).toEqual([]);

    // Entering another key is the other way out: it is bound to the new address at once.
    await playground.openTab('Setup');
    await row.getByLabel('API key for claude').fill(`${KEY}-2`);
    await row.getByRole('button', { name: 'Set key' }).click();
    await expect(row.getByRole('alert')).toHaveCount(0);
    await expect(row).toContainText(`Sent only to ${second.url}`);
    await playground.importConfig(withAnthropicExpert(first.url, first.url));
    await row.getByRole('alert').getByRole('button', { name: `Use it with ${first.url}` }).click();
    const before = first.requests.length;
    await runAndExpect(playground, 'Answered');
    expect(keysSent(first, '/v1/messages', before)).toEqual([`${KEY}-2`]);
    expect(second.requests).toEqual([]);
  });
});

test.describe('redirects', () => {
  test('an endpoint that redirects to another host gets no key there: the run says where it pointed', async ({ playground, scripted, sink }) => {
    const server = await scripted.start(expertAnswer);
    await playground.open();
    await playground.importConfig(withAnthropicExpert(server.url, server.url));
    await setKey(playground.page, 'claude', false);
    server.setFault({ kind: 'redirect', status: 307, location: `${sink.url}/v1/messages` });
    // The orchestrator's own call (no key) is the first to meet it.
    await runAndExpect(playground, 'Stopped by an error');
    await expect(playground.runStatus).toContainText('The endpoint redirected the request elsewhere');
    await expect(playground.runStatus).toContainText('which the browser does not reveal');
    await expect(playground.runStatus).toContainText('never follow a redirect');

    // The Anthropic expert's call, with its x-api-key, meets it too.
    server.reset(expertAnswer);
    server.setFault(null);
    const scenario: Scenario = {
      models: {
        ...expertAnswer.models,
        [EXPERT]: [{ content: '<message>Helsinki</message>', fault: { kind: 'redirect', location: `${sink.url}/v1/messages` } }],
      },
    };
    server.reset(scenario);
    await playground.run('What is the capital of Finland?');
    await playground.waitForFinish();
    const trace = playground.trace;
    await expect(trace).toContainText('redirected the request');
    expect(keysSent(server, '/v1/messages')).toEqual([KEY]);
  });
});
