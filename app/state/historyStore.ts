// The run history as the History tab shows it: the stored runs' summaries (read when the tab is
// first opened, then kept current as runs are recorded), which runs this tab is recording now,
// the selection, and what went wrong. Only app/state/ changes it; each set of stores has its own.

import type { StoreApi } from 'zustand/vanilla';
import { noticeActions, makeStore, plainStore, type Notice, type StoreWithActions } from './storeKit.ts';
import { formatBytes } from '../format.ts';
import type { RunSummary } from '../../workers/history/runLog.ts';

export interface HistoryState {
  /** Newest first; null until first read. */
  runs: RunSummary[] | null;
  loading: boolean;
  /** Why the history could not be read. */
  loadProblem: string | null;
  /** Runs this tab is recording right now: "running" is true of them, not "interrupted". */
  recording: string[];
  /** Why a run is not being kept (the site's storage is full, say), in words. */
  recordingProblem: string | null;
  selected: string[];
  /** The outcome of the last import, export or delete, in words. */
  notice: Notice | null;
}

const initialHistoryState: HistoryState = {
  runs: null,
  loading: false,
  loadProblem: null,
  recording: [],
  recordingProblem: null,
  selected: [],
  notice: null,
};

const newestFirst = (a: RunSummary, b: RunSummary) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0);

function upsert(runs: RunSummary[], summary: RunSummary): RunSummary[] {
  const index = runs.findIndex((run) => run.id === summary.id);
  if (index === -1) return [summary, ...runs].sort(newestFirst);
  const next = runs.slice();
  next[index] = summary;
  return next;
}

/** `runs` with every summary of `newer` in place of the one with its id, or added: one pass and
 * one sort, however many (an import of 10,000 runs merged one by one sorted the list 10,000 times). */
function merge(runs: RunSummary[], newer: readonly RunSummary[]): RunSummary[] {
  if (newer.length === 0) return runs;
  if (newer.length === 1) return upsert(runs, newer[0]!);
  const byId = new Map(newer.map((summary) => [summary.id, summary]));
  const kept = runs.map((run) => byId.get(run.id) ?? run);
  for (const run of runs) byId.delete(run.id);
  return byId.size === 0 ? kept : [...byId.values(), ...kept].sort(newestFirst);
}

type Store = StoreApi<HistoryState>;

const historyActions = {
  loading(store: Store): void {
    store.setState({ loading: true, loadProblem: null });
  },
  loaded(store: Store, runs: RunSummary[]): void {
    // Summaries written while the list was being read (and the newest page) win over what was read.
    store.setState((state) => ({
      loading: false,
      runs: state.runs ? merge(runs, state.runs) : runs,
    }));
  },
  /** The newest runs, shown while the rest are read. */
  loadedNewest(store: Store, runs: RunSummary[]): void {
    store.setState((state) => (state.runs ? state : { runs }));
  },
  loadFailed(store: Store, problem: string): void {
    store.setState({ loading: false, loadProblem: problem });
  },
  recordingStarted(store: Store, runId: string): void {
    store.setState((state) => ({ recording: [...state.recording, runId] }));
  },
  recordingEnded(store: Store, runId: string): void {
    store.setState((state) => ({ recording: state.recording.filter((id) => id !== runId) }));
  },
  summaryStored(store: Store, summary: RunSummary): void {
    store.setState((state) => (state.runs ? { runs: upsert(state.runs, summary) } : state));
  },
  async recordingFailed(store: Store, runId: string, error: unknown): Promise<void> {
    const usage = await storageUsage();
    store.setState((state) => ({
      recording: state.recording.filter((id) => id !== runId),
      recordingProblem: `This run is no longer being kept in your history. ${(error as Error).message}${usage ? ` (${usage})` : ''} Delete old runs in History to make room; the run itself goes on.`,
    }));
  },
  stored(store: Store, summaries: RunSummary[]): void {
    store.setState((state) => (state.runs ? { runs: merge(state.runs, summaries) } : state));
  },
  renamed(store: Store, summary: RunSummary): void {
    historyActions.summaryStored(store, summary);
  },
  deleted(store: Store, runIds: readonly string[]): void {
    const gone = new Set(runIds);
    store.setState((state) => ({
      runs: state.runs && state.runs.filter((run) => !gone.has(run.id)),
      selected: state.selected.filter((id) => !gone.has(id)),
      recordingProblem: null,
    }));
  },
  select(store: Store, runIds: string[]): void {
    store.setState({ selected: runIds });
  },
  toggle(store: Store, runId: string): void {
    store.setState((state) => ({
      selected: state.selected.includes(runId) ? state.selected.filter((id) => id !== runId) : [...state.selected, runId],
    }));
  },
  ...noticeActions,
};

export type HistoryStore = StoreWithActions<HistoryState, typeof historyActions>;

export function createHistoryStore(): HistoryStore {
  return makeStore(plainStore(initialHistoryState), {}, historyActions);
}

/** "41 MB of 120 MB used", or null where the browser does not say. */
async function storageUsage(): Promise<string | null> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (!estimate?.usage || !estimate.quota) return null;
    return `${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} used`;
  } catch {
    return null;
  }
}
