// The playground's page object and the fixtures browser specs share: a scripted
// OpenAI-compatible server per test, and a config pointing at it.
//
//   import { expect, test } from './playground.ts';
//   test('…', async ({ playground, scripted }) => {
//     const server = await scripted.start(scenario);
//     await playground.open();
//     await playground.importConfig(scriptedConfig(server.url));
//     await playground.run('What is …?');
//     await playground.waitForFinish();
//     const setup = await playground.openTab('Setup'); // Setup, Models, Documents and Tools are tabs
//   });

import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import { startScriptedServer, type ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import type { Scenario, ScriptedResponse } from '../../cli/scripted/scenario.ts';
import { test as base } from './test.ts';

const examplesDir = new URL('../../cli/examples/', import.meta.url);
const scenariosDir = new URL('../fixtures/scenarios/', import.meta.url);

/** A scenario file from e2e/fixtures/scenarios/ (the CLI's tests use the same ones). */
export function loadScenario(name: string): Scenario {
  return JSON.parse(readFileSync(new URL(`${name}.json`, scenariosDir), 'utf8')) as Scenario;
}

/** Prices per million tokens, by model, as a config's pricing table holds them. */
export type Prices = Record<string, { inputPerM: number; outputPerM: number }>;

/** What one scripted response costs at the config's prices. */
export function costOf(model: string, response: ScriptedResponse | undefined, prices: Prices): number {
  const usage = response?.usage;
  const price = prices[model];
  if (!usage || !price) throw new Error(`no usage or price for ${model}`);
  return (usage.prompt_tokens * price.inputPerM + usage.completion_tokens * price.outputPerM) / 1e6;
}

type Usage = { prompt_tokens: number; completion_tokens: number };

/** A scenario that repeats itself: at every turn Orchestrator-8B (the scripted configs' model)
 * sends `orchestrator`, and the expert model `expert.model` answers `expert.content`. */
export function everyTurn(orchestrator: { content: string; usage: Usage }, expert: { model: string; content: string; usage: Usage }): Scenario {
  return {
    models: {
      'nvidia/Nemotron-Orchestrator-8B': [{ repeat: true, ...orchestrator }],
      [expert.model]: [{ repeat: true, content: expert.content, usage: expert.usage }],
    },
  };
}

type ConfigValue = Record<string, unknown>;

/**
 * cli/examples/local-scripted.json (the paper protocol with four scripted experts and made-up
 * prices) pointed at `serverUrl`, with `overrides` laid over its top-level fields.
 */
export function scriptedConfig(serverUrl: string, overrides: ConfigValue = {}): ConfigValue {
  const example = JSON.parse(readFileSync(new URL('local-scripted.json', examplesDir), 'utf8')) as ConfigValue;
  const providers = example.providers as Record<string, ConfigValue>;
  return {
    ...example,
    providers: { ...providers, scripted: { ...providers.scripted, baseUrl: `${serverUrl}/v1` } },
    ...overrides,
  };
}

/** Puts `value` under `key` in localStorage before the page's first load only (as an earlier or
 * later build of the app would have left it); a reload finds what the app then wrote. */
export async function plantLocalStorage(page: Page, key: string, value: string): Promise<void> {
  await page.addInitScript(
    ([plantKey, plantValue]) => {
      if (sessionStorage.getItem('planted')) return;
      sessionStorage.setItem('planted', '1');
      localStorage.setItem(plantKey!, plantValue!);
    },
    [key, value],
  );
}

/** The side column's tabs: the task (with the preferences and Run), and the panels beside it. */
export type SideTabName = 'Task' | 'History' | 'Evaluate' | 'Setup' | 'Models' | 'Documents' | 'Tools';

/** Opens a side tab as a person would (the trace and the cost stay in view) and returns its panel. */
export async function openSideTab(page: Page, name: SideTabName): Promise<Locator> {
  const tab = page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  return page.getByRole('tabpanel', { name });
}

export class Playground {
  readonly task: Locator;
  /** Run and Stop are always on screen; each is disabled when it does not apply. */
  readonly runButton: Locator;
  readonly stopButton: Locator;
  readonly trace: Locator;
  readonly totalCost: Locator;
  readonly preferences: Locator;
  /** The run's status line: running, stopped, answered, or why it could not start. */
  readonly runStatus: Locator;

  constructor(readonly page: Page) {
    this.task = page.getByRole('textbox', { name: 'Task' });
    this.runButton = page.getByRole('button', { name: 'Run', exact: true });
    this.stopButton = page.getByRole('button', { name: 'Stop', exact: true });
    this.trace = page.getByRole('region', { name: 'Trace' });
    this.totalCost = page.getByLabel('Total cost');
    this.preferences = page.getByRole('group', { name: 'Preferences' });
    this.runStatus = page.getByRole('status', { name: 'Run status' });
  }

  async open(): Promise<void> {
    await this.page.goto('/');
    await this.task.waitFor();
  }

  /** Imports a config through the "Import config" button, as a person would. */
  async importConfig(config: ConfigValue, fileName = 'playground-config.json'): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    const importButton = this.page.getByRole('button', { name: 'Import config' });
    await importButton.click();
    await (await chooser).setFiles({
      name: fileName,
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(config, null, 2)),
    });
    // Reading a file is asynchronous (its reader loads after the first paint): the import has landed,
    // or been refused, when the button is no longer busy. A spec that runs next runs the imported config.
    await expect(importButton).not.toHaveAttribute('aria-busy', 'true');
  }

  /** Opens a side tab (Setup, Models, Documents, Tools, or back to the Task) and returns its panel. */
  openTab(name: SideTabName): Promise<Locator> {
    return openSideTab(this.page, name);
  }

  /** Types the task and presses Run, in the Task tab. */
  async run(task: string): Promise<void> {
    await this.openTab('Task');
    await this.task.fill(task);
    await this.runButton.click();
  }

  /** Waits until Run is offered again (the run ended, however it ended). */
  async waitForFinish(timeout = 30_000): Promise<void> {
    // Hidden ones included: the projector (presenter view with a run) shows no side column.
    const hidden = { exact: true, includeHidden: true };
    await expect(this.page.getByRole('button', { name: 'Run', ...hidden })).toBeEnabled({ timeout });
    await expect(this.page.getByRole('button', { name: 'Stop', ...hidden })).toBeDisabled({ timeout });
  }

  /** The task in the task box, also while the projector hides it. */
  async taskText(): Promise<string> {
    return this.page.getByRole('textbox', { name: 'Task', includeHidden: true }).inputValue();
  }

  /** Where the trace's step list is scrolled: its top, and how far its end is below the view. */
  async traceScroll(): Promise<{ top: number; fromEnd: number }> {
    return this.trace.locator('.trace-scroller').evaluate((scroller) => ({
      top: scroller.scrollTop,
      fromEnd: scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight,
    }));
  }

  /** The step cards of the trace, in order. */
  steps(): Locator {
    return this.trace.getByRole('article');
  }
}

export const test = base.extend<{ playground: Playground; scripted: { start(scenario: Scenario): Promise<ScriptedServer> } }>({
  playground: async ({ page }, use) => {
    await use(new Playground(page));
  },
  // Servers started by a test are closed when it ends.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none.
  scripted: async ({}, use) => {
    const servers: ScriptedServer[] = [];
    await use({
      async start(scenario) {
        const server = await startScriptedServer({ scenario });
        servers.push(server);
        return server;
      },
    });
    await Promise.all(servers.map((server) => server.close()));
  },
});

export { expect } from '@playwright/test';
