// The one way this app opens an IndexedDB database (custom tools, documents, and next run
// history), on the page and in workers alike, through `idb`:
// - upgrades are a list of migrations, one per version step, run in the upgrade transaction, so
//   a database several versions behind walks every step and a new version is one more entry;
// - `blocked` (an older tab of the app still holds the database open) fails the open with a
//   message that says what to do, instead of hanging;
// - `versionchange` (a newer tab wants to upgrade) closes this connection at once, and the next
//   use opens the database again (at the version this code knows, or failing clearly when a newer
//   version of the app has upgraded it past that);
// - errors name what was being done and tell "the site's storage is full" apart.

import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';

/** Upgrades a database at version `index` to `index + 1`, inside the upgrade transaction. */
export type Migration<Schema extends DBSchema> = (
  db: IDBPDatabase<Schema>,
  transaction: IDBPTransaction<Schema, StoreNames<Schema>[], 'versionchange'>,
) => void;

export interface DatabaseDefinition<Schema extends DBSchema> {
  name: string;
  /** What the database keeps, in the user's words ("your documents"), for its error messages. */
  holds: string;
  /** migrations[i] takes the database from version i to i + 1; the version is their count. */
  migrations: readonly Migration<Schema>[];
}

/** Opens the database on first use and reopens it after another tab's upgrade closed it. */
export interface Database<Schema extends DBSchema> {
  get(): Promise<IDBPDatabase<Schema>>;
  close(): void;
}

export function defineDatabase<Schema extends DBSchema>(definition: DatabaseDefinition<Schema>): Database<Schema> {
  let opening: Promise<IDBPDatabase<Schema>> | null = null;
  const forget = (db?: IDBPDatabase<Schema>) => {
    db?.close();
    opening = null;
  };
  return {
    get() {
      opening ??= openDatabase(definition, forget);
      opening.catch(() => forget());
      return opening;
    },
    close() {
      void opening?.then((db) => db.close(), () => undefined);
      opening = null;
    },
  };
}

function openDatabase<Schema extends DBSchema>(
  { name, holds, migrations }: DatabaseDefinition<Schema>,
  forget: (db: IDBPDatabase<Schema>) => void,
): Promise<IDBPDatabase<Schema>> {
  if (typeof indexedDB === 'undefined') {
    return Promise.reject(new Error(`This browser gives the playground no IndexedDB (a private window may turn it off), so ${holds} cannot be kept.`));
  }
  return new Promise((resolve, reject) => {
    const opened = openDB<Schema>(name, migrations.length, {
      upgrade(db, oldVersion, _newVersion, transaction) {
        for (let version = oldVersion; version < migrations.length; version++) migrations[version]!(db, transaction);
      },
      // An older tab of the app holds the database at an older version: the upgrade waits for it
      // to close, which may be never. Say so now; the open goes on and is closed if it completes.
      blocked() {
        reject(new Error(`The database of ${holds} is held by an older version of the playground in another tab: close that tab and try again.`));
        void opened.then((db) => db.close(), () => undefined);
      },
      // A newer tab upgrades: let it, and open again on the next use.
      blocking() {
        void opened.then(forget, () => undefined);
      },
      // The browser closed the connection (storage cleared, quota): open again on the next use.
      terminated() {
        void opened.then(forget, () => undefined);
      },
    });
    opened.then(resolve, (error: unknown) => reject(storageError(`open the database of ${holds}`, error)));
  });
}

/** An error for a failed storage operation `what` ("store \"notes.pdf\""), in the user's words. */
export function storageError(what: string, cause: unknown): Error {
  const name = (cause as { name?: unknown } | null)?.name;
  if (name === 'QuotaExceededError') {
    return new Error(`Could not ${what}: the browser's storage for this site is full. Remove some documents (or models) first.`, { cause });
  }
  if (name === 'VersionError') {
    return new Error(`Could not ${what}: a newer version of the playground has upgraded it. Reload to get that version.`, { cause });
  }
  const detail = cause instanceof Error || cause instanceof DOMException ? `: ${cause.message}` : '.';
  return new Error(`Could not ${what}${detail}`, { cause });
}

/** Runs `work` on a storage operation and turns any failure into storageError(what). */
export async function stored<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw storageError(what, error);
  }
}
