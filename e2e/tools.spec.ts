// Tools you write: the Tools panel (Monaco, Try it, IndexedDB, config export and import) and a
// function-calling run against the scripted server in which the orchestrator calls a custom tool,
// gets its arguments wrong, reads the validation error, and tries to reach the host from the sandbox.

import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { expect, scriptedConfig, test } from './support/playground.ts';

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
// A loaded machine: Monaco, QuickJS and a production build all take their time.
const SLOW = { timeout: 60_000 };

const UNIT_PRICE = {
  name: 'unit_price',
  description: 'The price of one item, given the total price and how many items there are.',
  parameters: {
    type: 'object',
    properties: { total: { type: 'number' }, count: { type: 'integer', minimum: 1 } },
    required: ['total', 'count'],
  },
  code: 'return { unitPrice: args.total / args.count };',
  enabled: true,
};

/** Tries to reach the host from inside the sandbox, and reports what each attempt met. */
function probeCode(canary: string): string {
  return [
    'const attempts = {',
    `  fetch: () => fetch(${JSON.stringify(canary)}),`,
    '  XMLHttpRequest: () => new XMLHttpRequest(),',
    `  WebSocket: () => new WebSocket(${JSON.stringify(canary.replace(/^http/, 'ws'))}),`,
    `  importScripts: () => importScripts(${JSON.stringify(canary)}),`,
    '  localStorage: () => localStorage.getItem("orchestra-playground:key:scripted"),',
    '  indexedDB: () => indexedDB.open("orchestra-playground-tools"),',
    '  postMessage: () => postMessage({ type: "set_key", provider: "scripted", key: null }),',
    '};',
    'const report = {};',
    'for (const [name, attempt] of Object.entries(attempts)) {',
    '  try { attempt(); report[name] = "reached"; } catch (error) { report[name] = String(error); }',
    '}',
    'return report;',
  ].join('\n');
}

const HOST_APIS = ['fetch', 'XMLHttpRequest', 'WebSocket', 'importScripts', 'localStorage', 'indexedDB', 'postMessage'];

class ToolsPanel {
  readonly panel: Locator;
  readonly name: Locator;
  readonly description: Locator;
  readonly parameters: Locator;
  readonly code: Locator;
  readonly sample: Locator;
  readonly result: Locator;
  readonly saveButton: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: 'Tools', exact: true });
    this.name = this.panel.getByRole('textbox', { name: 'Tool name' });
    this.description = this.panel.getByRole('textbox', { name: 'Description' });
    this.parameters = this.panel.getByRole('textbox', { name: 'Parameters (JSON schema)' });
    this.code = this.panel.getByRole('textbox', { name: 'Implementation (JavaScript)' });
    this.sample = this.panel.getByRole('textbox', { name: 'Sample arguments (JSON)' });
    this.result = this.panel.getByRole('region', { name: 'Try it result' });
    this.saveButton = this.panel.getByRole('button', { name: 'Save tool' });
  }

  async newTool(): Promise<void> {
    await this.panel.getByRole('button', { name: 'New tool' }).click();
    await expect(this.parameters).toBeAttached(SLOW);
    await expect(this.code).toBeAttached(SLOW);
  }

  /** Clicks into a Monaco editor, selects everything and types `text` over it, as a person would.
   * Several lines are pasted through the clipboard: typed, the editor's auto-indent and bracket
   * closing would change them, as they would for a person typing them. */
  async typeInto(label: 'Parameters (JSON schema)' | 'Implementation (JavaScript)', text: string): Promise<void> {
    await this.panel.getByRole('group', { name: label }).locator('.view-lines').click();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.press('Delete');
    if (text.includes('\n')) {
      await this.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(this.page.url()).origin });
      await this.page.evaluate((copied) => navigator.clipboard.writeText(copied), text);
      await this.page.keyboard.press('ControlOrMeta+V');
    } else {
      await this.page.keyboard.type(text);
    }
  }

  /** What a Monaco editor holds, as its model has it. */
  editorText(label: 'Parameters (JSON schema)' | 'Implementation (JavaScript)'): Promise<string> {
    return this.panel
      .getByRole('group', { name: label })
      .locator('.view-lines')
      .evaluate((lines) => (lines as HTMLElement).innerText.replace(/\u00a0/g, ' '));
  }

  problems(label: string): Locator {
    return this.panel.getByRole('group', { name: label }).locator('ul.tool-problems');
  }

  async tryIt(sample: string): Promise<void> {
    await this.sample.fill(sample);
    await this.panel.getByRole('button', { name: 'Try it' }).click();
  }
}

test.describe('tools you write', () => {
  test.describe.configure({ timeout: 240_000 });

  test('a tool written in the panel runs on sample arguments, is kept across a reload and goes into the exported config', async ({
    page,
    playground,
    consoleErrors,
  }) => {
    const tools = new ToolsPanel(page);
    await playground.open();
    await playground.openTab('Tools');
    await tools.newTool();
    await tools.name.fill(UNIT_PRICE.name);
    await tools.description.fill(UNIT_PRICE.description);
    await tools.typeInto('Parameters (JSON schema)', JSON.stringify(UNIT_PRICE.parameters));
    await tools.typeInto('Implementation (JavaScript)', UNIT_PRICE.code);
    await expect(tools.panel.getByRole('status', { name: 'Tool save status' })).toHaveText('Unsaved changes.');

    // Try it: the result, the time it took, and the console.
    await tools.tryIt('{"total": 12, "count": 4}');
    await expect(tools.result).toContainText('Result', SLOW);
    await expect(tools.result.locator('pre').first()).toHaveText('{"unitPrice":3}');
    await expect(tools.result).toContainText(/in \d+ ms/);

    // Sample arguments are checked against the schema before the code runs.
    await tools.tryIt('{"total": "twelve"}');
    await expect(tools.result).toContainText('Not run');
    await expect(tools.result.getByRole('listitem')).toHaveText([
      'arguments.count is required',
      'arguments.total must be number, got string',
    ]);
    // Every keyword is checked (minimum here), by the same schema library as in the run's worker.
    await tools.tryIt('{"total": 12, "count": 0}');
    await expect(tools.result.getByRole('listitem')).toHaveText(['arguments.count must be at least 1, got 0']);
    await tools.tryIt('{"total": 12,');
    await expect(tools.result.getByRole('listitem')).toHaveText([/^The sample arguments are not valid JSON: /]);

    await tools.saveButton.click();
    await expect(tools.panel.getByRole('status', { name: 'Tool save status' })).toHaveText('Saved unit_price.');
    await expect(tools.saveButton).toBeDisabled();
    await expect(tools.panel.getByRole('list', { name: 'Your tools' }).getByRole('button')).toHaveText(['unit_price']);

    // Kept in IndexedDB: after a reload it is listed, and opens with what was typed.
    await page.reload();
    // The Tools tab stays open across the reload.
    await tools.panel.waitFor();
    await tools.panel.getByRole('list', { name: 'Your tools' }).getByRole('button', { name: 'unit_price' }).click(SLOW);
    await expect(tools.name).toHaveValue('unit_price');
    await expect(tools.description).toHaveValue(UNIT_PRICE.description);
    await expect.poll(() => tools.editorText('Implementation (JavaScript)'), SLOW).toBe(UNIT_PRICE.code);

    // In the exported config, exactly as the CLI reads it.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export config' }).click();
    const exported = JSON.parse(await readFile(await (await download).path(), 'utf8')) as { customTools?: unknown };
    expect(exported.customTools).toEqual([UNIT_PRICE]);

    // Deleting asks once more, and stays deleted after a reload.
    await tools.panel.getByRole('button', { name: 'Delete tool' }).click();
    await tools.panel.getByRole('button', { name: 'Yes, delete unit_price' }).click();
    await expect(tools.panel.getByRole('list', { name: 'Your tools' })).toHaveCount(0);
    await expect(tools.name).toHaveCount(0);
    await page.reload();
    await expect(tools.panel.getByText('No tools yet.')).toBeVisible(SLOW);
    expect(consoleErrors).toEqual([]);
  });

  test('an invalid schema is explained as you type and cannot be saved', async ({ page, playground }) => {
    const tools = new ToolsPanel(page);
    await playground.open();
    await playground.openTab('Tools');
    await tools.newTool();
    await expect(tools.saveButton).toBeEnabled();

    await tools.typeInto(
      'Parameters (JSON schema)',
      '{"type": "array", "properties": {"n": {"type": "numbr"}, "r": {"$ref": "https://example.com/r.json"}}, "required": ["m"]}',
    );
    await expect(tools.problems('Parameters (JSON schema)').getByRole('listitem')).toHaveText([
      'type: must be "object": a tool takes its arguments by name',
      'properties.n.type: "numbr" is not a JSON type (use "string", "number", "integer", "boolean", "object", "array", "null")',
      'properties.r.$ref: must point inside this schema, like "#/$defs/name": a schema elsewhere is never fetched',
      'required: names "m", which is not in properties',
    ]);
    await expect(tools.saveButton).toBeDisabled();
    await expect(tools.panel.getByRole('status', { name: 'Tool save status' })).toHaveText('4 problems to fix before saving.');
    await expect(tools.parameters).toHaveAttribute('aria-describedby', /-problems/);
    // Monaco's own JSON diagnostics mark the spot in the editor too.
    await expect(tools.panel.getByRole('group', { name: 'Parameters (JSON schema)' }).locator('.squiggly-error').first()).toBeVisible(SLOW);

    // A missing comma (the editor closes brackets and quotes itself, so they cannot be left open).
    await tools.typeInto('Parameters (JSON schema)', '{"type": "object" "properties": {}}');
    await expect(tools.problems('Parameters (JSON schema)').getByRole('listitem')).toHaveText([/^Not valid JSON: /]);
    await expect(tools.saveButton).toBeDisabled();
    await tools.tryIt('{}');
    await expect(tools.result).toContainText('Fix the parameters schema first');

    // The other fields are checked as well.
    await tools.name.fill('run_python');
    await expect(tools.panel.getByText('"run_python" is a built-in tool\'s name; choose another.')).toBeVisible();
    await tools.name.fill('has space');
    await expect(tools.panel.getByText(/^The name must be 1 to 64 letters/)).toBeVisible();
    await tools.description.fill('');
    await expect(tools.panel.getByText(/^Say what the tool does/)).toBeVisible();
    await expect(tools.panel.getByRole('list', { name: 'Your tools' })).toHaveCount(0);
  });

  test('code that throws, returns something JSON cannot carry, or returns nothing becomes a clear observation', async ({ page, playground }) => {
    const tools = new ToolsPanel(page);
    await playground.open();
    await playground.openTab('Tools');
    await tools.newTool();
    await tools.name.fill('stock');
    const cases: Array<[code: string, observation: RegExp]> = [
      [
        'console.log("looking up", args.text);\nthrow new RangeError("no stock for " + args.text);',
        /^Error: the tool stock failed: RangeError: no stock for apples\n\s+at .*code\.js:2[\s\S]*console output:\nlooking up apples$/,
      ],
      ['return () => args.text;', /^Error: the tool stock failed: The code's result is a function; only JSON data/],
      ['return 2n ** 70n;', /^Error: the tool stock failed: The code's result is a BigInt/],
      ['const o = {};\no.self = o;\nreturn o;', /^Error: the tool stock failed: The code's result is an object with a circular reference/],
      ['const n = args.text.length;', /^Error: the tool stock returned no value; its code must end with `return <JSON value>`\.$/],
    ];
    for (const [code, observation] of cases) {
      await tools.typeInto('Implementation (JavaScript)', code);
      await tools.tryIt('{"text": "apples"}');
      await expect(tools.result.locator('pre').first()).toHaveText(observation, SLOW);
      await expect(tools.result).toContainText('Error');
    }
  });

  test('tool code cannot reach the network, storage, workers or the page', async ({ page, playground, scripted }) => {
    const server = await scripted.start({ models: {} });
    const canary = `${server.url}/canary`;
    const tools = new ToolsPanel(page);
    await playground.open();
    await playground.openTab('Tools');
    await tools.newTool();
    await tools.name.fill('probe');

    // Each attempt, thrown out of the tool, is the observation.
    await tools.typeInto('Implementation (JavaScript)', `return await fetch(${JSON.stringify(canary)});`);
    await tools.tryIt('{"text": ""}');
    await expect(tools.result.locator('pre').first()).toHaveText(/^Error: the tool probe failed: ReferenceError: 'fetch' is not defined/, SLOW);

    // All of them, caught inside: nothing of the host is there to call.
    await tools.typeInto('Implementation (JavaScript)', probeCode(canary));
    await tools.tryIt('{"text": ""}');
    await expect(tools.result).toContainText('Result', SLOW);
    const report = JSON.parse((await tools.result.locator('pre').first().textContent()) ?? '') as Record<string, string>;
    expect(report).toEqual(Object.fromEntries(HOST_APIS.map((name) => [name, `ReferenceError: '${name}' is not defined`])));
    expect(server.requests.filter((request) => request.path.startsWith('/canary'))).toEqual([]);
    // The page stayed responsive throughout.
    await expect(tools.name).toBeEditable();
  });

  test('the orchestrator calls a custom tool, gets its arguments wrong, reads why, and cannot reach the host from it', async ({
    page,
    playground,
    scripted,
    consoleErrors,
  }) => {
    const call = (name: string, args: Record<string, unknown>) =>
      `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
    const usage = { prompt_tokens: 600, completion_tokens: 30 };
    // Matched by the last user message (the previous observation), most specific first.
    const scenario: Scenario = {
      models: {
        [ORCHESTRATOR]: [
          { when: '"fetch":"ReferenceError', content: '<message>One item costs 3.</message>', usage },
          { when: 'invalid arguments for unit_price', content: `<think>Check what the tool can reach.</think>\n${call('probe_host', {})}`, usage },
          { when: '{"unitPrice":3}', content: `<think>Again, in words.</think>\n${call('unit_price', { total: 'twelve', count: 0 })}`, usage },
          { content: `<think>Use the tool.</think>\n${call('unit_price', { total: 12, count: 4 })}`, usage },
        ],
      },
    };
    const server = await scripted.start(scenario);
    const probeHost = {
      name: 'probe_host',
      description: 'Reports which host APIs the sandbox can reach.',
      parameters: { type: 'object', properties: {} },
      code: probeCode(`${server.url}/canary`),
      enabled: true,
    };
    const config = scriptedConfig(server.url, {
      protocol: 'function-calling',
      experts: {},
      functionCalling: { system: 'You work out prices.', tools: [] },
      customTools: [UNIT_PRICE, probeHost],
    });

    await playground.open();
    await playground.openTab('Tools');
    await playground.importConfig(config);
    // The imported tools are listed in the panel (and kept in this browser).
    const tools = new ToolsPanel(page);
    await expect(tools.panel.getByRole('list', { name: 'Your tools' }).getByRole('button')).toHaveText(['probe_host', 'unit_price']);
    await playground.run('What does one item cost if 4 cost 12?');
    await playground.waitForFinish(120_000);
    await expect(playground.runStatus).toContainText('Answered');

    const calls = playground.trace.getByRole('group', { name: 'Call unit_price' });
    await expect(calls).toHaveCount(2);
    const [good, bad] = [calls.nth(0), calls.nth(1)];
    // Arguments, result, time and cost (code seconds at the scripted config's rate).
    await expect(good).toContainText('{"total":12,"count":4}');
    await expect(good).toContainText('"unitPrice": 3');
    await expect(good.locator('.call-metrics')).toContainText(/\d+ ms|\d+\.\d s/);
    await expect(good.locator('.call-metrics')).toContainText('$');
    await expect(bad).toContainText('{"total":"twelve","count":0}');
    // Checked in the orchestrator's worker, under its CSP, by the same library as Try it.
    await expect(bad).toContainText(
      'Error: invalid arguments for unit_price: arguments.total must be number, got string; arguments.count must be at least 1, got 0.',
    );

    const probe = playground.trace.getByRole('group', { name: 'Call probe_host' });
    for (const name of HOST_APIS) await expect(probe).toContainText(`ReferenceError: '${name}' is not defined`);
    expect(server.requests.filter((request) => request.path.startsWith('/canary'))).toEqual([]);

    // The orchestrator read each observation as the next turn's input.
    const orchestratorTurns = server.requests.filter((request) => (request.body as { model?: string } | undefined)?.model === ORCHESTRATOR);
    const lastUser = (index: number) => {
      const messages = (orchestratorTurns[index]?.body as { messages: Array<{ role: string; content: string }> }).messages;
      return messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
    };
    expect(orchestratorTurns).toHaveLength(4);
    expect(lastUser(1)).toBe('<tool_response>\n{"unitPrice":3}\n</tool_response>');
    expect(lastUser(2)).toContain('arguments.count must be at least 1, got 0');
    expect(consoleErrors).toEqual([]);
  });
});
