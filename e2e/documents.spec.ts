// The user's own documents and Wikipedia as search sources, through the real page: files added by
// button and by drop, read (PDFs by pdf.js in a worker), kept in IndexedDB across a reload, and
// found by a run's search against the scripted server; Wikipedia through a Wikipedia-like server,
// with and without CORS.

import type { Locator, Page } from '@playwright/test';
import { minimalPdf } from './fixtures/minimalPdf.ts';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { startWikipediaServer, type WikipediaServer } from './fixtures/wikipediaServer.ts';
import { expect, openSideTab, scriptedConfig, test } from './support/playground.ts';

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
const TASK = 'Where does the zorblax migrate every April?';
const NOTES_MD = `# Zorblax field notes

The zorblax migrates to Lake Vattern every April, in flocks of forty.

## Diet

Mostly reeds and small snails.
`;
const REPORT_PDF = minimalPdf([
  ['Vattern ferry report.', 'Passengers rose by twelve percent in spring.'],
  ['Second page: the harbour was dredged.'],
]);

// The machine running these is shared and slow: every wait is generous.
test.describe.configure({ timeout: 120_000 });

/** A paper-protocol run that searches once (the searcher writes `query`), then answers. */
function searchOnceScenario(query: string): Scenario {
  return {
    models: {
      [ORCHESTRATOR]: [
        {
          when: 'Documents:',
          repeat: true,
          content: '<tool_call>\n{"name": "answer", "arguments": {"model": "answer-1"}}\n</tool_call>',
          usage: { prompt_tokens: 900, completion_tokens: 20 },
        },
        {
          repeat: true,
          content: '<tool_call>\n{"name": "search", "arguments": {"model": "search-1"}}\n</tool_call>',
          usage: { prompt_tokens: 800, completion_tokens: 20 },
        },
      ],
      'scripted/searcher': [{ repeat: true, content: `<query>${query}</query>`, usage: { prompt_tokens: 300, completion_tokens: 8 } }],
      'scripted/answerer': [{ repeat: true, content: '<answer>Lake Vattern</answer>', usage: { prompt_tokens: 400, completion_tokens: 5 } }],
    },
  };
}

function documentsPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Documents' });
}

async function addFiles(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
  await openSideTab(page, 'Documents');
  const chooser = page.waitForEvent('filechooser');
  await documentsPanel(page).getByRole('button', { name: 'Add documents' }).click();
  await (await chooser).setFiles(files);
}

const markdownFile = { name: 'field-notes.md', mimeType: 'text/markdown', buffer: Buffer.from(NOTES_MD) };
const pdfFile = { name: 'ferry-report.pdf', mimeType: 'application/pdf', buffer: REPORT_PDF };

let wiki: WikipediaServer | null = null;
test.afterEach(async () => {
  await wiki?.close();
  wiki = null;
});

test.describe('documents and Wikipedia as search sources', () => {
  test('adds a Markdown and a PDF document, lists them indexed, keeps them across a reload, and removes one', async ({
    playground,
    page,
    consoleErrors,
  }) => {
    await playground.open();
    await playground.openTab('Documents');
    const panel = documentsPanel(page);
    const status = panel.getByRole('status', { name: 'Documents indexed' });
    await expect(status).toHaveText('No documents indexed yet.', { timeout: 30_000 });

    await addFiles(page, [markdownFile, pdfFile]);
    const list = panel.getByRole('list', { name: 'Your documents' });
    await expect(list.getByRole('listitem')).toHaveCount(2, { timeout: 60_000 });
    await expect(list.getByRole('listitem').nth(0)).toContainText(`field-notes.md Markdown · ${Buffer.byteLength(NOTES_MD)} B · 2 passages`);
    await expect(list.getByRole('listitem').nth(1)).toContainText(`ferry-report.pdf PDF · ${REPORT_PDF.byteLength} B · 2 passages`);
    await expect(status).toHaveText('2 documents · 4 passages indexed');

    await page.reload();
    await expect(status).toHaveText('2 documents · 4 passages indexed', { timeout: 30_000 });
    await expect(list.getByRole('listitem')).toHaveCount(2);

    await list.getByRole('button', { name: 'Remove ferry-report.pdf' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(status).toHaveText('1 document · 2 passages indexed');
    expect(consoleErrors).toEqual([]);
  });

  test('a PDF without text gets a plain message and is not added', async ({ playground, page }) => {
    await playground.open();
    await playground.openTab('Documents');
    const panel = documentsPanel(page);
    await addFiles(page, [{ name: 'scan.pdf', mimeType: 'application/pdf', buffer: minimalPdf([[]]) }]);
    await expect(panel.getByRole('alert')).toHaveText(
      'scan.pdf: This PDF has no text to search: it may be a scanned image. Add a PDF with a text layer, or its text as a .txt file. Dismiss',
      { timeout: 60_000 },
    );
    await expect(panel.getByRole('status', { name: 'Documents indexed' })).toHaveText('No documents indexed yet.');
    await panel.getByRole('button', { name: 'Dismiss' }).click();
    await expect(panel.getByRole('alert')).toHaveCount(0);
  });

  test("a run's search finds a passage of a dropped document and the trace names its source", async ({ playground, page, scripted }) => {
    const server = await scripted.start(searchOnceScenario('zorblax migrates April'));
    await playground.open();
    await playground.openTab('Documents');
    const panel = documentsPanel(page);
    await expect(panel.getByRole('status', { name: 'Documents indexed' })).toHaveText('No documents indexed yet.', { timeout: 30_000 });

    // Dropped on the panel, as from a file manager.
    const dataTransfer = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'field-notes.md', { type: 'text/markdown' }));
      return transfer;
    }, NOTES_MD);
    await panel.dispatchEvent('dragover', { dataTransfer });
    await panel.dispatchEvent('drop', { dataTransfer });
    await expect(panel.getByRole('status', { name: 'Documents indexed' })).toHaveText('1 document · 2 passages indexed', {
      timeout: 60_000,
    });

    await playground.importConfig(scriptedConfig(server.url, { search: { sources: ['local', 'documents'] }, limits: { maxTurns: 4 } }));
    const sources = panel.getByRole('group', { name: 'Search uses' });
    await expect(sources.getByRole('checkbox', { name: /Your documents/ })).toBeChecked();
    await expect(sources.getByRole('checkbox', { name: /Wikipedia/ })).not.toBeChecked();

    await playground.run(TASK);
    await playground.waitForFinish(90_000);
    await expect(playground.runStatus).toContainText('Answered');
    const found = playground.trace.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ hasText: 'field-notes.md' });
    await expect(found.first()).toContainText('field-notes.md › Zorblax field notes');
    await expect(found.first()).toContainText('Your documents');
    await expect(found.first()).toContainText('The zorblax migrates to Lake Vattern every April, in flocks of forty.');
  });

  test('the first document added is searched from then on: "Your documents" is ticked, and the panel says so', async ({
    playground,
    page,
    scripted,
  }) => {
    const server = await scripted.start(searchOnceScenario('zorblax migrates April'));
    await playground.open();
    // A config whose search uses the local corpus only, as the example's does.
    await playground.importConfig(scriptedConfig(server.url, { limits: { maxTurns: 4 } }));
    await playground.openTab('Documents');
    const panel = documentsPanel(page);
    const yours = panel.getByRole('group', { name: 'Search uses' }).getByRole('checkbox', { name: /Your documents/ });
    await expect(panel.getByRole('status', { name: 'Documents indexed' })).toHaveText('No documents indexed yet.', { timeout: 30_000 });
    await expect(yours).not.toBeChecked();

    await addFiles(page, [markdownFile]);
    await expect(panel.getByRole('status', { name: 'Documents indexed' })).toHaveText('1 document · 2 passages indexed', {
      timeout: 60_000,
    });
    await expect(yours).toBeChecked();
    await expect(panel).toContainText('Your documents are searched from now on');

    await playground.run(TASK);
    await playground.waitForFinish(90_000);
    const found = playground.trace.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ hasText: 'field-notes.md' });
    await expect(found.first()).toContainText('The zorblax migrates to Lake Vattern every April');

    // Unticked by the person, it stays unticked when more documents come.
    await playground.openTab('Documents');
    await yours.uncheck();
    await expect(panel).not.toContainText('Your documents are searched from now on');
    await addFiles(page, [pdfFile]);
    await expect(panel.getByRole('status', { name: 'Documents indexed' })).toHaveText('2 documents · 4 passages indexed', {
      timeout: 60_000,
    });
    await expect(yours).not.toBeChecked();
  });

  test('a search of Wikipedia reads its pages through the API, and says so when Wikipedia cannot be reached', async ({
    playground,
    page,
    scripted,
  }) => {
    wiki = await startWikipediaServer({
      pages: [
        { pageid: 501, title: 'Zorblax', text: 'The zorblax is a migratory bird.\n\n== Migration ==\nEach April it flies to Lake Vattern.' },
        { pageid: 502, title: 'Lake Vattern', text: 'Lake Vattern is the second largest lake in Sweden.' },
      ],
    });
    const server = await scripted.start(searchOnceScenario('zorblax migration'));
    await playground.open();
    await playground.importConfig(
      scriptedConfig(server.url, { search: { sources: ['wikipedia'], wikipediaBaseUrl: wiki.url }, limits: { maxTurns: 4 } }),
    );
    await playground.openTab('Documents');
    await expect(documentsPanel(page).getByRole('checkbox', { name: /Wikipedia/ })).toBeChecked();
    await playground.run(TASK);
    await playground.waitForFinish(90_000);
    await expect(playground.runStatus).toContainText('Answered');
    const documents = playground.trace.getByRole('list', { name: 'Documents' }).getByRole('listitem');
    await expect(documents.first()).toContainText('Zorblax');
    await expect(documents.first()).toContainText('Wikipedia');
    await expect(documents.first()).toContainText('Each April it flies to Lake Vattern.');
    expect(wiki.requests.map((request) => [request.call, request.params.origin])).toEqual(
      expect.arrayContaining([
        ['search', '*'],
        ['extracts', '*'],
      ]),
    );

    // Without CORS headers the browser refuses the answer: the local corpus still answers, and the
    // trace says Wikipedia was not searched, in plain words.
    wiki.setFault({ kind: 'no_cors' });
    server.reset(searchOnceScenario('capital of Finland'));
    await playground.importConfig(
      scriptedConfig(server.url, { search: { sources: ['local', 'wikipedia'], wikipediaBaseUrl: wiki.url }, limits: { maxTurns: 4 } }),
    );
    await playground.run('What is the capital of Finland?');
    await playground.waitForFinish(90_000);
    await expect(playground.trace).toContainText(
      /Wikipedia was not searched: Wikipedia \(127\.0\.0\.1:\d+\) could not be reached for the search: the network failed, or the server does not allow requests from this page \(CORS\)\./,
    );
    await expect(playground.trace.getByRole('list', { name: 'Documents' }).getByRole('listitem').first()).toContainText('Local corpus');
  });
});
