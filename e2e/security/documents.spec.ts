// The documents worker (workers/hosts/documents/documents.worker.ts) and pdf.js's worker under attack, through
// the Documents panel of the production build: PDFs built to run code or reach the network reach
// nothing, and each worker's own policy refuses code from strings and connections (pdf.js: any).

import type { Page } from '@playwright/test';
import { minimalPdf, pdfOfObjects } from '../fixtures/minimalPdf.ts';
import { openSideTab } from '../support/playground.ts';
import { hostilePdfs } from './attacks.ts';
import { expect, test } from './fixtures.ts';
import { probeWorkerPolicy, refusedEverywhere, WorkerInspector } from './support.ts';

test.describe.configure({ timeout: 180_000 });

function documentsPanel(page: Page) {
  return page.getByRole('region', { name: 'Documents' });
}

async function addPdfs(page: Page, files: Array<{ name: string; buffer: Buffer }>): Promise<void> {
  await openSideTab(page, 'Documents');
  const chooser = page.waitForEvent('filechooser');
  await documentsPanel(page).getByRole('button', { name: 'Add documents' }).click();
  await (await chooser).setFiles(files.map((file) => ({ ...file, mimeType: 'application/pdf' })));
}

test('PDFs built to run code or reach the network are read as text and reach nothing', async ({ page, sink }) => {
  await page.goto('/');
  const pdfs = hostilePdfs(sink.url);
  await addPdfs(page, pdfs.map((pdf) => ({ name: pdf.name, buffer: pdfOfObjects(pdf.objects) })));
  const list = documentsPanel(page).getByRole('list');
  for (const pdf of pdfs) await expect(list).toContainText(pdf.name, { timeout: 60_000 });
  await expect(documentsPanel(page)).not.toContainText('reading', { timeout: 60_000 });
  // Time for anything they started to arrive.
  await page.waitForTimeout(1_500);
});

test('layer: the documents worker’s and pdf.js’s own policies refuse code from strings and connections', async ({ page, sink }) => {
  const inspector = await WorkerInspector.attach(page);
  await page.goto('/');
  // A PDF starts pdf.js's worker inside the documents worker.
  await addPdfs(page, [{ name: 'plain.pdf', buffer: minimalPdf([['A plain page.']]) }]);
  await expect(documentsPanel(page).getByRole('list')).toContainText('plain.pdf', { timeout: 60_000 });
  const urls = inspector.workerUrls();
  await inspector.detach();
  const documentsWorker = urls.find((url) => url.includes('documents.worker'));
  const pdfWorker = urls.find((url) => url.includes('pdf.worker'));
  if (!documentsWorker || !pdfWorker) throw new Error(`missing workers among ${urls.join(', ')}`);

  const { attempts, refused } = refusedEverywhere(sink.url);
  const app = "attempt(() => fetch('/favicon.svg').then((response) => response.status))";
  expect(await probeWorkerPolicy(page, documentsWorker, { ...attempts, app })).toEqual({ ...refused, app: '200' });
  // pdf.js's worker connects nowhere, not even to the app.
  expect(await probeWorkerPolicy(page, pdfWorker, { ...attempts, app })).toEqual({ ...refused, app: 'refused: TypeError' });
});
