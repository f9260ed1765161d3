// The run history as the History tab shows it: the stored runs' summaries (read when the tab is
// first opened, then kept current as runs are recorded), which runs this tab is recording now,
// the selection, and what went wrong. Only app/state/ changes it.

import { create } from 'zustand';
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
  notice: { kind: 'ok' | 'problem'; lines: string[] } | null;
}

export const useHistoryStore = create<HistoryState>()(() => ({
  runs: null,
  loading: false,
  loadProblem: null,
  recording: [],
  recordingProblem: null,
  selected: [],
  notice: null,
}));

function upsert(runs: RunSummary[], summary: RunSummary): RunSummary[] {
  const index = runs.findIndex((run) => run.id === summary.id);
  if (index === -1) return [summary, ...runs].sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
  const next = runs.slice();
  next[index] = summary;
  return next;
}

export const historyActions = {
  loading(): void {
    useHistoryStore.setState({ loading: true, loadProblem: null });
  },
  loaded(runs: RunSummary[]): void {
    // Summaries written while the list was being read (and the newest page) win over what was read.
    useHistoryStore.setState((state) => ({
      loading: false,
      runs: state.runs ? state.runs.reduce(upsert, runs) : runs,
    }));
  },
  /** The newest runs, shown while the rest are read. */
  loadedNewest(runs: RunSummary[]): void {
    useHistoryStore.setState((state) => (state.runs ? state : { runs }));
  },
  loadFailed(problem: string): void {
    useHistoryStore.setState({ loading: false, loadProblem: problem });
  },
  recordingStarted(runId: string): void {
    useHistoryStore.setState((state) => ({ recording: [...state.recording, runId] }));
  },
  recordingEnded(runId: string): void {
    useHistoryStore.setState((state) => ({ recording: state.recording.filter((id) => id !== runId) }));
  },
  summaryStored(summary: RunSummary): void {
    useHistoryStore.setState((state) => (state.runs ? { runs: upsert(state.runs, summary) } : state));
  },
  async recordingFailed(runId: string, error: unknown): Promise<void> {
    const usage = await storageUsage();
    useHistoryStore.setState((state) => ({
      recording: state.recording.filter((id) => id !== runId),
      recordingProblem: `This run is no longer being kept in your history. ${(error as Error).message}${usage ? ` (${usage})` : ''} Delete old runs in History to make room; the run itself goes on.`,
    }));
  },
  stored(summaries: RunSummary[]): void {
    useHistoryStore.setState((state) => (state.runs ? { runs: summaries.reduce(upsert, state.runs) } : state));
  },
  renamed(summary: RunSummary): void {
    historyActions.summaryStored(summary);
  },
  deleted(runIds: readonly string[]): void {
    const gone = new Set(runIds);
    useHistoryStore.setState((state) => ({
      runs: state.runs && state.runs.filter((run) => !gone.has(run.id)),
      selected: state.selected.filter((id) => !gone.has(id)),
      recordingProblem: null,
    }));
  },
  select(runIds: string[]): void {
    useHistoryStore.setState({ selected: runIds });
  },
  toggle(runId: string): void {
    useHistoryStore.setState((state) => ({
      selected: state.selected.includes(runId) ? state.selected.filter((id) => id !== runId) : [...state.selected, runId],
    }));
  },
  notice(kind: 'ok' | 'problem', lines: string[]): void {
    useHistoryStore.setState({ notice: { kind, lines } });
  },
  clearNotice(): void {
    useHistoryStore.setState({ notice: null });
  },
};

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
