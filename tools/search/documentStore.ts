// The user's documents and their passages, kept in IndexedDB so they survive a reload. The
// documents worker writes here; the orchestrator worker reads the passages to search them (same
// origin, same database). Every change bumps a revision number in the same transaction, so a
// reader knows when its index is stale without being told.

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

export const DOCUMENT_DATABASE = 'orchestra-documents';
const VERSION = 1;
const DOCUMENTS = 'documents';
const CHUNKS = 'chunks';
const META = 'meta';
const REVISION_KEY = 'revision';

export async function openDocumentStore(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<DocumentStore> {
  if (!factory) throw new Error('This browser gives the playground no IndexedDB, so documents cannot be kept.');
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(DOCUMENT_DATABASE, VERSION);
    request.onupgradeneeded = () => {
      const upgrading = request.result;
      upgrading.createObjectStore(DOCUMENTS, { keyPath: 'id' });
      upgrading.createObjectStore(CHUNKS, { keyPath: 'id' }).createIndex('documentId', 'documentId');
      upgrading.createObjectStore(META);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(storageError('open the documents database', request.error));
    request.onblocked = () => reject(new Error('The documents database is held by an older version of the playground in another tab: close it and try again.'));
  });
  // Another tab upgrading the database must not wait for this one.
  db.onversionchange = () => db.close();

  const transact = <T>(
    stores: string[],
    mode: IDBTransactionMode,
    what: string,
    work: (tx: IDBTransaction) => IDBRequest<T> | void,
  ): Promise<T | undefined> =>
    new Promise((resolve, reject) => {
      let tx: IDBTransaction;
      try {
        tx = db.transaction(stores, mode);
      } catch (error) {
        reject(storageError(what, error));
        return;
      }
      const request = work(tx);
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(storageError(what, tx.error));
      tx.onabort = () => reject(storageError(what, tx.error));
    });

  const bumpRevision = (tx: IDBTransaction) => {
    const meta = tx.objectStore(META);
    const current = meta.get(REVISION_KEY);
    current.onsuccess = () => meta.put((typeof current.result === 'number' ? current.result : 0) + 1, REVISION_KEY);
  };

  const deleteDocument = (tx: IDBTransaction, id: string) => {
    tx.objectStore(DOCUMENTS).delete(id);
    const chunks = tx.objectStore(CHUNKS);
    const keys = chunks.index('documentId').getAllKeys(IDBKeyRange.only(id));
    keys.onsuccess = () => {
      for (const key of keys.result) chunks.delete(key);
    };
  };

  return {
    async list() {
      const documents = (await transact<StoredDocument[]>([DOCUMENTS], 'readonly', 'list the documents', (tx) => tx.objectStore(DOCUMENTS).getAll())) ?? [];
      return documents.sort((a, b) => a.addedAt - b.addedAt);
    },
    async add(document, chunks) {
      await transact([DOCUMENTS, CHUNKS, META], 'readwrite', `store "${document.name}"`, (tx) => {
        const existing = tx.objectStore(DOCUMENTS).getAll();
        existing.onsuccess = () => {
          for (const old of existing.result as StoredDocument[]) if (old.name === document.name) deleteDocument(tx, old.id);
          tx.objectStore(DOCUMENTS).put(document);
          for (const chunk of chunks) tx.objectStore(CHUNKS).put(chunk);
          bumpRevision(tx);
        };
      });
    },
    async remove(id) {
      await transact([DOCUMENTS, CHUNKS, META], 'readwrite', 'remove the document', (tx) => {
        deleteDocument(tx, id);
        bumpRevision(tx);
      });
    },
    async chunks() {
      return (await transact<StoredChunk[]>([CHUNKS], 'readonly', 'read the passages', (tx) => tx.objectStore(CHUNKS).getAll())) ?? [];
    },
    async revision() {
      const value = await transact<unknown>([META], 'readonly', 'read the documents revision', (tx) => tx.objectStore(META).get(REVISION_KEY));
      return typeof value === 'number' ? value : 0;
    },
    close() {
      db.close();
    },
  };
}

function storageError(what: string, cause: unknown): Error {
  const name = (cause as { name?: unknown } | null)?.name;
  if (name === 'QuotaExceededError') {
    return new Error(`Could not ${what}: the browser's storage for this site is full. Remove some documents (or models) first.`, { cause });
  }
  const detail = cause instanceof Error || cause instanceof DOMException ? `: ${cause.message}` : '.';
  return new Error(`Could not ${what} in the browser's storage${detail}`, { cause });
}
