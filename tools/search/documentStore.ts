// The user's documents and their passages, as the search reads them: a store the host provides
// (workers/hosts/documents/documentsDb.ts keeps it in IndexedDB). Every change bumps a revision
// number, so a reader knows when its index is stale without being told.

import type { DocumentKind } from './documentText.ts';

export interface StoredDocument {
  id: string;
  name: string;
  kind: DocumentKind;
  sizeBytes: number;
  /** Characters of text extracted. */
  characters: number;
  chunkCount: number;
  addedAt: number;
}

export interface StoredChunk {
  /** `${documentId}#${index}`. */
  id: string;
  documentId: string;
  index: number;
  /** The document's name, and the section's heading or page when it has one. */
  title: string;
  text: string;
}

export interface DocumentStore {
  /** Oldest first. */
  list(): Promise<StoredDocument[]>;
  /** Adds a document and its passages, replacing any document of the same name. */
  add(document: StoredDocument, chunks: readonly StoredChunk[]): Promise<void>;
  remove(id: string): Promise<void>;
  chunks(): Promise<StoredChunk[]>;
  /** Goes up by one with every change. */
  revision(): Promise<number>;
  close(): void;
}
