// What `orchestra eval` prints: progress on stderr while it runs (a redrawn status line on a
// terminal, one line per rollout otherwise), then the results table on stdout (and the --csv and
// --report files); `eval merge` prints the same report.

import { accessSync, constants, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathExists, sameFile } from './files.ts';
import { formatDuration, formatPercent, formatSeconds, formatUsd } from '../workers/engine/format.ts';
import { summaryLine, summaryToCsv, type EvalReport, type EvalSummary, type PolicySummary } from '../workers/eval/results.ts';
import type { EvalProgress, EvalProgressEvent } from '../workers/eval/runner.ts';
import { colorWanted, createStyle, jsonLine, oneLine, terminalValue, type Style } from './format.ts';
import type { CliIo } from './io.ts';
import { UsageError } from './usage.ts';


function status(progress: EvalProgress): string {
  const done = progress.skipped + progress.finished;
  const accuracy = progress.graded === 0 ? '—' : `${formatPercent(progress.correct / progress.graded)} (${progress.correct}/${progress.graded})`;
  const eta = progress.etaMs !== null && progress.etaMs >= 1000 ? ` · ${formatDuration(progress.etaMs)} left` : '';
  return `${done}/${progress.total} rollouts · accuracy ${accuracy} · ${formatUsd(progress.spentUsd)} spent · ${progress.running} running${eta}`;
}

/** Prints progress events to `stream`. */
export function createEvalProgress(stream: { write(text: string): unknown; isTTY?: boolean }, style: Style): (event: EvalProgressEvent) => void {
  const live = stream.isTTY === true;
  const say = (text: string, progress: EvalProgress) => {
    if (live) stream.write(`\r\u001b[K${text}\n${status(progress)}`);
    else stream.write(`${text}\n`);
  };
  return (untrusted) => {
    // Names and verdicts come from the suite, the policies and the models: printed as text.
    const event = terminalValue(untrusted);
    switch (event.type) {
      case 'started': {
        const { total, skipped } = event.progress;
        const parts = [`${total} rollouts`];
        if (skipped > 0) parts.push(`${skipped} already in the results file: skipping them`);
        if (event.retried > 0) parts.push(`${event.retried} that stopped on an error last time run again`);
        say(`${parts.join(', ')}.`, event.progress);
        return;
      }
      case 'rollout_finished': {
        const { record, progress } = event;
        const mark = record.verdict.failed ? style.red('!') : record.correct ? style.green('✓') : style.yellow('✗');
        const stop = record.stopReason === 'answered' || record.stopReason === 'final_message' ? '' : ` · ${record.stopReason}`;
        const line = `${mark} ${record.policy} · ${record.taskId} #${record.rollout}${stop} · ${formatUsd(record.costUsd)} · ${oneLine(`${record.verdict.check}: ${record.verdict.reason}`, 200)}`;
        if (live) say(line, progress);
        else stream.write(`${line} · ${status(progress)}\n`);
        return;
      }
      case 'rollout_abandoned':
        say(style.yellow(`… ${event.key.policy} · ${event.key.taskId} #${event.key.rollout} · interrupted, not recorded (it runs again next time)`), event.progress);
        return;
      case 'rollout_crashed':
        say(style.red(`✗ ${event.key.policy} · ${event.key.taskId} #${event.key.rollout} · could not start, not recorded: ${oneLine(event.message, 200)}`), event.progress);
        return;
      case 'budget_reached':
        say(style.yellow(`Budget reached (${formatUsd(event.progress.spentUsd)} spent): no new rollout starts; those running finish.`), event.progress);
        return;
    }
  };
}

/** The last words of the progress stream. */
export function formatEvalEnd(outcome: { progress: EvalProgress; interrupted: boolean; budgetReached: boolean; missing: number }): string {
  const { progress } = outcome;
  const head = outcome.interrupted ? 'Interrupted' : outcome.budgetReached ? 'Stopped at the budget' : 'Done';
  const missing = outcome.missing > 0 ? `, ${outcome.missing} not run` : '';
  return `${head}: ${progress.finished} rollouts run, ${progress.skipped} skipped${missing} · ${formatUsd(progress.spentUsd)} · ${formatDuration(progress.elapsedMs)}\n`;
}

function topShares(shares: Record<string, number>, count: number): string {
  const entries = Object.entries(shares);
  if (entries.length === 0) return '—';
  const shown = entries.slice(0, count).map(([key, share]) => `${key} ${Math.round(share * 100)}%`);
  return entries.length > count ? `${shown.join(', ')}, …` : shown.join(', ');
}

function row(p: PolicySummary): string[] {
  const interval = `${formatPercent(p.accuracy)} (${formatPercent(p.accuracyLow)}–${formatPercent(p.accuracyHigh)})`;
  const unknown = p.unknownCostEntries > 0 ? ` +${p.unknownCostEntries} unpriced` : '';
  return [
    `${p.pareto ? '★ ' : '  '}${p.name}`,
    `${p.rollouts}`,
    interval,
    `${formatUsd(p.costUsd)}${p.hasEstimates ? '~' : ''}${unknown}`,
    formatSeconds(p.latencyMs),
    p.costPerCorrect === null ? '—' : formatUsd(p.costPerCorrect),
    topShares(p.toolShares, 3),
  ];
}

/** pass^1…pass^K per policy, when some policy has two rollouts of every task or more. */
function passHatKLines(policies: readonly PolicySummary[]): string[] {
  const most = Math.max(0, ...policies.map((p) => p.passHatK?.length ?? 0));
  if (most < 2) return [];
  const width = Math.max(...policies.map((p) => p.name.length));
  return [
    '',
    `  pass^1…pass^${most} (τ²: the chance that k rollouts of a task are all right, averaged over tasks)`,
    ...policies.map((p) => `    ${p.name.padEnd(width)}  ${(p.passHatK ?? []).map((value) => formatPercent(value).padStart(6)).join('  ') || '—'}`),
  ];
}

/** τ²'s criteria per policy: passed / failed / not graded, over the rollouts graded by them. */
function criterionLines(policies: readonly PolicySummary[]): string[] {
  const graded = policies.filter((p) => p.criteria !== undefined);
  if (graded.length === 0) return [];
  const width = Math.max(...graded.map((p) => p.name.length));
  return [
    '',
    '  τ² criteria (passed / failed / not graded, over rollouts)',
    ...graded.map(
      (p) =>
        `    ${p.name.padEnd(width)}  ${Object.entries(p.criteria ?? {})
          .map(([name, s]) => `${name} ${s.passed}/${s.failed}/${s.notGraded}`)
          .join('  ')}${p.userCostUsd === undefined ? '' : `  (simulated user: ${formatUsd(p.userCostUsd)}, not in the reward's cost)`}`,
    ),
  ];
}

/** The results table: one row per policy, then what the columns mean. */
export function formatEvalTable(summary: EvalSummary, style: Style): string {
  const header = ['  Policy', 'Rollouts', 'Accuracy (95% CI)', 'Cost/task', 'Latency', 'Cost/correct', 'Tool calls'];
  const rows = summary.policies.map(row);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  const lines = [
    style.bold(format(header)),
    ...rows.map(format),
    '',
    ...summary.policies.map((p) => `  ${p.name}: ${p.label}${p.failedChecks > 0 ? ` — ${p.failedChecks} check(s) could not run` : ''}${p.abnormalStops > 0 ? ` — ${p.abnormalStops} stopped abnormally` : ''}`),
    ...passHatKLines(summary.policies),
    ...criterionLines(summary.policies),
    '',
    `★ on the Pareto front of cost and accuracy${summary.pareto.length > 0 ? ` (cheapest first: ${summary.pareto.join(' → ')})` : ''}. Accuracy: correct rollouts over rollouts, with the 95% Wilson interval. Cost/task includes grading (judge calls); ~ marks estimates.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The flags of a command that writes a results file and prints its report (eval, eval merge). */
export const REPORT_OPTIONS = {
  out: { type: 'string' },
  json: { type: 'boolean' },
  csv: { type: 'string' },
  report: { type: 'string' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface ReportArgs {
  json?: boolean | undefined;
  csv?: string | undefined;
  report?: string | undefined;
  force?: boolean | undefined;
}

/** The report's files, by flag. */
const reportFiles = (args: ReportArgs): Array<[string, string]> =>
  ([['--csv', args.csv], ['--report', args.report]] as const).flatMap(([flag, path]) => (path === undefined ? [] : [[flag, path] as [string, string]]));

/**
 * Refuses, before anything runs or is written, a --csv or --report file that is one of the
 * command's `inputs` (a results file to merge, the --out file, the config, the suite: never, even
 * with --force), the other report file, or a file already there (unless --force), or one that
 * could not be written.
 */
export function checkReportFiles(args: ReportArgs, inputs: readonly string[]): void {
  const files = reportFiles(args);
  for (const [index, [flag, path]] of files.entries()) {
    const input = inputs.find((other) => sameFile(path, other));
    if (input !== undefined) throw new UsageError(`${flag} "${path}" is "${input}", which this command reads: write the ${flag.slice(2)} to another file.`);
    const other = files.slice(index + 1).find(([, next]) => sameFile(path, next));
    if (other) throw new UsageError(`${flag} and ${other[0]} are the same file "${path}": give each its own.`);
    if (pathExists(path) && !args.force) throw new UsageError(`${flag} "${path}" already exists: give a new file, or add --force to replace it.`);
    try {
      accessSync(pathExists(path) ? path : dirname(resolve(path)), constants.W_OK);
    } catch (error) {
      throw new UsageError(`Cannot write ${flag} "${path}": ${(error as Error).message}.`);
    }
  }
}

/** The report's outputs: the table (or the --json line) on stdout, the --csv and --report files
 * (checked by checkReportFiles first; written only where nothing is, unless --force). */
export function printReport(report: EvalReport, args: ReportArgs, io: CliIo): void {
  const force = args.force === true;
  if (args.csv) writeOutput(args.csv, summaryToCsv(report), force);
  if (args.report) writeOutput(args.report, `${JSON.stringify(report, null, 2)}\n`, force);
  if (args.json) io.stdout.write(`${jsonLine(summaryLine(report))}\n`);
  else io.stdout.write(formatEvalTable(terminalValue(report), createStyle(colorWanted(io.stdout, io.env))));
}

function writeOutput(path: string, text: string, force: boolean): void {
  try {
    writeFileSync(path, text, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    throw new UsageError(exists ? `"${path}" appeared while the command ran; it was not replaced (add --force to replace it).` : `Cannot write "${path}": ${(error as Error).message}.`);
  }
}
