// What the History tab's controls do: read the stored runs, open one (as recorded, or as a
// replay), rename, delete, export to a run file and import one. Like session.ts for the live run,
// this is the only place those controls act through; the stores only hold state. One per set of
// stores, made with the History tab (createHistory through appStores.ts's part).

import type { RunEvent } from '../../workers/engine/events.ts';
import type { RunFileRun } from '../../workers/history/runFile.ts';
import type { RunSummary } from '../../workers/history/runLog.ts';
import {
  deleteStoredRuns,
  listStoredRuns,
  readStoredEvents,
  readStoredSummary,
  renameStoredRun,
  storeImportedRuns,
} from '../storage/runHistoryDb.ts';
import type { AppStores } from './appStores.ts';
import { MAX_COMPARED } from './compareModel.ts';
import { createReplay, type Replay } from './replay.ts';
import type { StartOutcome } from './session.ts';
import { endRun, foldEvents } from './runView.ts';

export type HistoryDeps = Pick<AppStores, 'run' | 'history' | 'compare' | 'session' | 'part' | 'platform'>;

export class History {
  readonly replay: Replay;

  constructor(private readonly deps: HistoryDeps) {
    this.replay = deps.part(createReplay);
  }

  /** Reads the stored runs the first time History opens (later changes arrive as they happen). */
  loadHistory = ({ again = false } = {}): void => {
    const { runs, loading } = this.deps.history.getState();
    if (loading || (runs !== null && !again)) return;
    this.deps.history.actions.loading();
    const { actions } = this.deps.history;
    listStoredRuns(actions.loadedNewest).then(actions.loaded, (error: unknown) => actions.loadFailed((error as Error).message));
  };

  /** A stored run that is not being recorded by this tab yet never finished: it was cut off. */
  isInterrupted = (summary: RunSummary): boolean => {
    return summary.status === 'running' && !this.deps.history.getState().recording.includes(summary.id);
  };

  private readRun = async (runId: string): Promise<{ summary: RunSummary; events: RunEvent[] } | null> => {
    try {
      const [summary, events] = await Promise.all([readStoredSummary(runId), readStoredEvents(runId)]);
      if (!summary) throw new Error('This run is no longer in your history (deleted in another tab?).');
      return { summary, events };
    } catch (error) {
      this.deps.history.actions.notice('problem', [(error as Error).message]);
      return null;
    }
  };

  /** Shows a stored run as it was recorded. Not while a run is live: that one stays on screen. */
  openStoredRun = async (runId: string): Promise<void> => {
    if (this.deps.run.getState().phase !== 'idle') return;
    const read = await this.readRun(runId);
    if (!read) return;
    this.replay.stop();
    this.deps.compare.actions.close();
    const interrupted = this.isInterrupted(read.summary);
    let view = foldEvents(null, read.events);
    if (view && interrupted) {
      view = endRun(view, 'aborted', {
        code: 'interrupted',
        message: `Interrupted at step ${read.summary.steps}: the tab or browser closed before the run finished. Every step recorded until then is here.`,
      });
    }
    this.deps.run.actions.showStored(view, { summary: read.summary, mode: 'view', interruptedAtStep: interrupted ? read.summary.steps : null });
  };

  /** Re-streams a stored run with its recorded timing. It calls nothing: no worker, no network. */
  replayStoredRun = async (runId: string): Promise<void> => {
    if (this.deps.run.getState().phase !== 'idle') return;
    const read = await this.readRun(runId);
    if (!read) return;
    this.deps.compare.actions.close();
    this.replay.start(read.summary, read.events);
  };

  closeStoredRun = (): void => {
    this.replay.stop();
    this.deps.run.actions.closeStored();
  };

  renameRun = async (runId: string, name: string): Promise<void> => {
    try {
      const renamed = await renameStoredRun(runId, name);
      if (renamed) this.deps.history.actions.renamed(renamed);
    } catch (error) {
      this.deps.history.actions.notice('problem', [(error as Error).message]);
    }
  };

  deleteRuns = async (runIds: readonly string[]): Promise<void> => {
    const live = this.deps.history.getState().recording;
    const deletable = runIds.filter((id) => !live.includes(id));
    if (deletable.length === 0) return;
    try {
      await deleteStoredRuns(deletable);
      this.deps.history.actions.deleted(deletable);
      const shown = this.deps.run.getState().stored;
      if (shown && deletable.includes(shown.summary.id)) this.closeStoredRun();
      this.deps.history.actions.notice('ok', [deletable.length === 1 ? 'Deleted 1 run.' : `Deleted ${deletable.length} runs.`]);
    } catch (error) {
      this.deps.history.actions.notice('problem', [(error as Error).message]);
    }
  };

  /** Downloads the runs as one run file (keys are never in it: events and configs carry none). */
  exportRuns = async (runIds: readonly string[]): Promise<void> => {
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
      this.deps.platform.download(writeRunFile(runs), runs.length === 1 ? `orchestra-run-${stamp}.json` : `orchestra-runs-${runs.length}-${stamp}.json`);
      this.deps.history.actions.notice('ok', [runs.length === 1 ? 'Exported 1 run.' : `Exported ${runs.length} runs.`]);
    } catch (error) {
      this.deps.history.actions.notice('problem', [`The export failed: ${(error as Error).message}`]);
    }
  };

  exportAllRuns = async (): Promise<void> => {
    const runs = this.deps.history.getState().runs ?? (await listStoredRuns());
    await this.exportRuns(runs.map((run) => run.id));
  };

  /** Reads a run file off the page's thread and keeps what it holds in the history. */
  importRunFile = async (file: File): Promise<void> => {
    this.deps.history.actions.clearNotice();
    const read = await this.deps.platform.readRunFile(file);
    if (!read.ok) {
      this.deps.history.actions.notice('problem', [`"${file.name}" was not imported:`, ...read.problems]);
      return;
    }
    try {
      const summaries = await storeImportedRuns(read.runs);
      this.loadHistory();
      this.deps.history.actions.stored(summaries);
      this.deps.history.actions.notice('ok', [`Imported ${summaries.length === 1 ? '1 run' : `${summaries.length} runs`} from "${file.name}".`, ...read.warnings]);
    } catch (error) {
      this.deps.history.actions.notice('problem', [(error as Error).message]);
    }
  };

  /** Shows two to four stored runs side by side (in place of the trace, until closed). */
  compareStoredRuns = async (runIds: readonly string[]): Promise<void> => {
    if (runIds.length < 2 || runIds.length > MAX_COMPARED) {
      this.deps.history.actions.notice('problem', [`Select two to ${MAX_COMPARED} runs to compare.`]);
      return;
    }
    const read = await Promise.all(runIds.map(this.readRun));
    const compared = read.flatMap((run) => {
      const view = run && foldEvents(null, run.events);
      return run && view ? [{ summary: run.summary, view }] : [];
    });
    if (compared.length === runIds.length) this.deps.compare.actions.show(compared);
  };

  closeComparison = (): void => {
    this.deps.compare.actions.close();
  };

  /**
   * Runs a stored run's task again with the current Setup and preferences: from the start
   * (`throughStep` 0), or going on after step `throughStep` with steps 1..N kept as recorded.
   */
  runAgain = async (runId: string, throughStep: number): Promise<StartOutcome | null> => {
    if (this.deps.run.getState().phase !== 'idle') return 'busy';
    const read = await this.readRun(runId);
    if (!read) return null;
    this.replay.stop();
    if (throughStep === 0) return this.deps.session.startRun(read.summary.task);
    return this.deps.session.startForkedRun(read.summary.task, { parentRunId: runId, throughStep, events: read.events });
  };
}

/** The history flow of a set of stores (appStores.ts's part makes it once). */
export function createHistory(stores: HistoryDeps): History {
  return new History(stores);
}
