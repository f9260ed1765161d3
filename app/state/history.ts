// What the History tab's controls do: read the stored runs, open one (as recorded, or as a
// replay), rename, delete, export to a run file and import one. Like session.ts for the live run,
// this is the only place those controls act through; the stores only hold state.

import type { RunEvent } from '../../workers/engine/events.ts';
import type { RunFileRun } from '../../workers/history/runFile.ts';
import type { RunSummary } from '../../workers/history/runLog.ts';
import { downloadText } from '../download.ts';
import {
  deleteStoredRuns,
  listStoredRuns,
  readStoredEventBatches,
  readStoredEvents,
  readStoredSummary,
  renameStoredRun,
} from '../storage/runHistoryDb.ts';
import { importedNotice, importRunFileOffThread } from '../worker/runFileImport.ts';
import { MAX_COMPARED } from './compareModel.ts';
import { compareActions } from './compareStore.ts';
import { historyActions, useHistoryStore } from './historyStore.ts';
import { startReplay, stopReplay } from './replay.ts';
import { runActions, useRunStore } from './runStore.ts';
import { keysLeftIn, startForkedRun, startRun, type StartOutcome } from './session.ts';
import { createSlicedFold, foldInSlices } from './foldInSlices.ts';
import { endRun, type RunView } from './runView.ts';

/** Reads the stored runs the first time History opens (later changes arrive as they happen). */
export function loadHistory({ again = false } = {}): void {
  const { runs, loading } = useHistoryStore.getState();
  if (loading || (runs !== null && !again)) return;
  historyActions.loading();
  listStoredRuns(historyActions.loadedNewest).then(historyActions.loaded, (error: unknown) => historyActions.loadFailed((error as Error).message));
}

/** A stored run that is not being recorded by this tab yet never finished: it was cut off. */
export function isInterrupted(summary: RunSummary): boolean {
  return summary.status === 'running' && !useHistoryStore.getState().recording.includes(summary.id);
}

async function readRun(runId: string): Promise<{ summary: RunSummary; events: RunEvent[] } | null> {
  try {
    const [summary, events] = await Promise.all([readStoredSummary(runId), readStoredEvents(runId)]);
    if (!summary) throw new Error('This run is no longer in your history (deleted in another tab?).');
    return { summary, events };
  } catch (error) {
    historyActions.notice('problem', [(error as Error).message]);
    return null;
  }
}

/** Shows a stored run as it was recorded. Not while a run is live: that one stays on screen. A
 * long run opens step by step: its first steps at once, the rest as its events are read and
 * folded in slices (foldInSlices.ts), the page's thread free between them. */
export async function openStoredRun(runId: string): Promise<void> {
  if (useRunStore.getState().phase !== 'idle') return;
  let summary: RunSummary | undefined;
  try {
    summary = await readStoredSummary(runId);
    if (!summary) throw new Error('This run is no longer in your history (deleted in another tab?).');
  } catch (error) {
    historyActions.notice('problem', [(error as Error).message]);
    return;
  }
  const shownSummary = summary;
  stopReplay();
  compareActions.close();
  const interrupted = isInterrupted(summary);
  runActions.showStored(null, { summary, mode: 'view', interruptedAtStep: interrupted ? summary.steps : null, reading: true });
  const fold = createSlicedFold((view, complete) => {
    const { stored } = useRunStore.getState();
    if (stored?.summary !== shownSummary) return false;
    runActions.storedFrame(shownSummary, complete ? recordedView(view, shownSummary, interrupted) : view && { ...view, status: 'finished' }, !complete);
    return true;
  });
  try {
    await readStoredEventBatches(runId, (events) => fold.add(events));
  } catch (error) {
    historyActions.notice('problem', [(error as Error).message]);
  }
  await fold.end();
}

/** A stored run as it ends: one cut off (its tab closed mid-run) says where. */
function recordedView(view: RunView | null, summary: RunSummary, interrupted: boolean): RunView | null {
  if (!view || !interrupted) return view;
  return endRun(view, 'aborted', {
    code: 'interrupted',
    message: `Interrupted at step ${summary.steps}: the tab or browser closed before the run finished. Every step recorded until then is here.`,
  });
}

/** Re-streams a stored run with its recorded timing. It calls nothing: no worker, no network. */
export async function replayStoredRun(runId: string): Promise<void> {
  if (useRunStore.getState().phase !== 'idle') return;
  const read = await readRun(runId);
  if (!read) return;
  compareActions.close();
  startReplay(read.summary, read.events);
}

export function closeStoredRun(): void {
  stopReplay();
  runActions.closeStored();
}

export async function renameRun(runId: string, name: string): Promise<void> {
  try {
    const renamed = await renameStoredRun(runId, name);
    if (renamed) historyActions.renamed(renamed);
  } catch (error) {
    historyActions.notice('problem', [(error as Error).message]);
  }
}

export async function deleteRuns(runIds: readonly string[]): Promise<void> {
  const live = useHistoryStore.getState().recording;
  const deletable = runIds.filter((id) => !live.includes(id));
  if (deletable.length === 0) return;
  try {
    await deleteStoredRuns(deletable);
    historyActions.deleted(deletable);
    const shown = useRunStore.getState().stored;
    if (shown && deletable.includes(shown.summary.id)) closeStoredRun();
    historyActions.notice('ok', [deletable.length === 1 ? 'Deleted 1 run.' : `Deleted ${deletable.length} runs.`]);
  } catch (error) {
    historyActions.notice('problem', [(error as Error).message]);
  }
}

/** Downloads the runs as one run file (keys are never in it: events are redacted as they are
 * recorded, configs have no field for one, and the file is scanned once more before it is written). */
export async function exportRuns(runIds: readonly string[]): Promise<void> {
  try {
    const [{ writeRunFile }, runs] = await Promise.all([
      import('../../workers/history/runFile.ts'),
      Promise.all(
        runIds.map(async (id): Promise<RunFileRun> => {
          const [summary, events] = await Promise.all([readStoredSummary(id), readStoredEvents(id)]);
          return { id, ...(summary?.name ? { name: summary.name } : {}), events };
        }),
      ),
    ]);
    const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
    const text = writeRunFile(runs);
    const keysLeft = await keysLeftIn(text);
    if (keysLeft) {
      historyActions.notice('problem', [`The export was not written: ${keysLeft}`]);
      return;
    }
    downloadText(text, runs.length === 1 ? `orchestra-run-${stamp}.json` : `orchestra-runs-${runs.length}-${stamp}.json`);
    historyActions.notice('ok', [runs.length === 1 ? 'Exported 1 run.' : `Exported ${runs.length} runs.`]);
  } catch (error) {
    historyActions.notice('problem', [`The export failed: ${(error as Error).message}`]);
  }
}

export async function exportAllRuns(): Promise<void> {
  const runs = useHistoryStore.getState().runs ?? (await listStoredRuns());
  await exportRuns(runs.map((run) => run.id));
}

/** Reads a run file off the page's thread, where what it holds is kept in the history. */
export async function importRunFile(file: File): Promise<void> {
  historyActions.clearNotice();
  const read = await importRunFileOffThread(file);
  if (!read.ok) {
    historyActions.notice('problem', [`"${file.name}" was not imported:`, ...read.problems]);
    return;
  }
  loadHistory();
  historyActions.stored(read.imported.filter((run) => run.as !== 'same').map((run) => run.summary));
  historyActions.notice('ok', [importedNotice(file.name, read.imported), ...read.warnings]);
}

/** Shows two to four stored runs side by side (in place of the trace, until closed). */
export async function compareStoredRuns(runIds: readonly string[]): Promise<void> {
  if (runIds.length < 2 || runIds.length > MAX_COMPARED) {
    historyActions.notice('problem', [`Select two to ${MAX_COMPARED} runs to compare.`]);
    return;
  }
  const read = await Promise.all(runIds.map(readRun));
  const compared: Array<{ summary: RunSummary; view: RunView }> = [];
  for (const run of read) {
    const view = run && (await foldInSlices(run.events));
    if (run && view) compared.push({ summary: run.summary, view });
  }
  if (compared.length === runIds.length) compareActions.show(compared);
}

export function closeComparison(): void {
  compareActions.close();
}

/**
 * Runs a stored run's task again with the current Setup and preferences: from the start
 * (`throughStep` 0), or going on after step `throughStep` with steps 1..N kept as recorded.
 */
export async function runAgain(runId: string, throughStep: number): Promise<StartOutcome | null> {
  if (useRunStore.getState().phase !== 'idle') return 'busy';
  const read = await readRun(runId);
  if (!read) return null;
  stopReplay();
  if (throughStep === 0) return startRun(read.summary.task);
  return startForkedRun(read.summary.task, { parentRunId: runId, throughStep, events: read.events });
}
