// The user's custom tools in this browser's IndexedDB: a database of their own, one record per
// tool. The whole list is written in one transaction, so a reload always finds a list that was
// true at some moment, never half of one.

import type { DBSchema } from 'idb';
import { defineDatabase, stored } from '../../workers/storage/database.ts';
import type { StoredCustomTool } from './customToolRecords.ts';

interface ToolsSchema extends DBSchema {
  /** Records are checked when read (see readRecords): what is stored may predate this code. */
  customTools: { key: string; value: StoredCustomTool };
}

const toolsDatabase = defineDatabase<ToolsSchema>({
  name: 'orchestra-playground-tools',
  holds: 'your tools',
  migrations: [(db) => void db.createObjectStore('customTools', { keyPath: 'id' })],
});

/** Every stored record, unchecked (see readRecords). */
export async function readStoredTools(): Promise<unknown[]> {
  return stored('read your tools', async () => (await toolsDatabase.get()).getAll('customTools'));
}

/** Replaces the stored list with `tools`. */
export async function writeStoredTools(tools: readonly StoredCustomTool[]): Promise<void> {
  await stored('save your tools', async () => {
    const tx = (await toolsDatabase.get()).transaction('customTools', 'readwrite');
    await Promise.all([tx.store.clear(), ...tools.map((tool) => tx.store.put(tool)), tx.done]);
  });
}
