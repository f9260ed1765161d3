import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { minimalPdf } from '../../e2e/fixtures/minimalPdf.ts';
import { createDocumentRetriever, type ChunkSource } from './documentRetriever.ts';
import { indexDocument } from './documentIndexer.ts';
import type { StoredChunk, StoredDocument } from './documentStore.ts';
import { documentKindOf } from './documentText.ts';
import { readPdfPages } from './pdfText.ts';

/** The store's add and read side, in memory (IndexedDB itself is exercised in the browser tests). */
function memoryStore() {
  const documents = new Map<string, StoredDocument>();
  let chunks: StoredChunk[] = [];
  let revision = 0;
  return {
    documents,
    async add(document: StoredDocument, added: readonly StoredChunk[]) {
      documents.set(document.id, document);
      chunks = [...chunks, ...added];
      revision++;
    },
    remove(id: string) {
      documents.delete(id);
      chunks = chunks.filter((chunk) => chunk.documentId !== id);
      revision++;
    },
    source: {
      revision: async () => revision,
      chunks: async () => chunks,
    } satisfies ChunkSource,
  };
}

function file(name: string, content: string | Uint8Array, type = '') {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return { name, type, size: bytes.byteLength, arrayBuffer: async () => bytes.slice().buffer };
}

const readPdf = (data: Uint8Array) => readPdfPages(pdfjs, data);
let ids = 0;
const options = (store: ReturnType<typeof memoryStore>) => ({ store, readPdfPages: readPdf, newId: () => `t${++ids}`, now: () => 1000 });

describe('indexDocument', () => {
  it('stores a Markdown file as passages titled by file and section', async () => {
    const store = memoryStore();
    const markdown = '# Zorblax field notes\n\nThe zorblax migrates to Lake Vattern every April.\n\n## Diet\n\nMostly reeds.';
    const document = await indexDocument(file('notes.md', markdown), options(store));
    expect(document).toMatchObject({ name: 'notes.md', kind: 'markdown', sizeBytes: markdown.length, chunkCount: 2, addedAt: 1000 });
    const chunks = await store.source.chunks();
    expect(chunks.map((chunk) => [chunk.id, chunk.title, chunk.text])).toEqual([
      [`${document.id}#0`, 'notes.md › Zorblax field notes', 'The zorblax migrates to Lake Vattern every April.'],
      [`${document.id}#1`, 'notes.md › Diet', 'Mostly reeds.'],
    ]);
  });

  it('reads the text of a real PDF, page by page', async () => {
    const store = memoryStore();
    const pdf = minimalPdf([['Quarterly report of the Vattern ferry.', 'Passengers rose by 12 percent.'], ['Second page: the harbour.']]);
    const document = await indexDocument(file('report.pdf', new Uint8Array(pdf), 'application/pdf'), options(store));
    expect(document).toMatchObject({ kind: 'pdf', chunkCount: 2 });
    const chunks = await store.source.chunks();
    expect(chunks[0]?.title).toBe('report.pdf › page 1');
    expect(chunks[0]?.text).toContain('Passengers rose by 12 percent.');
    expect(chunks[1]).toMatchObject({ title: 'report.pdf › page 2', text: 'Second page: the harbour.' });
  });

  it('refuses a PDF without text, a damaged PDF, an unknown kind and non-UTF-8 text, saying why', async () => {
    const store = memoryStore();
    await expect(indexDocument(file('scan.pdf', new Uint8Array(minimalPdf([[]]))), options(store))).rejects.toThrow(
      'This PDF has no text to search: it may be a scanned image.',
    );
    await expect(indexDocument(file('broken.pdf', '%PDF-1.4 nothing else'), options(store))).rejects.toThrow(/not a readable PDF|could not read this PDF/);
    await expect(indexDocument(file('slides.pptx', 'x'), options(store))).rejects.toThrow(
      'Only text (.txt), Markdown (.md) and PDF (.pdf) files can be added.',
    );
    await expect(indexDocument(file('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9])), options(store))).rejects.toThrow('It is not UTF-8 text.');
    expect(store.documents.size).toBe(0);
  });
});

describe('documentKindOf', () => {
  it('goes by extension, then media type', () => {
    expect(documentKindOf('a.MD', '')).toBe('markdown');
    expect(documentKindOf('a.txt', 'application/octet-stream')).toBe('text');
    expect(documentKindOf('download', 'application/pdf')).toBe('pdf');
    expect(documentKindOf('notes', 'text/csv')).toBe('text');
    expect(documentKindOf('image.png', 'image/png')).toBeNull();
  });
});

describe('createDocumentRetriever', () => {
  it('finds a passage, and rebuilds its index only when the store changes', async () => {
    const store = memoryStore();
    let reads = 0;
    const counted: ChunkSource = { revision: store.source.revision, chunks: () => (reads++, store.source.chunks()) };
    const retriever = createDocumentRetriever(async () => counted);
    expect(await retriever.search('zorblax')).toEqual([]);

    const document = await indexDocument(file('notes.txt', 'The zorblax migrates to Lake Vattern every April.'), options(store));
    const [hit] = await retriever.search('zorblax migrates');
    expect(hit).toMatchObject({ id: `${document.id}#0`, title: 'notes.txt', text: 'The zorblax migrates to Lake Vattern every April.' });
    await retriever.search('Vattern');
    expect(reads).toBe(2);

    store.remove(document.id);
    expect(await retriever.search('zorblax')).toEqual([]);
    expect(reads).toBe(3);
  });

  it('says why when the store cannot be opened, and tries again next time', async () => {
    let attempts = 0;
    const retriever = createDocumentRetriever(async () => {
      attempts++;
      throw new Error('This browser gives the playground no IndexedDB, so documents cannot be kept.');
    });
    await expect(retriever.search('x')).rejects.toThrow('no IndexedDB');
    await expect(retriever.search('x')).rejects.toThrow('no IndexedDB');
    expect(attempts).toBe(2);
  });

  it('opens the store afresh after its connection failed', async () => {
    const store = memoryStore();
    await indexDocument(file('notes.txt', 'The zorblax sings.'), options(store));
    let opened = 0;
    const retriever = createDocumentRetriever(async () => {
      opened++;
      if (opened > 1) return store.source;
      return { ...store.source, revision: async () => Promise.reject(new Error('The database connection is closing.')) };
    });
    await expect(retriever.search('zorblax')).rejects.toThrow('The database connection is closing.');
    expect(await retriever.search('zorblax')).toHaveLength(1);
    expect(opened).toBe(2);
  });
});
