// The text of each page of a PDF, through pdf.js. The caller passes the loaded pdf.js module (in
// the browser its worker is set up by the caller; under Node pdf.js runs it in-process).

import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { DocumentProblem } from './documentText.ts';

export type PdfjsModule = Pick<typeof Pdfjs, 'getDocument'>;

export async function readPdfPages(pdfjs: PdfjsModule, data: Uint8Array): Promise<string[]> {
  const loading = pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, stopAtErrors: false, verbosity: 0 });
  try {
    const pdf = await loading.promise.catch((error: unknown) => {
      throw unreadable(error);
    });
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push(text);
      page.cleanup();
    }
    return pages;
  } finally {
    await loading.destroy();
  }
}

function unreadable(error: unknown): Error {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') return new DocumentProblem('This PDF is protected by a password, so its text cannot be read.');
  if (name === 'InvalidPDFException') return new DocumentProblem('This file is not a readable PDF (it may be damaged).');
  return new DocumentProblem(`pdf.js could not read this PDF: ${error instanceof Error ? error.message : String(error)}`);
}
