// The Evaluate tab's last results in this browser's IndexedDB, so a reload shows the table and
// charts again: one record, replaced by each evaluation that ends or file imported, deleted by
// Clear. What is read back is checked like an import (readSavedResults in
// app/components/Evaluate/evalView.ts): it may predate this code, or have been edited.

import type { DBSchema } from 'idb';
import { defineDatabase, stored } from '../../workers/storage/database.ts';
import type { SavedResults } from '../components/Evaluate/evalView.ts';

interface EvalSchema extends DBSchema {
  lastResults: { key: string; value: SavedResults };
}

const KEY = 'last';

const evalDatabase = defineDatabase<EvalSchema>({
  name: 'orchestra-playground-eval',
  holds: 'your last evaluation',
  migrations: [(db) => void db.createObjectStore('lastResults')],
});

/** The saved results, unchecked (see readSavedResults); undefined when none. */
export async function readLastResults(): Promise<unknown> {
  return stored('read your last evaluation', async () => (await evalDatabase.get()).get('lastResults', KEY));
}

export async function writeLastResults(saved: SavedResults): Promise<void> {
  await stored('save your last evaluation', async () => void (await (await evalDatabase.get()).put('lastResults', saved, KEY)));
}

export async function deleteLastResults(): Promise<void> {
  await stored('clear your last evaluation', async () => (await evalDatabase.get()).delete('lastResults', KEY));
}
