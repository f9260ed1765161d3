// Run history in this browser's IndexedDB: each run's summary (what the History list shows) and
// its event log, appended batch by batch as the run streams. A batch and the summary it updates
// are written in one transaction, so a browser killed mid-run leaves a log that ends at a batch
// boundary and a summary that agrees with it.

import type { DBSchema } from 'idb';
import type { RunEvent } from '../../workers/engine/events.ts';
import { migrateRunLog, type RunSummary } from '../../workers/history/runLog.ts';
import type { RunFileRun } from '../../workers/history/runFile.ts';
import { summarize } from '../../workers/history/runLog.ts';
import { defineDatabase, stored } from '../../workers/storage/database.ts';

interface EventBatch {
  runId: string;
  seq: number;
  events: RunEvent[];
}

interface HistorySchema extends DBSchema {
  runs: { key: string; value: RunSummary; indexes: { startedAt: string } };
  /** Keyed [runId, seq]: a run's batches in order are one key range. */
  batches: { key: [string, number]; value: EventBatch };
}

const historyDatabase = defineDatabase<HistorySchema>({
  name: 'orchestra-playground-history',
  holds: 'your run history',
  migrations: [
    (db) => {
      db.createObjectStore('runs', { keyPath: 'id' }).createIndex('startedAt', 'startedAt');
      db.createObjectStore('batches', { keyPath: ['runId', 'seq'] });
    },
  ],
});

const batchesOf = (runId: string) => IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]);

/** Appends batch `seq` of a run's events and replaces its summary, in one transaction. */
export async function appendRunEvents(runId: string, seq: number, events: RunEvent[], summary: RunSummary): Promise<void> {
  await stored('keep this run in your history', async () => {
    const tx = (await historyDatabase.get()).transaction(['runs', 'batches'], 'readwrite');
    await Promise.all([tx.objectStore('batches').put({ runId, seq, events }), tx.objectStore('runs').put(summary), tx.done]);
  });
}

/** Summaries read per transaction: a page is cloned onto the page's thread in a few ms. */
const SUMMARY_PAGE = 500;
/** The newest runs read first, so the list shows before the rest are read. */
const FIRST_PAGE = 60;

/**
 * Every stored run's summary, newest first, read without a long task on the page's thread: the
 * newest few at once (`onFirst`), then all of them in pages by id (each page a short task), sorted
 * by date at the end.
 */
export async function listStoredRuns(onFirst?: (newest: RunSummary[]) => void): Promise<RunSummary[]> {
  return stored('read your run history', async () => {
    const db = await historyDatabase.get();
    if (onFirst) {
      const newest: RunSummary[] = [];
      let cursor = await db.transaction('runs').store.index('startedAt').openCursor(null, 'prev');
      while (cursor && newest.length < FIRST_PAGE) {
        newest.push(cursor.value);
        cursor = await cursor.continue();
      }
      onFirst(newest);
    }
    const all: RunSummary[] = [];
    let after: string | null = null;
    for (;;) {
      const page: RunSummary[] = await db.getAll('runs', after === null ? undefined : IDBKeyRange.lowerBound(after, true), SUMMARY_PAGE);
      all.push(...page);
      if (page.length < SUMMARY_PAGE) break;
      after = page[page.length - 1]!.id;
    }
    return all.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
  });
}

export async function readStoredSummary(runId: string): Promise<RunSummary | undefined> {
  return stored('read a run from your history', async () => (await historyDatabase.get()).get('runs', runId));
}

/** A stored run's events, brought to this version's form (or refused, whole, with the reason). */
export async function readStoredEvents(runId: string): Promise<RunEvent[]> {
  const batches = await stored('read a run from your history', async () => (await historyDatabase.get()).getAll('batches', batchesOf(runId)));
  const events = batches.flatMap((batch) => batch.events);
  if (events.length === 0) throw new Error('This run has no recorded events left (it may have been deleted in another tab).');
  const migrated = migrateRunLog(events);
  if (!migrated.ok) throw new Error(`This run cannot be shown: ${migrated.problem}.`);
  return migrated.events;
}

export async function renameStoredRun(runId: string, name: string): Promise<RunSummary | undefined> {
  return stored('rename the run', async () => {
    const tx = (await historyDatabase.get()).transaction('runs', 'readwrite');
    const summary = await tx.store.get(runId);
    if (!summary) return undefined;
    const renamed: RunSummary = { ...summary };
    if (name.trim()) renamed.name = name.trim();
    else delete renamed.name;
    await Promise.all([tx.store.put(renamed), tx.done]);
    return renamed;
  });
}

export async function deleteStoredRuns(runIds: readonly string[]): Promise<void> {
  await stored(runIds.length === 1 ? 'delete the run' : `delete ${runIds.length} runs`, async () => {
    const tx = (await historyDatabase.get()).transaction(['runs', 'batches'], 'readwrite');
    await Promise.all([
      ...runIds.flatMap((id) => [tx.objectStore('runs').delete(id), tx.objectStore('batches').delete(batchesOf(id))]),
      tx.done,
    ]);
  });
}

/** Stores runs read from a run file (a run already kept under the same id is replaced). */
export async function storeImportedRuns(runs: readonly RunFileRun[]): Promise<RunSummary[]> {
  const summaries = runs.flatMap((run) => {
    const summary = summarize(null, run.events);
    return summary ? [{ run, summary: run.name ? { ...summary, name: run.name } : summary }] : [];
  });
  await stored(runs.length === 1 ? 'import the run' : `import ${runs.length} runs`, async () => {
    const tx = (await historyDatabase.get()).transaction(['runs', 'batches'], 'readwrite');
    const batches = tx.objectStore('batches');
    await Promise.all([
      ...summaries.flatMap(({ run, summary }) => [batches.delete(batchesOf(run.id)), batches.put({ runId: run.id, seq: 0, events: run.events }), tx.objectStore('runs').put(summary)]),
      tx.done,
    ]);
  });
  return summaries.map(({ summary }) => summary);
}
