// Adds a file to the user's documents: its text read, cut into passages, and stored with them.

import { chunkSections, type ChunkOptions } from './chunking.ts';
import type { DocumentStore, StoredChunk, StoredDocument } from './documentStore.ts';
import { readDocumentSections, type DocumentFile, type PdfPageReader } from './documentText.ts';

export interface IndexDocumentOptions extends ChunkOptions {
  store: Pick<DocumentStore, 'add'>;
  readPdfPages: PdfPageReader;
  /** A fresh id; crypto.randomUUID() unless given. */
  newId?: () => string;
  now?: () => number;
}

export async function indexDocument(file: DocumentFile, options: IndexDocumentOptions): Promise<StoredDocument> {
  const { kind, sections } = await readDocumentSections(file, options.readPdfPages);
  const chunks = chunkSections(sections, options);
  const id = `doc-${options.newId?.() ?? crypto.randomUUID()}`;
  const storedChunks: StoredChunk[] = chunks.map((chunk) => ({
    id: `${id}#${chunk.index}`,
    documentId: id,
    index: chunk.index,
    title: chunk.heading ? `${file.name} › ${chunk.heading}` : file.name,
    text: chunk.text,
  }));
  const document: StoredDocument = {
    id,
    name: file.name,
    kind,
    sizeBytes: file.size,
    characters: sections.reduce((sum, section) => sum + section.text.length, 0),
    chunkCount: storedChunks.length,
    addedAt: options.now?.() ?? Date.now(),
  };
  await options.store.add(document, storedChunks);
  return document;
}
