// The readable live trace of a run: step headers, the orchestrator's streamed text (dimmed and
// compact), each tool call with alias → model and arguments, shortened results, per-step and
// cumulative cost, retries and errors in plain words, and a final block.

import type { LedgerEntry, RunEvent, RunEventOf, StopReason, ToolCounts } from '../workers/engine/events.ts';
import { formatCount, formatSeconds, formatUsd } from '../workers/engine/format.ts';
import { jsonLine, oneLine, terminalValue, type Style } from './format.ts';
import type { RunResult } from '../workers/engine/run.ts';
import { createRunWatcher, summarizeRun, type GroupSummary, type RunSummary } from './summary.ts';

/** How much of the orchestrator's streamed text a step shows before "…". */
const STREAM_CHARS = 320;
const RESULT_CHARS = 200;
const ARGUMENT_CHARS = 160;

export interface TraceWriter {
  write(text: string): void;
}

const STOP_WORDS: Record<StopReason, string> = {
  answered: 'answered (the answer tool gave the final answer)',
  final_message: 'final message (the orchestrator replied without calling a tool)',
  max_turns: 'turn limit reached',
  max_cost: 'cost limit reached',
  max_time: 'time limit reached',
  aborted: 'stopped by the user',
  invalid_output: 'the orchestrator kept producing output with no valid tool call',
  error: 'error',
};

const ERROR_WORDS: Record<string, string> = {
  auth: 'Authentication failed',
  rate_limit: 'Rate limited',
  server: 'The server failed',
  network: 'Could not reach the server',
  timeout: 'Timed out',
  cors: 'Blocked by CORS',
  not_found: 'Not found',
  bad_request: 'The request was rejected',
  context_length: 'Too long for the model',
  bad_response: 'The server sent something unreadable',
  invalid_output: 'No valid tool call',
};

export function describeStop(reason: StopReason): string {
  return STOP_WORDS[reason];
}

/** The lines that open a run's trace: the task, how it runs and under which limits. */
function runHeader(event: RunEventOf<'run_started'>, style: Style): string[] {
  const limits = [
    `${event.limits.maxTurns} turns`,
    event.limits.maxCostUsd === null ? null : `${formatUsd(event.limits.maxCostUsd)} max`,
    event.limits.maxWallMs === null ? null : `${formatSeconds(event.limits.maxWallMs)} max`,
  ].filter(Boolean);
  return [
    style.bold(`Task: ${oneLine(event.task, 400)}`),
    style.dim(
      `${event.protocol} protocol · orchestrator ${event.orchestratorModel} · tools ${event.tools.map((t) => t.name).join(', ')} · ` +
        `limits ${limits.join(', ')} · prices as of ${event.pricingAsOf}`,
    ),
    ...(event.orchestratorNotice ? [style.bold(`${event.orchestratorNotice}.`)] : []),
    ...(event.instruction ? [style.dim(event.instruction)] : []),
  ];
}

/** Prints events as they arrive. One printer per run. */
export function createTracePrinter(out: TraceWriter, style: Style): (event: RunEvent) => void {
  let streamed = 0;
  let streaming = false;
  const endStream = () => {
    if (streaming) out.write('\n');
    streaming = false;
  };
  const line = (text: string) => {
    endStream();
    out.write(`${text}\n`);
  };

  return (event) => {
    switch (event.type) {
      case 'run_started':
        for (const text of runHeader(event, style)) line(text);
        break;
      case 'step_started':
        streamed = 0;
        line(`\n${style.bold(`── Step ${event.step} ──`)}`);
        break;
      case 'reasoning_delta':
      case 'content_delta':
        // Text with a callId is an expert's; only the orchestrator's streams.
        if (event.callId === undefined) streamText(event.text);
        break;
      case 'model_output':
        for (const rejected of event.rejected) line(style.yellow(`  ! rejected: ${oneLine(rejected.reason, RESULT_CHARS)}`));
        break;
      case 'tool_call':
        line(`  ${style.cyan('→')} ${style.bold(event.name)}${describeTarget(event)} ${style.dim(oneLine(JSON.stringify(event.arguments), ARGUMENT_CHARS))}`);
        break;
      case 'tool_result': {
        const mark = event.ok ? style.green('✓') : style.red('✗');
        const text = event.ok ? event.content : (event.error ?? event.content);
        line(`    ${mark} ${oneLine(text, RESULT_CHARS) || style.dim('(empty)')} ${style.dim(`(${formatSeconds(event.latencyMs)})`)}`);
        break;
      }
      case 'usage':
        line(style.dim(`    ${describeEntry(event.entry)}`));
        break;
      case 'retry':
        line(style.yellow(`    ⟳ ${event.reason}, retrying in ${formatSeconds(event.waitMs)} (retry ${event.attempt})`));
        break;
      case 'error': {
        const words = ERROR_WORDS[event.code] ?? 'Error';
        const text = `${words}: ${event.message}`;
        line(event.fatal ? style.red(`  ✗ ${text}`) : style.yellow(`  ! ${text}`));
        break;
      }
      case 'step_finished':
        line(
          style.dim(
            `  step ${formatUsd(event.costUsd)} · total ${formatUsd(event.cumulativeUsd)} · ${formatSeconds(event.latencyMs)}`,
          ),
        );
        break;
      case 'run_finished':
      case 'model_request':
        endStream();
        break;
    }
  };

  function streamText(text: string) {
    if (streamed >= STREAM_CHARS) return;
    let flat = text.replace(/\s+/g, ' ');
    if (!streaming) flat = flat.trimStart();
    if (!flat) return;
    const room = STREAM_CHARS - streamed;
    const piece = flat.length > room ? `${flat.slice(0, room)}…` : flat;
    streamed += flat.length;
    out.write(style.dim(streaming ? piece : `  ${piece}`));
    streaming = true;
  }
}

export interface RunPrinter {
  onEvent(event: RunEvent): void;
  /** Once the run has finished: its summary, and in the trace its result block. The summary
   * line of --json is the caller's to print (rollouts end with the group's). */
  finish(result: RunResult, extra: { counterfactualModel: string | undefined; expected?: string }): RunSummary;
}

/** How `run` prints a run as it goes and `replay` prints a recorded one: the trace, or with
 * `json` the events, one JSON line each. Every string of an event (a model's reply, a run file's
 * anything) reaches the terminal as text, its control characters written out (terminalValue). */
export function createRunPrinter(out: TraceWriter, style: Style, json: boolean): RunPrinter {
  const watcher = createRunWatcher();
  const trace = json ? null : createTracePrinter(out, style);
  return {
    onEvent(event) {
      watcher.onEvent(event);
      if (trace) trace(terminalValue(event));
      else out.write(`${jsonLine(event)}\n`);
    },
    finish(result, extra) {
      const summary = summarizeRun(result, { ...extra, error: watcher.fatalError() });
      if (!json) out.write(formatResultBlock(terminalValue(summary), style));
      return summary;
    },
  };
}

/** The line above each of several runs printed one after another. */
export function formatRunHeader(label: string, style: Style): string {
  return `\n${style.bold(`━━ ${label} ━━`)}\n`;
}

function describeTarget(event: RunEventOf<'tool_call'>): string {
  if (event.alias && event.model) return ` ${event.alias} → ${event.model}`;
  if (event.alias) return ` ${event.alias}`;
  return '';
}

function describeEntry(entry: LedgerEntry): string {
  const cost = entry.usd === null ? 'price unknown' : `${formatUsd(entry.usd)}${entry.basis === 'estimated' ? ' (estimate)' : ''}`;
  if (entry.kind === 'code') {
    const startup = entry.startup ? ` (+ ${formatSeconds(entry.startup.ms)} ${entry.startup.sandbox} start-up)` : '';
    return `python ${formatSeconds(entry.latencyMs - (entry.startup?.ms ?? 0))}${startup} · ${cost}`;
  }
  if (entry.kind === 'search') return `search · ${cost}`;
  if (entry.kind === 'tool') return `${entry.tool ?? 'tool'} · ${cost}`;
  const who = entry.kind === 'orchestrator' ? 'orchestrator' : (entry.alias ?? 'expert');
  const tokens = entry.usage
    ? ` ${formatCount(entry.usage.promptTokens)} in / ${formatCount(entry.usage.completionTokens)} out tokens`
    : '';
  return `${who} ${entry.model ?? ''}${tokens} · ${cost}`;
}

export function describeToolCounts(counts: ToolCounts): string {
  const tools = Object.entries(counts.tools);
  if (tools.length === 0) return 'none';
  return tools.map(([tool, n]) => `${tool} ×${n}`).join(', ') + describeAliases(counts.aliases);
}

function describeAliases(aliases: Record<string, number>): string {
  const entries = Object.entries(aliases);
  return entries.length === 0 ? '' : ` (${entries.map(([alias, n]) => `${alias} ×${n}`).join(', ')})`;
}

/** The cost as people should read it: estimates and unknown prices said out loud. */
export function describeCost(summary: Pick<RunSummary, 'costUsd' | 'hasEstimates' | 'unknownCostEntries'>): string {
  let text = formatUsd(summary.costUsd);
  if (summary.hasEstimates) text += ' (estimate: some figures are estimated)';
  if (summary.unknownCostEntries > 0) {
    const n = summary.unknownCostEntries;
    text += ` + ${n} ${n === 1 ? 'call' : 'calls'} with an unknown price, not counted`;
  }
  return text;
}

export function formatResultBlock(summary: RunSummary, style: Style): string {
  const rows: Array<[string, string]> = [
    ['Answer', summary.answer === null ? style.dim('(none)') : style.bold(summary.answer)],
    ['Stop reason', describeStop(summary.stopReason)],
  ];
  if (summary.error) rows.push(['Error', style.red(summary.error)]);
  if (summary.correct !== undefined) rows.push(['Correct', summary.correct ? style.green('yes') : style.red('no')]);
  rows.push(['Cost', describeCost(summary)]);
  rows.push([
    'Counterfactual',
    summary.counterfactualUsd === null
      ? 'unknown (a price it needs is missing)'
      : `${formatUsd(summary.counterfactualUsd)} had every expert call used ${summary.counterfactualModel ?? 'the strongest model'}`,
  ]);
  rows.push(['Latency', `${formatSeconds(summary.latencyMs)} (tools ${formatSeconds(summary.toolLatencyMs)})`]);
  rows.push(['Turns', String(summary.turns)]);
  rows.push(['Tools', describeToolCounts(summary.toolCounts)]);
  rows.push(['Tokens', `${formatCount(summary.promptTokens)} in · ${formatCount(summary.completionTokens)} out`]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [`\n${style.bold('── Result ──')}`, ...rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`)].join('\n') + '\n';
}

export function formatGroupBlock(group: GroupSummary, style: Style): string {
  const lines = [`\n${style.bold(`── ${group.rollouts.length} rollouts ──`)}`];
  const header = ['#', 'answer', 'correct', 'cost', 'latency', 'stop', 'reward', 'advantage'];
  const rows = group.rollouts.map((rollout, i) => [
    String(i + 1),
    oneLine(rollout.answer ?? '(none)', 30),
    rollout.correct === null ? '?' : rollout.correct ? 'yes' : 'no',
    formatUsd(rollout.costUsd),
    formatSeconds(rollout.latencyMs),
    rollout.stopReason,
    group.rewards ? (group.rewards[i] ?? 0).toFixed(3) : '-',
    group.advantages ? (group.advantages[i] ?? 0).toFixed(3) : '-',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const render = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  lines.push(style.dim(render(header)), ...rows.map(render));
  if (group.rewardNote) {
    lines.push(style.yellow(group.rewardNote));
  } else if (group.std !== null && group.mean !== null) {
    lines.push(
      `mean reward ${group.mean.toFixed(3)} · std ${group.std.toFixed(3)}` +
        (group.lowSpread ? style.yellow(' · low spread (std ≤ 0.1): the paper drops such groups from training') : '') +
        (group.tooSmall ? style.yellow(' · fewer than 3 rollouts') : ''),
    );
    if (group.skippedFeatures && group.skippedFeatures.length > 0) {
      lines.push(style.dim(`features with no spread, left out: ${group.skippedFeatures.join(', ')}`));
    }
  }
  lines.push(`total cost ${describeCost(group)} · wall time ${formatSeconds(group.latencyMs)}`);
  return lines.join('\n') + '\n';
}
