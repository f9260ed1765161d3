// Keeps every run this tab starts in the history as it streams: each batch of events the worker
// posts is appended to IndexedDB with the run's summary, in order, so a tab or browser closed
// mid-run loses at most the batch being written. A write that fails (the site's storage is full)
// stops the recording of that run and says so, with how much is used; the run itself goes on.

import type { RunEvent } from '../../workers/engine/events.ts';
import { summarize, type RunSummary } from '../../workers/history/runLog.ts';
import { appendRunEvents } from '../storage/runHistoryDb.ts';
import type { HistoryStore } from './historyStore.ts';

interface Recording {
  seq: number;
  summary: RunSummary | null;
  /** The writes so far, in order. */
  written: Promise<void>;
  failed: boolean;
}

/** The recorder of one set of stores (appStores.ts makes it with the first run's events). */
export class RunRecorder {
  private readonly recordings = new Map<string, Recording>();

  constructor(private readonly history: HistoryStore) {}

  /** Records a batch of events (of one or more runs) as the worker posted it. */
  recordEvents(events: readonly RunEvent[]): void {
    const byRun = new Map<string, RunEvent[]>();
    for (const event of events) {
      const list = byRun.get(event.runId);
      if (list) list.push(event);
      else byRun.set(event.runId, [event]);
    }
    for (const [runId, batch] of byRun) this.record(runId, batch);
  }

  private record(runId: string, batch: RunEvent[]): void {
    const historyActions = this.history.actions;
    let recording = this.recordings.get(runId);
    if (!recording) {
      // Only a run's own start begins its recording (a batch of an unknown run is not this tab's).
      if (batch[0]?.type !== 'run_started') return;
      recording = { seq: 0, summary: null, written: Promise.resolve(), failed: false };
      this.recordings.set(runId, recording);
      historyActions.recordingStarted(runId);
    }
    const current = recording;
    if (current.failed) return;
    current.summary = summarize(current.summary, batch);
    const summary = current.summary;
    if (!summary) return;
    const seq = current.seq++;
    const finished = summary.status === 'finished';
    current.written = current.written
      .then(() => appendRunEvents(runId, seq, batch, summary))
      .then(
        () => historyActions.summaryStored(summary),
        (error: unknown) => {
          current.failed = true;
          void historyActions.recordingFailed(runId, error);
        },
      )
      .finally(() => {
        if (finished) {
          this.recordings.delete(runId);
          historyActions.recordingEnded(runId);
        }
      });
  }

  /** A run that ended without its run_finished (its worker was lost or ended under it): what was
   * recorded stays, and shows as interrupted. */
  abandonRecording(runId: string): void {
    const recording = this.recordings.get(runId);
    if (!recording) return;
    this.recordings.delete(runId);
    void recording.written.finally(() => this.history.actions.recordingEnded(runId));
  }
}
