// Harness of the IndexedDB layer (workers/storage/database.ts) for e2e/database.spec.ts: a notes
// database whose schema has two versions, so a spec can open it at either from two tabs and watch
// upgrades, a blocked upgrade and another tab's upgrade closing this one.
import type { DBSchema } from 'idb';
import { defineDatabase, type Database, type Migration } from '../../workers/storage/database.ts';

interface Note {
  id: string;
  title: string;
  /** Added by version 2: the title in lower case, indexed. */
  key?: string;
}

interface NotesSchema extends DBSchema {
  notes: { key: string; value: Note; indexes: { byKey: string } };
}

const migrations: Migration<NotesSchema>[] = [
  (db) => void db.createObjectStore('notes', { keyPath: 'id' }),
  // Version 2 rewrites every record and indexes the new field, in the upgrade transaction.
  (_db, tx) => {
    const notes = tx.objectStore('notes');
    notes.createIndex('byKey', 'key');
    void notes.getAll().then((all) => Promise.all(all.map((note) => notes.put({ ...note, key: note.title.toLowerCase() }))));
  },
];

export interface DatabaseHarness {
  /** Opens the notes database through the layer at `version` (1 or 2); false when it failed. */
  open(version: 1 | 2): Promise<true | string>;
  put(note: Note): Promise<true | string>;
  all(): Promise<Note[] | string>;
  byKey(key: string): Promise<Note[] | string>;
  /** Opens the database without the layer and keeps it open, ignoring versionchange: an old tab. */
  holdRawConnection(): Promise<number>;
}

declare global {
  interface Window {
    databaseHarness: DatabaseHarness;
  }
}

let notes: Database<NotesSchema> | null = null;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const attempt = async <T>(work: () => Promise<T>): Promise<T | string> => {
  try {
    return await work();
  } catch (error) {
    return message(error);
  }
};

window.databaseHarness = {
  async open(version) {
    notes = defineDatabase<NotesSchema>({ name: 'harness-notes', holds: 'the notes', migrations: migrations.slice(0, version) });
    return attempt(async () => (await notes!.get(), true as const));
  },
  put: (note) => attempt(async () => (await (await notes!.get()).put('notes', note), true as const)),
  all: () => attempt(async () => (await notes!.get()).getAll('notes')),
  byKey: (key) => attempt(async () => (await notes!.get()).getAllFromIndex('notes', 'byKey', key)),
  holdRawConnection: () =>
    new Promise((resolve, reject) => {
      const request = indexedDB.open('harness-notes');
      request.onsuccess = () => resolve(request.result.version);
      request.onerror = () => reject(request.error);
    }),
};
const status = document.getElementById('status');
if (status) status.textContent = 'ready';
