// A batch of tasks from a JSONL file, run with bounded concurrency. Each finished task's summary
// is appended to the output file at once (one write per line), so a crash loses at most the
// tasks in flight; ids already in the output are skipped, so a batch resumes where it stopped.
// An interrupted task is not written, and runs again on resume; so does a task whose line says it
// stopped on an error (a refused key, an outage), and its new line supersedes the old one.

import { appendFileSync } from 'node:fs';
import { MAX_RESULTS_FILE_BYTES, pathExists, readNamedFile } from './files.ts';
import { parseSuite, SuiteError, type SuiteTask } from '../workers/eval/suite.ts';
import { formatDuration, formatUsd } from '../workers/engine/format.ts';
import { oneLine, terminalText, type Style } from './format.ts';
import { NORMAL_STOPS, type RunSummary } from './summary.ts';
import { UsageError } from './usage.ts';

export interface BatchTask {
  id: string;
  task: string;
  /** The expected answer, when the input gives one. */
  answer?: string;
}

export type BatchLine = { id: string; task: string; expected?: string } & RunSummary;

/** Parses the input JSONL, the suite format (`{"id", "task" | "question", "answer"?}` per line; blank
 * lines are skipped). Domains and checks other than the answer need `orchestra eval`. */
export function parseTasksFile(text: string, path: string): BatchTask[] {
  let tasks: SuiteTask[];
  try {
    tasks = parseSuite(text, { source: path, requireCheck: false }).tasks;
  } catch (error) {
    if (error instanceof SuiteError) {
      const [first, ...more] = error.problems;
      throw new UsageError(more.length === 0 ? `${path} ${first}.` : `${path}:\n${error.problems.map((p) => `  - ${p}`).join('\n')}`);
    }
    throw error;
  }
  return tasks.map((task) => {
    if (task.domain !== undefined || (task.check && task.check.kind !== 'exact') || (task.check?.kind === 'exact' && task.check.answer !== task.answer)) {
      throw new UsageError(`${path} line ${task.line}: a domain task or a "check" needs "orchestra eval", which grades them; "run --tasks" compares answers only.`);
    }
    return { id: task.id, task: task.task, ...(task.answer === undefined ? {} : { answer: task.answer }) };
  });
}

/** What an earlier run left in `path`: the ids done (the last line per id wins; a line whose
 * run stopped on an error does not count, so that task runs again), how many of those error
 * lines there are, and whether a crash left the last line without its newline. */
export function readOutput(path: string): { done: Set<string>; retried: number; unterminated: boolean } {
  const done = new Set<string>();
  const failed = new Set<string>();
  if (!pathExists(path)) return { done, retried: 0, unterminated: false };
  const text = readNamedFile(path, 'the results file', { maxBytes: MAX_RESULTS_FILE_BYTES });
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    try {
      const line = JSON.parse(raw) as { id?: unknown; stopReason?: unknown };
      if (typeof line.id !== 'string' && typeof line.id !== 'number') continue;
      const id = String(line.id);
      if (line.stopReason === 'error') {
        done.delete(id);
        failed.add(id);
      } else {
        done.add(id);
        failed.delete(id);
      }
    } catch {
      // A line cut short by a crash: that task runs again.
    }
  }
  return { done, retried: failed.size, unterminated: text.length > 0 && !text.endsWith('\n') };
}

/** Checks the output file can be written before any paid call, finishes a line a crash left
 * without its newline, and returns a writer of whole lines. */
function createAppender(path: string, unterminated: boolean): (line: BatchLine) => void {
  try {
    appendFileSync(path, unterminated ? '\n' : '');
  } catch (error) {
    throw new UsageError(`Cannot write the output file "${path}": ${(error as Error).message}.`);
  }
  return (line) => appendFileSync(path, `${JSON.stringify(line)}\n`);
}

export interface BatchOutcome {
  total: number;
  skipped: number;
  written: number;
  /** Tasks that stopped on an error or a limit (written, with their stop reason), or that
   * failed before they could be summarised (not written). */
  failed: number;
  interrupted: boolean;
}

export interface BatchOptions {
  tasks: BatchTask[];
  outPath: string;
  concurrency: number;
  signal: AbortSignal;
  runOne(task: BatchTask, signal: AbortSignal): Promise<RunSummary>;
  progress: BatchProgress;
}

export async function runBatch(options: BatchOptions): Promise<BatchOutcome> {
  const previous = readOutput(options.outPath);
  const append = createAppender(options.outPath, previous.unterminated);
  const pending = options.tasks.filter((task) => !previous.done.has(task.id));
  const outcome: BatchOutcome = {
    total: options.tasks.length,
    skipped: options.tasks.length - pending.length,
    written: 0,
    failed: 0,
    interrupted: false,
  };
  options.progress.begin(outcome.total, outcome.skipped, previous.retried);
  let next = 0;

  const worker = async () => {
    while (!options.signal.aborted) {
      const task = pending[next++];
      if (!task) return;
      options.progress.started(task);
      let summary: RunSummary;
      try {
        summary = await options.runOne(task, options.signal);
      } catch (error) {
        outcome.failed += 1;
        options.progress.crashed(task, error instanceof Error ? error.message : String(error));
        continue;
      }
      if (summary.stopReason === 'aborted') {
        options.progress.abandoned(task, summary);
        continue;
      }
      append({
        id: task.id,
        task: task.task,
        ...(task.answer === undefined ? {} : { expected: task.answer }),
        ...summary,
      });
      outcome.written += 1;
      if (!NORMAL_STOPS.has(summary.stopReason)) outcome.failed += 1;
      options.progress.finished(task, summary);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, Math.max(1, pending.length)) }, worker));
  outcome.interrupted = options.signal.aborted;
  options.progress.end(outcome);
  return outcome;
}

export interface BatchProgress {
  begin(total: number, skipped: number, retried: number): void;
  started(task: BatchTask): void;
  finished(task: BatchTask, summary: RunSummary): void;
  /** Stopped by Ctrl-C: not written (what it spent still counts). */
  abandoned(task: BatchTask, summary: RunSummary): void;
  /** Threw before it could produce a summary: not written. */
  crashed(task: BatchTask, message: string): void;
  end(outcome: BatchOutcome): void;
}

/** Progress on stderr: a redrawn status line on a terminal, one line per task otherwise. */
export function createProgress(stream: { write(text: string): unknown; isTTY?: boolean }, style: Style): BatchProgress {
  const live = stream.isTTY === true;
  const startedAt = performance.now();
  let total = 0;
  let skipped = 0;
  let finished = 0;
  let running = 0;
  let costUsd = 0;

  const status = () => {
    const doneCount = skipped + finished;
    const remaining = total - doneCount;
    const elapsed = performance.now() - startedAt;
    const eta = finished > 0 && remaining > 0 ? ` · ETA ${formatDuration((elapsed / finished) * remaining)}` : '';
    return `${doneCount}/${total} done · ${formatUsd(costUsd)} so far · ${running} running${eta}`;
  };
  const redraw = () => {
    if (live) stream.write(`\r\u001b[K${status()}`);
  };
  const say = (text: string) => {
    stream.write(live ? `\r\u001b[K${text}\n` : `${text}\n`);
    redraw();
  };

  return {
    begin(count, already, retried) {
      total = count;
      skipped = already;
      const parts = [`${count} tasks`];
      if (already > 0) parts.push(`${already} already in the output: skipping them`);
      if (retried > 0) parts.push(`${retried} that stopped on an error last time run again`);
      say(`${parts.join(', ')}.`);
    },
    started() {
      running += 1;
      redraw();
    },
    finished(task, summary) {
      running -= 1;
      finished += 1;
      costUsd += summary.costUsd;
      const ok = NORMAL_STOPS.has(summary.stopReason);
      const mark = ok ? (summary.correct === false ? style.yellow('✗') : style.green('✓')) : style.red('✗');
      const correctness = summary.correct === undefined ? '' : summary.correct ? ' · correct' : ' · wrong';
      const error = summary.error ? ` · ${oneLine(summary.error, 160)}` : '';
      const line = `${mark} ${terminalText(task.id)} · ${summary.stopReason}${correctness} · ${formatUsd(summary.costUsd)}${error}`;
      if (live) say(line);
      else stream.write(`${line} · ${status()}\n`);
    },
    abandoned(task, summary) {
      running -= 1;
      costUsd += summary.costUsd;
      say(style.yellow(`… ${terminalText(task.id)} · interrupted, not written (it runs again next time)`));
    },
    crashed(task, message) {
      running -= 1;
      say(style.red(`✗ ${terminalText(task.id)} · failed before finishing, not written: ${oneLine(message, 200)}`));
    },
    end(outcome) {
      if (live) stream.write('\r\u001b[K');
      const parts = [`${outcome.written} written`, `${outcome.skipped} skipped`, `${outcome.failed} stopped abnormally`];
      stream.write(
        `${outcome.interrupted ? 'Interrupted: ' : 'Done: '}${parts.join(', ')} · ${formatUsd(costUsd)} · ${formatDuration(performance.now() - startedAt)}\n`,
      );
    },
  };
}
