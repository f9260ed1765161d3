// What the cost panel shows, derived from the run's ledger alone. The ledger only changes on
// `usage` events, so everything computed from it (and the chart drawn from it) stays put while
// reasoning and content deltas stream in.

import type { LedgerEntry, LedgerKind } from '../../../workers/engine/events.ts';
import { formatUsd } from '../../format.ts';

/** One bar of the per-step chart. */
export interface StepCostPoint {
  step: number;
  /** Known cost of the step (entries with an unknown price are not in it). */
  usd: number;
  /** Known cost of the run up to the end of this step. */
  cumulativeUsd: number;
  /** Entries of this step whose price is unknown. */
  unknownEntries: number;
  /** Entries up to the end of this step whose price is unknown. */
  cumulativeUnknownEntries: number;
  /** Some figure inside `usd` is an estimate. */
  estimated: boolean;
}

/** One row of the "by tool or alias" table and chart. */
export interface ToolCostRow {
  /** The alias, else the tool, else the kind of entry (`orchestrator`, `search`, `code`…). */
  label: string;
  kind: LedgerKind;
  /** Ledger entries charged to it (a call can make more than one). */
  entries: number;
  /** Known cost; null when every entry's price is unknown. */
  usd: number | null;
  unknownEntries: number;
  estimated: boolean;
  /** Sum of the entries' latencies. */
  latencyMs: number;
}

export interface TokenTotals {
  prompt: number;
  completion: number;
  /** Prompt tokens served from a provider's cache (a subset of `prompt`). */
  cachedPrompt: number;
  /** Reasoning tokens (a subset of `completion`). */
  reasoning: number;
  /** Some of these tokens were counted by us, not reported by the provider. */
  estimated: boolean;
}

export interface LedgerSummary {
  /** Sum of every known cost. */
  knownUsd: number;
  entries: number;
  unknownEntries: number;
  /** Some figure inside `knownUsd` is an estimate. */
  hasEstimates: boolean;
  tokens: TokenTotals;
  /** The engine's counterfactual computed over the entries so far: expert calls repriced at the
   * strongest configured model, everything else as it was. Null when any figure is unknown. */
  counterfactualUsd: number | null;
}

export function labelOf(entry: LedgerEntry): string {
  return entry.alias ?? entry.tool ?? entry.kind;
}

/** Cost per step and cumulative, in step order. */
export function stepCostSeries(ledger: readonly LedgerEntry[]): StepCostPoint[] {
  const byStep = new Map<number, StepCostPoint>();
  for (const entry of ledger) {
    const point = byStep.get(entry.step) ?? { step: entry.step, usd: 0, cumulativeUsd: 0, unknownEntries: 0, cumulativeUnknownEntries: 0, estimated: false };
    if (entry.usd === null) point.unknownEntries += 1;
    else {
      point.usd += entry.usd;
      if (entry.basis === 'estimated') point.estimated = true;
    }
    byStep.set(entry.step, point);
  }
  let cumulative = 0;
  let cumulativeUnknown = 0;
  return [...byStep.values()]
    .sort((a, b) => a.step - b.step)
    .map((point) => {
      cumulative += point.usd;
      cumulativeUnknown += point.unknownEntries;
      return { ...point, cumulativeUsd: cumulative, cumulativeUnknownEntries: cumulativeUnknown };
    });
}

export interface ChartPoint {
  /** "7", or "41–60" for a bin of steps. */
  label: string;
  /** The bin's first and last step (the same for one step). */
  first: number;
  last: number;
  usd: number;
  cumulativeUsd: number;
}

/**
 * The per-step series for the chart, with long runs grouped into at most `maxBars` bins of
 * consecutive steps (a bin's cost is the sum of its steps). A chart with one bar per step costs
 * time in proportion to the steps on every update: 500 bars made each update a long task.
 */
export function chartSeries(points: readonly StepCostPoint[], maxBars = 60): ChartPoint[] {
  if (points.length <= maxBars) {
    return points.map((point) => ({ label: String(point.step), first: point.step, last: point.step, usd: point.usd, cumulativeUsd: point.cumulativeUsd }));
  }
  const perBin = Math.ceil(points.length / maxBars);
  const bins: ChartPoint[] = [];
  for (let start = 0; start < points.length; start += perBin) {
    const bin = points.slice(start, start + perBin);
    const first = bin[0];
    const last = bin.at(-1);
    if (!first || !last) continue;
    bins.push({
      label: first.step === last.step ? String(first.step) : `${first.step}–${last.step}`,
      first: first.step,
      last: last.step,
      usd: bin.reduce((sum, point) => sum + point.usd, 0),
      cumulativeUsd: last.cumulativeUsd,
    });
  }
  return bins;
}

/** Cost, entries and time per alias / tool / kind, costliest first (unknown costs last). */
export function costByTool(ledger: readonly LedgerEntry[]): ToolCostRow[] {
  const rows = new Map<string, ToolCostRow>();
  for (const entry of ledger) {
    const label = labelOf(entry);
    const row = rows.get(label) ?? { label, kind: entry.kind, entries: 0, usd: null, unknownEntries: 0, estimated: false, latencyMs: 0 };
    row.entries += 1;
    row.latencyMs += entry.latencyMs;
    if (entry.usd === null) row.unknownEntries += 1;
    else {
      row.usd = (row.usd ?? 0) + entry.usd;
      if (entry.basis === 'estimated') row.estimated = true;
    }
    rows.set(label, row);
  }
  return [...rows.values()].sort((a, b) => (b.usd ?? -1) - (a.usd ?? -1) || a.label.localeCompare(b.label));
}

/** A τ² conversation's known cost split: the simulated user's turns apart from the agent's
 * (orchestrator, experts, tools), as the reward's cost counts the agent's alone. Null when the
 * ledger has no user entry (a scripted user is never charged). */
export function userCostSplit(ledger: readonly LedgerEntry[]): { agentUsd: number; agentUnknown: number; userUsd: number; userUnknown: number } | null {
  let agentUsd = 0;
  let agentUnknown = 0;
  let userUsd = 0;
  let userUnknown = 0;
  let users = 0;
  for (const entry of ledger) {
    if (entry.kind !== 'user') {
      if (entry.usd === null) agentUnknown += 1;
      else agentUsd += entry.usd;
    } else {
      users += 1;
      if (entry.usd === null) userUnknown += 1;
      else userUsd += entry.usd;
    }
  }
  return users === 0 ? null : { agentUsd, agentUnknown, userUsd, userUnknown };
}

export function summarizeLedger(ledger: readonly LedgerEntry[]): LedgerSummary {
  const tokens: TokenTotals = { prompt: 0, completion: 0, cachedPrompt: 0, reasoning: 0, estimated: false };
  let knownUsd = 0;
  let unknownEntries = 0;
  let hasEstimates = false;
  let counterfactualUsd: number | null = 0;
  for (const entry of ledger) {
    if (entry.usd === null) unknownEntries += 1;
    else {
      knownUsd += entry.usd;
      if (entry.basis === 'estimated') hasEstimates = true;
    }
    const counterfactual = entry.kind === 'expert' ? entry.counterfactualUsd : entry.usd;
    counterfactualUsd = counterfactualUsd === null || counterfactual === null || counterfactual === undefined ? null : counterfactualUsd + counterfactual;
    if (entry.usage) {
      tokens.prompt += entry.usage.promptTokens;
      tokens.completion += entry.usage.completionTokens;
      tokens.cachedPrompt += entry.usage.cachedPromptTokens ?? 0;
      tokens.reasoning += entry.usage.reasoningTokens ?? 0;
      if (entry.basis === 'estimated') tokens.estimated = true;
    }
  }
  return { knownUsd, entries: ledger.length, unknownEntries, hasEstimates, tokens, counterfactualUsd };
}

/**
 * A cost that may be partly unknown, in words: `$0.0123`, `unknown` when nothing of it is known,
 * `$0.0123 + unknown` when some entries' prices are unknown. Never `$0` for an unknown price.
 * A figure that includes estimates reads `≈$0.0123`, as everywhere else on the page.
 */
export function describeCost(knownUsd: number | null, unknownEntries: number, estimated = false): string {
  if (knownUsd === null) return 'unknown';
  const amount = `${estimated ? '≈' : ''}${formatUsd(knownUsd)}`;
  if (unknownEntries === 0) return amount;
  return knownUsd === 0 ? 'unknown' : `${amount} + unknown`;
}

/** How the counterfactual compares with what the run cost: "3.2× this run", "same as this run". */
export function compareWithActual(counterfactualUsd: number, actualUsd: number): string {
  if (actualUsd <= 0 || counterfactualUsd <= 0) return '';
  const ratio = counterfactualUsd / actualUsd;
  if (Math.abs(ratio - 1) < 0.005) return 'same as this run';
  return ratio >= 1 ? `${ratio.toFixed(ratio >= 10 ? 0 : 1)}× this run` : `${Math.round((1 - ratio) * 100)}% less than this run`;
}

/** Where a run's wall time went: every figure a share of it, so together they make it up. */
export interface TimeBreakdown {
  /** Per alias, tool or kind (as `labelOf` names them), start-ups left out. */
  byLabel: Record<string, number>;
  /** Waits for a sandbox to start, per sandbox: "Python start-up". */
  startups: Array<{ label: string; ms: number; count: number }>;
  /** The rest: the engine's own work between calls, waits, calls that failed before they were
   * charged, and (while a run goes) the call in progress. */
  betweenMs: number;
  wallMs: number;
}

interface Span {
  label: string;
  start: number;
  end: number;
}

/**
 * Splits `wallMs` among the ledger's calls. Each entry ran from `endMs − latencyMs` to `endMs`;
 * a sandbox's start-up is the first part of that. Calls that overlapped (function calling runs a
 * turn's calls at once) share the time they overlapped equally, so no second is counted twice
 * and the figures add up to the wall time. Entries without a time stamp are laid end to end.
 */
export function timeBreakdown(ledger: readonly LedgerEntry[], wallMs: number): TimeBreakdown {
  const spans: Span[] = [];
  const startupCounts = new Map<string, number>();
  let previousEnd = 0;
  for (const entry of ledger) {
    const end = Math.min(entry.endMs ?? previousEnd + entry.latencyMs, wallMs);
    const start = Math.max(0, Math.min(end, (entry.endMs ?? previousEnd + entry.latencyMs) - entry.latencyMs));
    previousEnd = end;
    let workStart = start;
    if (entry.startup) {
      const label = `${entry.startup.sandbox} start-up`;
      workStart = Math.min(end, start + entry.startup.ms);
      spans.push({ label, start, end: workStart });
      startupCounts.set(label, (startupCounts.get(label) ?? 0) + 1);
    }
    spans.push({ label: labelOf(entry), start: workStart, end });
  }
  const shares = shareOverlaps(spans);
  const byLabel: Record<string, number> = {};
  const startups: TimeBreakdown['startups'] = [];
  let attributed = 0;
  for (const [label, ms] of shares) {
    attributed += ms;
    const count = startupCounts.get(label);
    if (count === undefined) byLabel[label] = ms;
    else startups.push({ label, ms, count });
  }
  return { byLabel, startups, betweenMs: Math.max(0, wallMs - attributed), wallMs };
}

/** Where the ledger's last call ended (ms since the run started): from there on a run's clock adds
 * only to "between calls". Entries without a time stamp are laid end to end, as timeBreakdown does. */
export function callsEndMs(ledger: readonly LedgerEntry[]): number {
  let previousEnd = 0;
  let last = 0;
  for (const entry of ledger) {
    previousEnd = entry.endMs ?? previousEnd + entry.latencyMs;
    last = Math.max(last, previousEnd);
  }
  return last;
}

/**
 * timeBreakdown at a later wall time, from the breakdown at the calls' end (`atCallsEnd`, made with
 * `wallMs = callsEndMs(ledger)`): the same figures with the time since added to "between calls",
 * so a ticking clock costs nothing per tick. null when `wallMs` is before the calls' end (then
 * calls are cut short: run timeBreakdown itself).
 */
export function laterBreakdown(atCallsEnd: TimeBreakdown, wallMs: number): TimeBreakdown | null {
  if (wallMs < atCallsEnd.wallMs) return null;
  return { ...atCallsEnd, betweenMs: atCallsEnd.betweenMs + (wallMs - atCallsEnd.wallMs), wallMs };
}

/** Sweeps the spans in time order; each stretch of time is split equally among the spans open in it. */
function shareOverlaps(spans: readonly Span[]): Map<string, number> {
  const shares = new Map<string, number>();
  const edges = spans
    .filter((span) => span.end > span.start)
    .flatMap((span) => [
      { t: span.start, label: span.label, open: 1 },
      { t: span.end, label: span.label, open: -1 },
    ])
    .sort((a, b) => a.t - b.t || a.open - b.open);
  const open = new Map<string, number>();
  let openCount = 0;
  let previous = 0;
  for (const edge of edges) {
    if (edge.t > previous && openCount > 0) {
      const each = (edge.t - previous) / openCount;
      for (const [label, count] of open) shares.set(label, (shares.get(label) ?? 0) + each * count);
    }
    previous = edge.t;
    shares.set(edge.label, shares.get(edge.label) ?? 0);
    const count = (open.get(edge.label) ?? 0) + edge.open;
    if (count === 0) open.delete(edge.label);
    else open.set(edge.label, count);
    openCount += edge.open;
  }
  return shares;
}

/** Steps a chart's axis may take: 1, 2, 2.5 or 5 times a power of ten. */
const NICE_STEPS = [1, 2, 2.5, 5, 10];

/**
 * Round, evenly spaced axis ticks from 0 to at least `max` (about four intervals): $0, $0.001,
 * $0.002… rather than whatever fractions of the largest value a chart library picks.
 */
export function niceTicks(max: number, intervals = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / intervals;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = (NICE_STEPS.find((multiple) => multiple * magnitude >= rough * (1 - 1e-9)) ?? 10) * magnitude;
  const count = Math.ceil(max / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}
