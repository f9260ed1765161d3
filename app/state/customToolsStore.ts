// The user's custom tools: held here in memory (what a run and an export use), mirrored to
// IndexedDB. Writes are queued behind the first load, so tools imported or saved before the
// stored ones came back are merged with them, never overwritten by them.

import type { StoreApi } from 'zustand/vanilla';
import type { CustomToolConfig } from '../../workers/engine/config.ts';
import { readRecords, toConfig, upsertByName, type StoredCustomTool } from '../storage/customToolRecords.ts';
import { makeStore, plainStore, type Bound } from './storeKit.ts';

// The IndexedDB code loads with the first read, after the first screen (it is not first-load code).
const toolsDb = () => import('../storage/customToolsDb.ts');

export interface CustomToolsState {
  /** Sorted by name. */
  tools: StoredCustomTool[];
  /** The stored tools have been read (or could not be). */
  loaded: boolean;
  /** Why the tools could not be read or kept, in words. */
  problem: string | null;
}

const byName = (tools: StoredCustomTool[]) => [...tools].sort((a, b) => a.name.localeCompare(b.name));

/** The store keeps its queue of writes beside its state. */
type Store = StoreApi<CustomToolsState> & { queue: Promise<void>; loadQueued: boolean };

function enqueue(store: Store, task: () => Promise<void>, failure: string): void {
  store.queue = store.queue.then(task).catch((error: unknown) => {
    store.setState({ problem: `${failure}: ${error instanceof Error ? error.message : String(error)}` });
  });
}

function ensureLoaded(store: Store): void {
  if (store.loadQueued) return;
  store.loadQueued = true;
  enqueue(store, async () => {
    try {
      const { tools: stored, skipped } = await readRecords(await (await toolsDb()).readStoredTools());
      // Anything already in memory (imported before the read finished) wins by name.
      store.setState((state) => ({
        tools: byName(upsertByName(stored, state.tools)),
        problem: skipped > 0 ? `${skipped} stored tool${skipped === 1 ? '' : 's'} could not be read and ${skipped === 1 ? 'was' : 'were'} left out.` : null,
      }));
    } finally {
      store.setState({ loaded: true });
    }
  }, 'Your saved tools could not be read');
}

function persist(store: Store): void {
  ensureLoaded(store);
  enqueue(store, async () => (await toolsDb()).writeStoredTools(store.getState().tools), 'Your tools could not be saved in this browser');
}

const customToolsActions = {
  /** Reads the stored tools (once). */
  load(store: Store): void {
    ensureLoaded(store);
  },
  /** Adds a tool or replaces the one with its id. */
  save(store: Store, tool: StoredCustomTool): void {
    store.setState((state) => ({
      tools: byName([...state.tools.filter((existing) => existing.id !== tool.id), tool]),
    }));
    persist(store);
  },
  remove(store: Store, id: string): void {
    store.setState((state) => ({ tools: state.tools.filter((tool) => tool.id !== id) }));
    persist(store);
  },
  /** A config file's tools: each replaces the tool of its name, the others stay. */
  imported(store: Store, tools: readonly CustomToolConfig[]): void {
    if (tools.length === 0) return;
    store.setState((state) => ({ tools: byName(upsertByName(state.tools, tools)) }));
    persist(store);
  },
};

export type CustomToolsStore = Store & { actions: Bound<typeof customToolsActions> };

export function createCustomToolsStore(): CustomToolsStore {
  return makeStore(plainStore<CustomToolsState>({ tools: [], loaded: false, problem: null }), { queue: Promise.resolve(), loadQueued: false }, customToolsActions);
}

/** The tools as the config file holds them. */
export function customToolsForConfig(store: StoreApi<CustomToolsState>): CustomToolConfig[] {
  return store.getState().tools.map(toConfig);
}
