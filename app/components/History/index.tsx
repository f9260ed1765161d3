// The History tab: every run kept in this browser, newest first — filter, sort, open, replay,
// rename, delete, export and import. The list is virtualised, so 5,000 runs cost what a screenful
// does (docs/benchmarks.md, history).

import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { describeStopReason } from '../../errors/explain.ts';
import { clipTitle, formatCount, formatMs, formatUsd } from '../../format.ts';
import { MAX_COMPARED } from '../../state/compareModel.ts';
import { FileImportButton } from '../FileImportButton/index.tsx';
import { statesAnswer } from '../HumanTurn/compareRuns.ts';
import { useSampleTasks } from '../TaskPanel/useSampleTasks.ts';
import type { RunSummary } from '../../../workers/history/runLog.ts';
import { filterRuns, SORT_LABELS, type Haystacks, type HistorySort } from './historyList.ts';
import './History.css';
import { useHistoryActions, useHistoryStore, usePart, useRunStore } from '../../state/context.tsx';
import { createHistory } from '../../state/history.ts';

const ROW_PX = 124;
/** A row's tooltip: more of the task than its heading holds. */
const MAX_TOOLTIP_CHARS = 1_000;

export function HistoryPanel() {
  const historyFlow = usePart(createHistory);
  const historyActions = useHistoryActions();
  const runs = useHistoryStore((state) => state.runs);
  const loading = useHistoryStore((state) => state.loading);
  const loadProblem = useHistoryStore((state) => state.loadProblem);
  const selected = useHistoryStore((state) => state.selected);
  const busy = useRunStore((state) => state.phase !== 'idle');
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<HistorySort>('newest');
  const deferredQuery = useDeferredValue(query);

  useEffect(() => historyFlow.loadHistory(), [historyFlow]);

  const [haystacks] = useState<Haystacks>(() => new WeakMap());
  const shown = useMemo(() => filterRuns(runs ?? [], deferredQuery, sort, haystacks), [runs, deferredQuery, sort, haystacks]);

  return (
    <section className="panel history-panel" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <p className="panel-hint">Every run is kept in this browser as it streams. Open one to read it, replay it with its recorded timing (no network), or export it as a file.</p>
      <div className="history-toolbar">
        <input
          type="search"
          aria-label="Filter runs"
          placeholder="Filter by task, answer, model…"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <select aria-label="Sort runs" value={sort} onChange={(event) => setSort(event.target.value as HistorySort)}>
          {(Object.keys(SORT_LABELS) as HistorySort[]).map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
      </div>
      <HistoryActions runs={runs} selected={selected} />
      <RecordingProblem />
      <HistoryNotice />
      {loadProblem ? <p role="alert">{loadProblem}</p> : null}
      {runs === null ? (
        <p className="panel-hint">{loading ? 'Reading your history…' : ''}</p>
      ) : runs.length === 0 ? (
        <p className="panel-hint">No runs yet: the first run you start is kept here.</p>
      ) : (
        <>
          <p className="panel-hint history-count" aria-live="polite">
            {loading ? `Showing the newest ${runCount(runs.length)} · reading the rest…` : shown.length === runs.length ? runCount(runs.length) : `${shown.length} of ${runCount(runs.length)}`}
            {selected.length > 0 ? ` · ${selected.length} selected` : ''}
            {selected.length > 0 ? (
              <>
                {' '}
                <button type="button" className="link-button" onClick={() => historyActions.select([])}>
                  Clear selection
                </button>
              </>
            ) : null}
          </p>
          <RunList runs={shown} selected={selected} busy={busy} />
        </>
      )}
    </section>
  );
}

/** Import, export, compare and delete: the whole history or the runs selected. */
function HistoryActions({ runs, selected }: { runs: RunSummary[] | null; selected: string[] }) {
  const historyFlow = usePart(createHistory);
  const deleteSelected = () => {
    const count = selected.length;
    if (count > 0 && window.confirm(`Delete ${count === 1 ? 'this run' : `these ${count} runs`} from your history? This cannot be undone.`)) {
      void historyFlow.deleteRuns(selected);
    }
  };
  return (
    <div className="history-toolbar">
      <FileImportButton
        label="Import runs…"
        busyLabel="Importing…"
        accept=".json,application/json"
        inputLabel="Run file to import"
        testId="history-import-input"
        onFile={historyFlow.importRunFile}
      />
      <button type="button" onClick={() => void historyFlow.exportAllRuns()} disabled={!runs || runs.length === 0}>
        Export all
      </button>
      <button type="button" onClick={() => void historyFlow.exportRuns(selected)} disabled={selected.length === 0}>
        Export selected
      </button>
      <button
        type="button"
        onClick={() => void historyFlow.compareStoredRuns(selected)}
        disabled={selected.length < 2 || selected.length > MAX_COMPARED}
        title={`Select two to ${MAX_COMPARED} runs`}
      >
        Compare{selected.length >= 2 ? ` ${selected.length}` : ''}
      </button>
      <button type="button" className="danger" onClick={deleteSelected} disabled={selected.length === 0}>
        Delete selected
      </button>
    </div>
  );
}

/** The outcome of the last import, export or delete, until dismissed. */
function HistoryNotice() {
  const historyActions = useHistoryActions();
  const notice = useHistoryStore((state) => state.notice);
  if (!notice) return null;
  return (
      <div className={`history-notice ${notice.kind}`} role={notice.kind === 'problem' ? 'alert' : 'status'}>
        {notice.lines.map((line, index) => (
          <p key={index}>{line}</p>
        ))}
        <button type="button" className="link-button" onClick={historyActions.clearNotice}>
          Dismiss
        </button>
      </div>
  );
}

function RecordingProblem() {
  const problem = useHistoryStore((state) => state.recordingProblem);
  return problem ? (
    <p className="history-notice problem" role="alert">
      {problem}
    </p>
  ) : null;
}

function RunList({ runs, selected, busy }: { runs: RunSummary[]; selected: string[]; busy: boolean }) {
  const scroller = useRef<HTMLDivElement>(null);
  // A run of a sample task is checked against that task's answer, as Compare checks it.
  const samples = useSampleTasks();
  const answers = useMemo(
    () => new Map(samples.status === 'ready' ? samples.tasks.map((task) => [task.question, task.answer] as const) : []),
    [samples],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer re-renders this component itself
  const virtualizer = useVirtualizer({ count: runs.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_PX, overscan: 6 });
  return (
    <div ref={scroller} className="history-list" role="list" aria-label="Stored runs">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const run = runs[item.index]!;
          return (
            <div key={run.id} role="listitem" className="history-row-slot" style={{ transform: `translateY(${item.start}px)`, height: ROW_PX }}>
              <RunRow run={run} selected={selected.includes(run.id)} busy={busy} reference={answers.get(run.task.trim()) ?? null} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

function runCount(count: number): string {
  return count === 1 ? '1 run' : `${formatCount(count)} runs`;
}

function statusOf(run: RunSummary, recording: boolean): string {
  if (run.status === 'running') return recording ? 'Recording…' : `Interrupted at step ${run.steps}`;
  return run.stopReason ? describeStopReason(run.stopReason) : 'Finished';
}

function preferenceOf(run: RunSummary): string {
  if (run.preset) return run.preset;
  if (!run.preference) return 'no preference';
  const { outcome, cost, latency } = run.preference;
  return `outcome ${outcome} · cost ${cost} · latency ${latency}`;
}

/** Whether a finished run stated its sample task's answer; nothing for other tasks. */
function Verdict({ run, reference }: { run: RunSummary; reference: string | null }) {
  if (reference === null || run.status === 'running') return null;
  return statesAnswer(run.answer, reference) ? (
    <span className="history-verdict correct"> · ✓ correct</span>
  ) : (
    <span className="history-verdict wrong" title={`The sample answer is ${reference}`}>
      {' '}
      · ✗ not the sample answer
    </span>
  );
}

function RunRow({ run, selected, busy, reference }: { run: RunSummary; selected: boolean; busy: boolean; reference: string | null }) {
  const historyFlow = usePart(createHistory);
  const historyActions = useHistoryActions();
  const recording = useHistoryStore((state) => state.recording.includes(run.id));
  const shownId = useRunStore((state) => state.stored?.summary.id ?? null);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(run.name ?? '');
  // A task may be 50,000 characters (one an earlier version stored, any length): a heading, a
  // tooltip and a label hold a line of it.
  const title = clipTitle(run.name ?? run.task);
  const interrupted = !recording && historyFlow.isInterrupted(run);
  const when = new Date(run.startedAt);

  return (
    <article className={`history-row${shownId === run.id ? ' shown' : ''}`} aria-label={title} data-run-id={run.id}>
      <div className="history-row-head">
        <input type="checkbox" aria-label={`Select "${title}"`} checked={selected} onChange={() => historyActions.toggle(run.id)} />
        {renaming ? (
          <form
            className="history-rename"
            onSubmit={(event) => {
              event.preventDefault();
              setRenaming(false);
              void historyFlow.renameRun(run.id, name);
            }}
          >
            <input aria-label="Run name" value={name} maxLength={200} autoFocus onChange={(event) => setName(event.target.value)} />
            <button type="submit">Save</button>
            <button type="button" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <h3 className="history-title" title={clipTitle(run.task, MAX_TOOLTIP_CHARS)}>
            {title}
          </h3>
        )}
      </div>
      <p className="history-meta">
        <time dateTime={run.startedAt}>{when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time> · {run.protocol} ·{' '}
        {run.orchestratorModel} · {preferenceOf(run)}
        {run.parent ? ` · forked from step ${run.parent.step}` : ''}
      </p>
      <p className="history-meta">
        <span className={`history-status${interrupted ? ' interrupted' : ''}`}>{statusOf(run, recording)}</span> · {formatCount(run.steps)}{' '}
        {run.steps === 1 ? 'step' : 'steps'} · {formatUsd(run.costUsd)} · {formatMs(run.latencyMs)}
        <Verdict run={run} reference={reference} />
        {run.answer ? <span className="history-answer"> · {run.answer.slice(0, 120)}</span> : null}
      </p>
      <div className="history-actions">
        <button type="button" disabled={busy} onClick={() => void historyFlow.openStoredRun(run.id)}>
          Open
        </button>
        <button type="button" disabled={busy} onClick={() => void historyFlow.replayStoredRun(run.id)}>
          Replay
        </button>
        <button type="button" onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button type="button" onClick={() => void historyFlow.exportRuns([run.id])}>
          Export
        </button>
        <button
          type="button"
          className="danger"
          disabled={recording}
          onClick={() => {
            if (window.confirm(`Delete "${clipTitle(title, 80)}" from your history?`)) void historyFlow.deleteRuns([run.id]);
          }}
        >
          Delete
        </button>
      </div>
    </article>
  );
}
