// What `orchestra eval` prints: progress on stderr while it runs (a redrawn status line on a
// terminal, one line per rollout otherwise), then the results table on stdout (and the --csv and
// --report files); `eval merge` prints the same report.

import { writeFileSync } from 'node:fs';
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
  help: { type: 'boolean', short: 'h' },
} as const;

/** The report's outputs: the table (or the --json line) on stdout, the --csv and --report files. */
export function printReport(report: EvalReport, args: { json?: boolean | undefined; csv?: string | undefined; report?: string | undefined }, io: CliIo): void {
  if (args.csv) writeOutput(args.csv, summaryToCsv(report));
  if (args.report) writeOutput(args.report, `${JSON.stringify(report, null, 2)}\n`);
  if (args.json) io.stdout.write(`${jsonLine(summaryLine(report))}\n`);
  else io.stdout.write(formatEvalTable(terminalValue(report), createStyle(colorWanted(io.stdout, io.env))));
}

export function writeOutput(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new UsageError(`Cannot write "${path}": ${(error as Error).message}.`);
  }
}
