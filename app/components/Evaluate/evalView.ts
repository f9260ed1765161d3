// The Evaluate tab's view logic, pure and tested apart: which policies a selection means, the
// progress line, the results table's cells, the chart's points and bars, and reading an imported
// results file (the CLI's --out, its --json summary line, or its --report).

import { formatCount, formatMs, formatUsd } from '../../format.ts';
import { PREFERENCE_PRESETS } from '../../../workers/engine/preferences.ts';
import { readRecord, readResultsText, readSummary, recordsLimitProblem, reportOfRecords, resultsNestingProblem, summaryLimitProblem, type EvalReport, type EvalSummary, type PolicySummary, type RolloutRecord, type TaskGroup } from '../../../workers/eval/results.ts';
import type { EvalProgress } from '../../../workers/eval/runner.ts';
import { loadedModelKind, type LoadedLocalModel } from '../../../workers/hosts/models/modelState.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';
import { SUITE_LIMITS } from '../../../workers/eval/suite.ts';
import { passHatKHeadline } from './tau2View.ts';

/** Which policies the tab runs: the configured orchestrator, a sweep, and the paper's baselines. */
export interface PolicyChoice {
  /** The configured orchestrator under the current preferences. */
  orchestrator: boolean;
  /** A preference sweep: the four presets, or a grid over the cost weight. */
  sweep: 'none' | 'presets' | 'cost';
  strongest: boolean;
  cheapest: boolean;
  random: boolean;
}

/** The cost weights of the grid sweep (outcome 1 − w, cost w). */
export const COST_GRID = [0, 0.25, 0.5, 0.75, 1] as const;

/** The policy names, as the CLI's --policy spells them (workers/eval/policies.ts parses them). */
export function policyNames(choice: PolicyChoice): string[] {
  const names: string[] = [];
  if (choice.orchestrator) names.push('orchestrator');
  if (choice.sweep === 'presets') names.push(...Object.keys(PREFERENCE_PRESETS).map((preset) => `orchestrator@${preset}`));
  if (choice.sweep === 'cost') names.push(...COST_GRID.map((w) => `orchestrator@cost=${w}`));
  if (choice.strongest) names.push('strongest');
  if (choice.cheapest) names.push('cheapest');
  if (choice.random) names.push('random');
  return names;
}

/**
 * The prompted-Qwen3 policy for a model loaded in this browser (qwen3=<provider>/<model>, as the
 * CLI spells it): under the config's first provider of the model's kind (gguf for llama.cpp,
 * webllm for web-llm), or under one added to the evaluation's copy of the config when it has none.
 */
export function localQwen3Policy(config: ConfigDraft, model: Pick<LoadedLocalModel, 'id' | 'gguf'>): { config: ConfigDraft; policy: string } {
  const kind = loadedModelKind(model);
  const providers = config.providers ?? {};
  const existing = Object.entries(providers).find(([, provider]) => provider.kind === kind)?.[0];
  if (existing !== undefined) return { config, policy: `qwen3=${existing}/${model.id}` };
  // The provider added when the config has none of the model's kind: browser-gguf, browser-webllm.
  let name = `browser-${kind}`;
  for (let n = 2; Object.hasOwn(providers, name); n++) name = `browser-${kind}-${n}`;
  return { config: { ...config, providers: { ...providers, [name]: { kind } } }, policy: `qwen3=${name}/${model.id}` };
}

/** A budget as typed: null for none; a problem for anything but a positive amount. */
export function readBudget(text: string): { ok: true; usd: number | null } | { ok: false; problem: string } {
  const trimmed = text.trim().replace(/^\$/, '');
  if (trimmed === '') return { ok: true, usd: null };
  const usd = Number(trimmed);
  return Number.isFinite(usd) && usd > 0 ? { ok: true, usd } : { ok: false, problem: `The budget must be a positive amount of US dollars, such as 2.50; got "${text}".` };
}

/** "First N tasks" as typed: undefined for all; a problem for anything but a whole number ≥ 1. */
export function readTaskLimit(text: string): { ok: true; limit: number | undefined } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, limit: undefined };
  const limit = Number(trimmed);
  return Number.isInteger(limit) && limit >= 1 ? { ok: true, limit } : { ok: false, problem: `Tasks must be a whole number from 1 up, or empty for all of them; got "${text}".` };
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

export interface ProgressView {
  done: number;
  total: number;
  /** 0..1, for the bar. */
  fraction: number;
  /** "12 of 60 rollouts · $0.0043 spent · 20 s left": the accuracy is each policy's
   * (perPolicyHeadline); pooled over policies it would mean nothing. */
  text: string;
}

export function progressView(progress: EvalProgress): ProgressView {
  const done = progress.skipped + progress.finished;
  const left = progress.etaMs !== null && progress.finished < progress.total - progress.skipped ? ` · ${formatMs(progress.etaMs)} left` : '';
  return {
    done,
    total: progress.total,
    fraction: progress.total === 0 ? 1 : done / progress.total,
    text: `${done} of ${progress.total} rollouts · ${formatUsd(progress.spentUsd)} spent${progress.running > 0 ? ` · ${progress.running} running` : ''}${left}`,
  };
}

/** The top shares as "answer-2 80%, search-1 20%". */
export function sharesText(shares: Record<string, number>, count = 3): string {
  const entries = Object.entries(shares);
  if (entries.length === 0) return '—';
  const shown = entries.slice(0, count).map(([key, share]) => `${key} ${Math.round(share * 100)}%`);
  return entries.length > count ? `${shown.join(', ')}, …` : shown.join(', ');
}

export interface PolicyRow {
  name: string;
  label: string;
  pareto: boolean;
  rollouts: string;
  accuracy: string;
  interval: string;
  cost: string;
  latency: string;
  costPerCorrect: string;
  tools: string;
  /** Rollouts that stopped abnormally or whose check could not run, in words; empty when none. */
  caveats: string;
}

/** The results table's cells, as the CLI prints them. */
export function policyRow(p: PolicySummary): PolicyRow {
  const caveats = [
    p.abnormalStops > 0 ? `${p.abnormalStops} stopped abnormally` : '',
    p.failedChecks > 0 ? `${p.failedChecks} check${p.failedChecks === 1 ? '' : 's'} could not run` : '',
    p.unknownCostEntries > 0 ? `${p.unknownCostEntries} unpriced call${p.unknownCostEntries === 1 ? '' : 's'} left out of the cost` : '',
  ].filter(Boolean);
  return {
    name: p.name,
    label: p.label,
    pareto: p.pareto,
    rollouts: `${p.correct}/${p.rollouts}`,
    accuracy: percent(p.accuracy),
    interval: `${percent(p.accuracyLow)}–${percent(p.accuracyHigh)}`,
    cost: `${formatUsd(p.costUsd)}${p.hasEstimates ? ' ≈' : ''}`,
    latency: formatMs(p.latencyMs),
    costPerCorrect: p.costPerCorrect === null ? '—' : formatUsd(p.costPerCorrect),
    tools: sharesText(p.toolShares),
    caveats: caveats.join(' · '),
  };
}

export interface ScatterPoint {
  name: string;
  costUsd: number;
  accuracy: number;
  low: number;
  high: number;
  pareto: boolean;
}

/** One point per policy with a known mean cost; the front's points cheapest first. */
export function scatterPoints(summary: EvalSummary): { points: ScatterPoint[]; front: ScatterPoint[] } {
  const points = summary.policies
    .filter((p) => p.rollouts > 0 && p.unknownCostEntries === 0)
    .map((p) => ({ name: p.name, costUsd: p.costUsd, accuracy: p.accuracy, low: p.accuracyLow, high: p.accuracyHigh, pareto: p.pareto }));
  const byName = new Map(points.map((point) => [point.name, point]));
  const front = summary.pareto.flatMap((name) => byName.get(name) ?? []);
  return { points, front };
}

/** The most policies the charts draw: a chart of 24 labelled points is about as many as can be
 * read, and recharts draws 100 (a results file may hold that many) in one commit of up to a second
 * on a slow machine. The table lists every policy. */
export const MAX_CHARTED_POLICIES = 24;

/**
 * The policies the charts draw, in the summary's order: all of them up to `max`; past it, the
 * Pareto front first, then the most accurate (the cheaper first at equal accuracy). `total`: how
 * many the summary holds.
 */
export function chartedPolicies(summary: EvalSummary, max = MAX_CHARTED_POLICIES): { summary: EvalSummary; total: number } {
  const total = summary.policies.length;
  if (total <= max) return { summary, total };
  const front = new Set(summary.pareto);
  const ranked = [...summary.policies].sort((a, b) => Number(front.has(b.name)) - Number(front.has(a.name)) || b.accuracy - a.accuracy || a.costUsd - b.costUsd);
  const kept = new Set(ranked.slice(0, max));
  const policies = summary.policies.filter((policy) => kept.has(policy));
  const names = new Set(policies.map((policy) => policy.name));
  return { summary: { ...summary, policies, pareto: summary.pareto.filter((name) => names.has(name)) }, total };
}

/** Tool-call shares as stacked bars: one row per policy, one key per tool feature (the features
 * in order of their total share, so the biggest sit at the bottom of every bar). */
export function shareBars(summary: EvalSummary): { rows: Array<Record<string, number | string>>; features: string[] } {
  const totals = new Map<string, number>();
  for (const p of summary.policies) for (const [feature, share] of Object.entries(p.toolShares)) totals.set(feature, (totals.get(feature) ?? 0) + share);
  const features = [...totals].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([feature]) => feature);
  const rows = summary.policies
    .filter((p) => Object.keys(p.toolShares).length > 0)
    .map((p) => ({ policy: p.name, ...Object.fromEntries(features.map((feature) => [feature, p.toolShares[feature] ?? 0])) }));
  return { rows, features };
}

/** The order the rollouts are listed in: by task, then policy, then rollout. */
export function rolloutOrder(a: RolloutRecord, b: RolloutRecord): number {
  return a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : a.policy < b.policy ? -1 : a.policy > b.policy ? 1 : a.rollout - b.rollout;
}

/** A rollout's verdict in a line: its mark, the check and why. */
export function verdictLine(record: RolloutRecord): { mark: '✓' | '✗' | '!'; text: string } {
  const mark = record.verdict.failed ? '!' : record.correct ? '✓' : '✗';
  const stop = record.stopReason === 'answered' || record.stopReason === 'final_message' ? '' : ` (stopped: ${record.stopReason}${record.error ? `, ${record.error}` : ''})`;
  return { mark, text: `${record.verdict.check}: ${record.verdict.reason}${stop}` };
}

/** What an imported file held: a results file's records (its report computed from them), or a
 * summary or report drawn as it is. */
export type ImportedResults =
  | { ok: true; kind: 'records'; records: RolloutRecord[]; report: EvalReport }
  | { ok: true; kind: 'summary'; summary: EvalSummary | EvalReport }
  | { ok: false; problems: string[] };

/** The largest results file the tab reads (the suite's own cap). */
export const RESULTS_FILE_BYTES = SUITE_LIMITS.fileChars;

const MB = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function resultsFileSizeProblem(bytes: number): string | null {
  return bytes > RESULTS_FILE_BYTES ? `It is ${MB(bytes)}; a results file may be ${MB(RESULTS_FILE_BYTES)} at most.` : null;
}

/**
 * Reads what `orchestra eval` wrote: the results file (--out: a header line, then one rollout per
 * line), the --json output (its last line is the summary), or the --report file (one JSON value).
 */
export function readImportedResults(text: string): ImportedResults {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problems: ['The file is empty.'] };
  const tooDeep = resultsNestingProblem(text);
  if (tooDeep) return { ok: false, problems: [`It is ${tooDeep}.`] };
  const refused = (problem: string): ImportedResults => ({ ok: false, problems: [`${problem[0]!.toUpperCase()}${problem.slice(1)}.`] });
  const asSummary = (summary: EvalSummary | EvalReport): ImportedResults => {
    const tooLarge = summaryLimitProblem(summary);
    return tooLarge ? refused(tooLarge) : { ok: true, kind: 'summary', summary };
  };
  // A --report file, or a summary line alone.
  try {
    const summary = readSummary(JSON.parse(trimmed));
    if (summary) return asSummary(summary);
  } catch {
    // Several lines: a results file or the --json output.
  }
  const results = readResultsText(text);
  if (results.header) {
    if (results.records.length === 0) return { ok: false, problems: ['The results file holds no finished rollout yet.'] };
    const tooMany = recordsLimitProblem(results.records);
    if (tooMany) return refused(tooMany);
    return { ok: true, kind: 'records', records: results.records, report: reportOfRecords(results.records) };
  }
  const lines = trimmed.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    let value: unknown;
    try {
      value = JSON.parse(lines[index] ?? '');
    } catch {
      continue;
    }
    const summary = readSummary(value);
    if (summary) return asSummary(summary);
  }
  return {
    ok: false,
    problems: [
      'It is none of what "orchestra eval" writes: a results file (--out, its first line {"type": "eval_started", …}), the --json output (its last line {"type": "eval_summary", …}) or a --report file.',
    ],
  };
}

/** What the tab keeps of its last results across a reload (app/storage/evalResultsDb.ts): the
 * report as drawn and the rollouts' records (the drill-down), never the request that ran them (its
 * config and suite stay on the page). */
export interface SavedResults {
  version: 1;
  savedAt: string;
  origin: 'run' | 'import';
  source: string;
  report: EvalSummary | EvalReport;
  records: RolloutRecord[];
}

export const SAVED_LIMITS = {
  /** Rollout records kept, and the most of an import's the page holds (the rest count in its
   * report, whole): an evaluation with more keeps its report whole and its first records. */
  records: 5_000,
  sourceChars: 300,
} as const;

/** The results on screen as saved; `recordsLeftOut` says how many records the cap dropped. */
export function savedResults(
  results: { origin: 'run' | 'import'; source: string; records: readonly RolloutRecord[] },
  report: EvalSummary | EvalReport,
  savedAt: Date,
): { saved: SavedResults; recordsLeftOut: number } {
  return {
    saved: {
      version: 1,
      savedAt: savedAt.toISOString(),
      origin: results.origin,
      source: results.source.slice(0, SAVED_LIMITS.sourceChars),
      report,
      records: results.records.slice(0, SAVED_LIMITS.records),
    },
    recordsLeftOut: Math.max(0, results.records.length - SAVED_LIMITS.records),
  };
}

/** Saved results read back, checked like an imported file: the report as readSummary takes it,
 * every record as readRecord does (the malformed ones dropped); null when it is not usable. */
export function readSavedResults(value: unknown): SavedResults | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<Record<keyof SavedResults, unknown>>;
  if (v.version !== 1 || (v.origin !== 'run' && v.origin !== 'import') || typeof v.source !== 'string' || typeof v.savedAt !== 'string') return null;
  if (Number.isNaN(Date.parse(v.savedAt)) || !Array.isArray(v.records)) return null;
  const report = readSummary(v.report);
  // One kept by an earlier version past today's caps is refused: it would freeze every visit.
  if (!report || summaryLimitProblem(report) !== null) return null;
  return {
    version: 1,
    savedAt: v.savedAt,
    origin: v.origin,
    source: v.source.slice(0, SAVED_LIMITS.sourceChars),
    report,
    records: v.records
      .slice(0, SAVED_LIMITS.records)
      .map(readRecord)
      .filter((record): record is RolloutRecord => record !== null),
  };
}

/** One task's group of rollouts under one policy, as the rewards view shows it. */
export interface GroupView {
  key: string;
  policy: string;
  taskId: string;
  /** "3 of 4 correct · mean 0.412 · std 0.310", and why the paper would not train on it, if so. */
  line: string;
  /** The features the reward used, in the order of each row's `values`. */
  features: string[];
  rows: Array<{ rollout: number; reward: string; advantage: string; values: string[] }>;
}

/**
 * The paper's group rewards for each task with two or more rollouts under a policy: per rollout
 * (in rollout order) its reward, its advantage, and each feature's normalised value; the
 * features with no spread, left out of the reward, said once.
 */
export function groupViews(groups: readonly TaskGroup[]): GroupView[] {
  const views: GroupView[] = [];
  for (const group of groups) {
    const reward = group.reward;
    if (!reward) continue;
    const features = [...new Set(reward.normalized.flatMap((values) => Object.keys(values)))];
    const notes = [
      `${group.correct} of ${group.rollouts} correct`,
      `mean ${reward.mean.toFixed(3)}`,
      `std ${reward.std.toFixed(3)}`,
      ...(reward.tooSmall ? ['fewer than 3 rollouts'] : []),
      ...(reward.lowSpread ? ['spread ≤ 0.1: the paper leaves such groups out of training'] : []),
      ...(reward.skippedFeatures.length > 0 ? [`no spread in ${reward.skippedFeatures.join(', ')} (left out)`] : []),
    ];
    views.push({
      key: `${group.policy}/${group.taskId}`,
      policy: group.policy,
      taskId: group.taskId,
      line: notes.join(' · '),
      features,
      rows: reward.rewards.map((value, index) => ({
        rollout: index + 1,
        reward: value.toFixed(3),
        advantage: (reward.advantages[index] ?? 0).toFixed(3),
        values: features.map((feature) => {
          const normalized = reward.normalized[index]?.[feature];
          return normalized === undefined ? '—' : normalized.toFixed(2);
        }),
      })),
    });
  }
  return views;
}

/** The policies the progress line names one by one; the results table lists every one. */
export const MAX_HEADLINE_POLICIES = 8;

/** One line per policy: its name, accuracy and correct rollouts, "orchestrator 80.0% (8/10)"; a
 * τ²-graded one adds its pass^K ("… · pass^4 50.0%"). Past `max` policies (a sweep), one line
 * says how many more the table lists. */
export function perPolicyHeadline(policies: readonly PolicySummary[], max = MAX_HEADLINE_POLICIES): string[] {
  const lines = policies
    .slice(0, max)
    .map((p) => `${p.name} ${p.rollouts === 0 ? '—' : percent(p.accuracy)} (${p.correct}/${p.rollouts})${passHatKHeadline(p)}`);
  const more = policies.length - lines.length;
  if (more > 0) lines.push(`and ${formatCount(more)} more ${more === 1 ? 'policy' : 'policies'}: the results table lists each`);
  return lines;
}
