// Turns a file the user added into sections of text: plain text and Markdown decoded as UTF-8,
// PDF through a page reader (pdf.js, loaded only when a PDF arrives). What cannot be read comes
// back as a DocumentProblem whose message says so in plain words.

import { markdownSections, pageSections, textSections, type DocumentSection } from './chunking.ts';

export type DocumentKind = 'text' | 'markdown' | 'pdf';

/** Larger files are refused: their text would not fit in the browser's index comfortably. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

export class DocumentProblem extends Error {
  override name = 'DocumentProblem';
}

const EXTENSIONS: Record<string, DocumentKind> = {
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  pdf: 'pdf',
};

/** The kind of a file by its extension, then its media type; null for anything else. */
export function documentKindOf(name: string, mediaType: string): DocumentKind | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const byExtension = extension === undefined ? undefined : EXTENSIONS[extension];
  if (byExtension) return byExtension;
  if (mediaType === 'application/pdf') return 'pdf';
  if (mediaType === 'text/markdown') return 'markdown';
  if (mediaType.startsWith('text/')) return 'text';
  return null;
}

export interface DocumentFile {
  name: string;
  type: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Reads the text of each page of a PDF. */
export type PdfPageReader = (data: Uint8Array) => Promise<string[]>;

export async function readDocumentSections(
  file: DocumentFile,
  readPdfPages: PdfPageReader,
): Promise<{ kind: DocumentKind; sections: DocumentSection[] }> {
  const kind = documentKindOf(file.name, file.type);
  if (!kind) throw new DocumentProblem('Only text (.txt), Markdown (.md) and PDF (.pdf) files can be added.');
  if (file.size > MAX_DOCUMENT_BYTES) {
    throw new DocumentProblem(`It is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most a document may be here.`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (kind === 'pdf') {
    const sections = pageSections(await readPdfPages(bytes));
    if (!sections.some((section) => /[\p{L}\p{N}]/u.test(section.text))) {
      throw new DocumentProblem(
        'This PDF has no text to search: it may be a scanned image. Add a PDF with a text layer, or its text as a .txt file.',
      );
    }
    return { kind, sections };
  }
  const text = decodeText(bytes);
  const sections = kind === 'markdown' ? markdownSections(text) : textSections(text);
  if (!sections.some((section) => section.text.trim())) throw new DocumentProblem('It has no text.');
  return { kind, sections };
}

function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DocumentProblem('It is not UTF-8 text. Save it as UTF-8 and add it again.');
  }
  if (text.includes('\u0000')) throw new DocumentProblem('It looks like a binary file, not text.');
  return text;
}
