// The user's custom tools: held here in memory (what a run and an export use), mirrored to
// IndexedDB. Writes are queued behind the first load, so tools imported or saved before the
// stored ones came back are merged with them, never overwritten by them.

import { create } from 'zustand';
import type { CustomToolConfig } from '../../workers/engine/config.ts';
import { readRecords, toConfig, upsertByName, type StoredCustomTool } from '../storage/customToolRecords.ts';

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

export const useCustomToolsStore = create<CustomToolsState>()(() => ({ tools: [], loaded: false, problem: null }));

const byName = (tools: StoredCustomTool[]) => [...tools].sort((a, b) => a.name.localeCompare(b.name));

let queue: Promise<void> = Promise.resolve();
let loadQueued = false;

function enqueue(task: () => Promise<void>, failure: string): void {
  queue = queue.then(task).catch((error: unknown) => {
    useCustomToolsStore.setState({ problem: `${failure}: ${error instanceof Error ? error.message : String(error)}` });
  });
}

function ensureLoaded(): void {
  if (loadQueued) return;
  loadQueued = true;
  enqueue(async () => {
    try {
      const { tools: stored, skipped } = await readRecords(await (await toolsDb()).readStoredTools());
      // Anything already in memory (imported before the read finished) wins by name.
      useCustomToolsStore.setState((state) => ({
        tools: byName(upsertByName(stored, state.tools)),
        problem: skipped > 0 ? `${skipped} stored tool${skipped === 1 ? '' : 's'} could not be read and ${skipped === 1 ? 'was' : 'were'} left out.` : null,
      }));
    } finally {
      useCustomToolsStore.setState({ loaded: true });
    }
  }, 'Your saved tools could not be read');
}

function persist(): void {
  ensureLoaded();
  enqueue(async () => (await toolsDb()).writeStoredTools(useCustomToolsStore.getState().tools), 'Your tools could not be saved in this browser');
}

export const customToolsActions = {
  /** Reads the stored tools (once). */
  load(): void {
    ensureLoaded();
  },
  /** Adds a tool or replaces the one with its id. */
  save(tool: StoredCustomTool): void {
    useCustomToolsStore.setState((state) => ({
      tools: byName([...state.tools.filter((existing) => existing.id !== tool.id), tool]),
    }));
    persist();
  },
  remove(id: string): void {
    useCustomToolsStore.setState((state) => ({ tools: state.tools.filter((tool) => tool.id !== id) }));
    persist();
  },
  /** A config file's tools: each replaces the tool of its name, the others stay. */
  imported(tools: readonly CustomToolConfig[]): void {
    if (tools.length === 0) return;
    useCustomToolsStore.setState((state) => ({ tools: byName(upsertByName(state.tools, tools)) }));
    persist();
  },
};

/** The tools as the config file holds them. */
export function customToolsForConfig(): CustomToolConfig[] {
  return useCustomToolsStore.getState().tools.map(toConfig);
}
