// The user's documents and their passages, kept in IndexedDB so they survive a reload. The
// documents worker writes here; the orchestrator worker reads the passages to search them (same
// origin, same database). Every change bumps a revision number in the same transaction, so a
// reader knows when its index is stale without being told.

import type { DBSchema, IDBPTransaction } from 'idb';
import type { DocumentStore, StoredChunk, StoredDocument } from '../../../tools/search/documentStore.ts';
import { defineDatabase, stored } from '../../storage/database.ts';

export const DOCUMENT_DATABASE = 'orchestra-documents';
const REVISION_KEY = 'revision';

interface DocumentsSchema extends DBSchema {
  documents: { key: string; value: StoredDocument };
  chunks: { key: string; value: StoredChunk; indexes: { documentId: string } };
  /** The revision number, under REVISION_KEY. */
  meta: { key: string; value: number };
}

const documentsDatabase = defineDatabase<DocumentsSchema>({
  name: DOCUMENT_DATABASE,
  holds: 'your documents',
  migrations: [
    (db) => {
      db.createObjectStore('documents', { keyPath: 'id' });
      db.createObjectStore('chunks', { keyPath: 'id' }).createIndex('documentId', 'documentId');
      db.createObjectStore('meta');
    },
  ],
});

type ChangeTransaction = IDBPTransaction<DocumentsSchema, ('documents' | 'chunks' | 'meta')[], 'readwrite'>;

async function bumpRevision(tx: ChangeTransaction): Promise<void> {
  const meta = tx.objectStore('meta');
  const current = await meta.get(REVISION_KEY);
  await meta.put((typeof current === 'number' ? current : 0) + 1, REVISION_KEY);
}

async function deleteDocument(tx: ChangeTransaction, id: string): Promise<void> {
  await tx.objectStore('documents').delete(id);
  const chunks = tx.objectStore('chunks');
  const keys = await chunks.index('documentId').getAllKeys(id);
  await Promise.all(keys.map((key) => chunks.delete(key)));
}

/** Every change is one transaction that also bumps the revision: all of it lands, or none. */
async function change(what: string, work: (tx: ChangeTransaction) => Promise<void>): Promise<void> {
  await stored(what, async () => {
    const db = await documentsDatabase.get();
    const tx = db.transaction(['documents', 'chunks', 'meta'], 'readwrite');
    await Promise.all([work(tx).then(() => bumpRevision(tx)), tx.done]);
  });
}

export async function openDocumentStore(): Promise<DocumentStore> {
  await documentsDatabase.get();
  return {
    async list() {
      const documents = await stored('list the documents', async () => (await documentsDatabase.get()).getAll('documents'));
      return documents.sort((a, b) => a.addedAt - b.addedAt);
    },
    async add(document, chunks) {
      await change(`store "${document.name}"`, async (tx) => {
        for (const old of await tx.objectStore('documents').getAll()) if (old.name === document.name) await deleteDocument(tx, old.id);
        await tx.objectStore('documents').put(document);
        const chunkStore = tx.objectStore('chunks');
        await Promise.all(chunks.map((chunk) => chunkStore.put(chunk)));
      });
    },
    async remove(id) {
      await change('remove the document', (tx) => deleteDocument(tx, id));
    },
    async chunks() {
      return stored('read the passages', async () => (await documentsDatabase.get()).getAll('chunks'));
    },
    async revision() {
      const value = await stored('read the documents revision', async () => (await documentsDatabase.get()).get('meta', REVISION_KEY));
      return typeof value === 'number' ? value : 0;
    },
    close() {
      documentsDatabase.close();
    },
  };
}
