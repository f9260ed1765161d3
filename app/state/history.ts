// What the History tab's controls do: read the stored runs, open one (as recorded, or as a
// replay), rename, delete, export to a run file and import one. Like session.ts for the live run,
// this is the only place those controls act through; the stores only hold state. One per set of
// stores, made with the History tab (createHistory through appStores.ts's part).

import type { RunEvent } from '../../workers/engine/events.ts';
import type { RunSummary } from '../../workers/history/runLog.ts';
import { taskDomainLabel } from '../../workers/domains/taskDomainNames.ts';
import {
  deleteStoredRuns,
  listStoredRuns,
  readStoredEventBatches,
  readStoredEvents,
  readStoredSummary,
  renameStoredRun,
} from '../../workers/hosts/history/runHistoryDb.ts';
import { importedNotice } from '../worker/runFileImport.ts';
import type { AppStores } from './appStores.ts';
import { MAX_COMPARED } from './compareModel.ts';
import { createReplay, type Replay } from './replay.ts';
import type { StartOutcome } from './session.ts';
import { createSlicedFold, foldInSlices } from './foldInSlices.ts';
import { endRun, type RunView } from './runView.ts';

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

  /** Shows a stored run as it was recorded. Not while a run is live: that one stays on screen. A
   * long run opens step by step: its first steps at once, the rest as its events are read and
   * folded in slices (foldInSlices.ts), the page's thread free between them. */
  openStoredRun = async (runId: string): Promise<void> => {
    const { run, history } = this.deps;
    if (run.getState().phase !== 'idle') return;
    let summary: RunSummary | undefined;
    try {
      summary = await readStoredSummary(runId);
      if (!summary) throw new Error('This run is no longer in your history (deleted in another tab?).');
    } catch (error) {
      history.actions.notice('problem', [(error as Error).message]);
      return;
    }
    const shown = summary;
    this.replay.stop();
    this.deps.compare.actions.close();
    const interrupted = this.isInterrupted(shown);
    run.actions.showStored(null, { summary: shown, mode: 'view', interruptedAtStep: interrupted ? shown.steps : null, reading: true });
    const fold = createSlicedFold((view, complete) => {
      if (run.getState().stored?.summary !== shown) return false;
      run.actions.storedFrame(shown, complete ? recordedView(view, shown, interrupted) : view && { ...view, status: 'finished' }, !complete);
      return true;
    });
    try {
      await readStoredEventBatches(runId, (events) => fold.add(events));
    } catch (error) {
      history.actions.notice('problem', [(error as Error).message]);
    }
    await fold.end();
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

  /** Downloads the runs as one run file, written off the page's thread (keys are never in it: events
   * are redacted as they are recorded, configs have no field for one, and the file is scanned once
   * more before it is saved). */
  exportRuns = async (runIds: readonly string[]): Promise<void> => {
    try {
      const written = await this.deps.platform.exportRunFile(runIds);
      if (!written.ok) throw new Error(written.problem);
      const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
      const keysLeft = await this.deps.session.keysLeftIn(written.file);
      if (keysLeft) {
        this.deps.history.actions.notice('problem', [`The export was not written: ${keysLeft}`]);
        return;
      }
      const { runs, missing } = written;
      this.deps.platform.download(written.file, runs === 1 ? `orchestra-run-${stamp}.json` : `orchestra-runs-${runs}-${stamp}.json`);
      const gone = missing === 0 ? [] : [`Left out ${missing === 1 ? '1 run' : `${missing} runs`} no longer in your history (deleted in another tab?).`];
      this.deps.history.actions.notice('ok', [runs === 1 ? 'Exported 1 run.' : `Exported ${runs} runs.`, ...gone]);
    } catch (error) {
      this.deps.history.actions.notice('problem', [`The export failed: ${(error as Error).message}`]);
    }
  };

  exportAllRuns = async (): Promise<void> => {
    const runs = this.deps.history.getState().runs ?? (await listStoredRuns());
    await this.exportRuns(runs.map((run) => run.id));
  };

  /** Reads a run file off the page's thread, where what it holds is kept in the history (never
   * over a run already kept: a run whose id is taken comes in as a copy). */
  importRunFile = async (file: File): Promise<void> => {
    const { actions } = this.deps.history;
    actions.clearNotice();
    const read = await this.deps.platform.importRunFile(file);
    if (!read.ok) {
      actions.notice('problem', [`"${file.name}" was not imported:`, ...read.problems]);
      return;
    }
    this.loadHistory();
    actions.stored(read.imported.filter((run) => run.as !== 'same').map((run) => run.summary));
    actions.notice('ok', [importedNotice(file.name, read.imported), ...read.warnings]);
  };

  /** Shows two to four stored runs side by side (in place of the trace, until closed). */
  compareStoredRuns = async (runIds: readonly string[]): Promise<void> => {
    if (runIds.length < 2 || runIds.length > MAX_COMPARED) {
      this.deps.history.actions.notice('problem', [`Select two to ${MAX_COMPARED} runs to compare.`]);
      return;
    }
    const read = await Promise.all(runIds.map(this.readRun));
    const compared: Array<{ summary: RunSummary; view: RunView }> = [];
    for (const run of read) {
      const view = run && (await foldInSlices(run.events));
      if (run && view) compared.push({ summary: run.summary, view });
    }
    if (compared.length === runIds.length) this.deps.compare.actions.show(compared);
  };

  closeComparison = (): void => {
    this.deps.compare.actions.close();
  };

  /**
   * Runs a stored run's task again with the current Setup and preferences: from the start
   * (`throughStep` 0), or going on after step `throughStep` with steps 1..N kept as recorded.
   */
  runAgain = async (runId: string, throughStep: number): Promise<StartOutcome | { refused: string } | null> => {
    if (this.deps.run.getState().phase !== 'idle') return 'busy';
    const read = await this.readRun(runId);
    if (!read) return null;
    // A run that played in a domain plays in it again, or not at all.
    const domain = read.events[0]?.type === 'run_started' ? read.events[0].domain : undefined;
    if (domain !== undefined && taskDomainLabel(domain) === undefined) return { refused: missingDomain(domain) };
    this.replay.stop();
    if (throughStep === 0) return this.deps.session.startRun(read.summary.task, { domain });
    return this.deps.session.startForkedRun(read.summary.task, { parentRunId: runId, throughStep, events: read.events }, domain);
  };
}

/** Why a run that played in a domain this playground lacks cannot run again. */
function missingDomain(domain: string): string {
  return `This run played in the domain "${domain}", which this playground does not have (its Domain list offers the built-in, τ²-Bench and ToolScale domains): it cannot run again without that domain.`;
}

/** A stored run as it ends: one cut off (its tab closed mid-run) says where. */
function recordedView(view: RunView | null, summary: RunSummary, interrupted: boolean): RunView | null {
  if (!view || !interrupted) return view;
  return endRun(view, 'aborted', {
    code: 'interrupted',
    message: `Interrupted at step ${summary.steps}: the tab or browser closed before the run finished. Every step recorded until then is here.`,
  });
}

/** The history flow of a set of stores (appStores.ts's part makes it once). */
export function createHistory(stores: HistoryDeps): History {
  return new History(stores);
}
