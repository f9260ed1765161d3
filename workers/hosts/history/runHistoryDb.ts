// Run history in this browser's IndexedDB: each run's summary (what the History list shows) and
// its event log, appended batch by batch as the run streams. A batch and the summary it updates
// are written in one transaction, so a browser killed mid-run leaves a log that ends at a batch
// boundary and a summary that agrees with it.

import type { DBSchema } from 'idb';
import type { RunEvent } from '../../engine/events.ts';
import { migrateRunLog, type RunSummary } from '../../history/runLog.ts';
import type { RunFileRun } from '../../history/runFile.ts';
import { summarize } from '../../history/runLog.ts';
import { newRunId } from '../../engine/ids.ts';
import { defineDatabase, stored } from '../../storage/database.ts';

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

/** A stored run's events, brought to this version's form (or refused, whole, with the reason),
 * read batch by batch (readStoredEventBatches), so a long run is never one long task. */
export async function readStoredEvents(runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await readStoredEventBatches(runId, (batch) => {
    for (const event of batch) events.push(event);
  });
  return events;
}

/**
 * A stored run's events, batch by batch in order, each handed to `onBatch` as it is read: each
 * batch is cloned onto the page's thread in a task of its own (an imported run's batches hold
 * 2,000 events), where one read of every batch at once is one long task for a long run.
 */
export async function readStoredEventBatches(runId: string, onBatch: (events: RunEvent[]) => void): Promise<void> {
  const read = await stored('read a run from your history', async () => {
    let cursor = await (await historyDatabase.get()).transaction('batches').store.openCursor(batchesOf(runId));
    let batches = 0;
    while (cursor) {
      let events = cursor.value.events;
      if (batches++ === 0) {
        const migrated = migrateRunLog(events);
        if (!migrated.ok) return `This run cannot be shown: ${migrated.problem}.`;
        events = migrated.events;
      }
      onBatch(events);
      cursor = await cursor.continue();
    }
    return batches === 0 ? 'This run has no recorded events left (it may have been deleted in another tab).' : null;
  });
  if (read !== null) throw new Error(read);
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

/** Events per stored batch of an imported run: a batch is cloned onto the page's thread in one
 * piece when the run is opened, and 2,000 events take a few milliseconds. */
export const IMPORT_BATCH_EVENTS = 2_000;

/** What became of a run of an imported file: kept under its id, kept as a copy under a new id
 * (its id was taken by another run), or already kept, the same. */
export type ImportedAs = 'new' | 'copy' | 'same';

/** Two JSON values are alike whatever the order of their keys (a file's reader rebuilds objects
 * in its schema's order); a key whose value is undefined counts as absent, as in JSON. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, index) => sameValue(item, (b as unknown[])[index]));
  const keysOf = (value: object) => Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
  const keys = keysOf(a);
  return keys.length === keysOf(b).length && keys.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** Two event logs are the same run when their events are alike. */
function sameEvents(a: readonly RunEvent[], b: readonly RunEvent[]): boolean {
  return a.length === b.length && a.every((event, index) => sameValue(event, b[index]));
}

/**
 * Stores runs read from a run file (the import worker calls this, off the page's thread). An
 * import never replaces a kept run: a run whose id is taken is kept as a copy under a new id,
 * unless it is the same run, which is recognised and left as it is.
 */
export async function storeImportedRuns(runs: readonly RunFileRun[]): Promise<Array<{ summary: RunSummary; as: ImportedAs }>> {
  const db = await stored('read your run history', () => historyDatabase.get());
  const outcomes: Array<{ summary: RunSummary; as: ImportedAs; events: RunEvent[] }> = [];
  for (const run of runs) {
    const kept = await stored('read your run history', () => db.get('runs', run.id));
    let events = run.events;
    let as: ImportedAs = 'new';
    if (kept) {
      const keptEvents = (await stored('read your run history', () => db.getAll('batches', batchesOf(run.id)))).flatMap((batch) => batch.events);
      const migrated = migrateRunLog(keptEvents);
      if (migrated.ok && sameEvents(migrated.events, run.events)) {
        outcomes.push({ summary: kept, as: 'same', events: [] });
        continue;
      }
      const id = newRunId();
      events = run.events.map((event) => ({ ...event, runId: id }));
      as = 'copy';
    }
    const summary = summarize(null, events);
    if (summary) outcomes.push({ summary: run.name ? { ...summary, name: run.name } : summary, as, events });
  }
  const fresh = outcomes.filter((outcome) => outcome.as !== 'same');
  if (fresh.length > 0) {
    await stored(fresh.length === 1 ? 'import the run' : `import ${fresh.length} runs`, async () => {
      const tx = db.transaction(['runs', 'batches'], 'readwrite');
      const batches = tx.objectStore('batches');
      const writes: Array<Promise<unknown>> = [];
      for (const { summary, events } of fresh) {
        for (let seq = 0; seq * IMPORT_BATCH_EVENTS < events.length; seq++) {
          writes.push(batches.put({ runId: summary.id, seq, events: events.slice(seq * IMPORT_BATCH_EVENTS, (seq + 1) * IMPORT_BATCH_EVENTS) }));
        }
        writes.push(tx.objectStore('runs').put(summary));
      }
      await Promise.all([...writes, tx.done]);
    });
  }
  return outcomes.map(({ summary, as }) => ({ summary, as }));
}
