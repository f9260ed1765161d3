// The user's custom tools in this browser's IndexedDB: a database of their own, one record per
// tool. The whole list is written in one transaction, so a reload always finds a list that was
// true at some moment, never half of one.

import type { StoredCustomTool } from './customToolRecords.ts';

const DB_NAME = 'orchestra-playground-tools';
const DB_VERSION = 1;
const STORE = 'customTools';

let opening: Promise<IDBDatabase> | null = null;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('this browser offers no IndexedDB (a private window may turn it off)'));
      return;
    }
    const req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    req.onsuccess = () => {
      const db = req.result;
      // Another tab upgrading the database: close, and open again on the next use.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    req.onerror = () => reject(req.error ?? new Error('IndexedDB could not be opened'));
    req.onblocked = () => reject(new Error('IndexedDB is held by another tab of this app; close it and try again'));
  });
  opening.catch(() => {
    opening = null;
  });
  return opening;
}

/** Every stored record, unchecked (see readRecords). */
export async function readStoredTools(): Promise<unknown[]> {
  const db = await open();
  return request(db.transaction(STORE, 'readonly').objectStore(STORE).getAll());
}

/** Replaces the stored list with `tools`. */
export async function writeStoredTools(tools: readonly StoredCustomTool[]): Promise<void> {
  const db = await open();
  const transaction = db.transaction(STORE, 'readwrite');
  const store = transaction.objectStore(STORE);
  store.clear();
  for (const tool of tools) store.put(tool);
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB write failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB write was aborted'));
  });
}
