// What an evaluation records and reports. Each finished rollout is one RolloutRecord (a line of
// the CLI's results file; a stored run's summary in the browser). The summary is a pure function
// of the records, so a resumed evaluation, the CLI and the browser report the same figures.

import type { OrchestraConfig } from '../engine/config.ts';
import type { StopReason, ToolCounts } from '../engine/events.ts';
import { costWeightPreference, PREFERENCE_PRESETS, type PreferencePresetName, type PreferenceVector } from '../engine/preferences.ts';
import { computeGroupReward, type GroupReward } from '../engine/reward.ts';
import type { Verdict } from './checks.ts';
import { nestingProblem } from '../engine/jsonDepth.ts';
import { hashText } from './policies/random/random.ts';
import { formatShard, sameShard, shardValueProblem, type Shard } from './shard.ts';
import { meanPassHatKs, paretoFront, wilsonInterval } from './stats.ts';
import type { SuiteTask } from './suite.ts';

export const RESULTS_VERSION = 1;

/**
 * What a results file, a summary or a report may hold, checked where one is read (the Evaluate
 * tab's import and its kept results): the page draws a row and a chart point per policy and loops
 * over the tasks and groups. A real evaluation has a handful of policies (the four presets, five
 * cost weights, three baselines); 40,000 policies froze the page for half a minute.
 */
export const RESULTS_LIMITS = {
  policies: 100,
  tasks: 10_000,
  /** Rollout records of a results file (20 MB holds about 50,000). */
  records: 100_000,
  /** Task groups of a report. */
  groups: 100_000,
  /** Levels of nesting of a file's JSON (a record is 3 deep, a report's groups 5). */
  depth: 32,
  /** Characters of a policy's name (`qwen3=<provider>/<model>` is among the longest): the table
   * and every chart label draw it; 100 names of 80,000 characters froze the page for seconds. */
  policyNameChars: 1_000,
} as const;

/** Why policies' names are too long to draw, or null. */
function policyNameProblem(names: Iterable<string>): string | null {
  let longest = 0;
  for (const name of names) longest = Math.max(longest, name.length);
  if (longest <= RESULTS_LIMITS.policyNameChars) return null;
  return `a policy's name is ${longest.toLocaleString('en-US')} characters; a name may be ${RESULTS_LIMITS.policyNameChars.toLocaleString('en-US')}`;
}

/** Why a results file's text nests too deep to read (counted before it is parsed), or null. */
export function resultsNestingProblem(text: string): string | null {
  return nestingProblem(text, RESULTS_LIMITS.depth);
}

/** Why records are too many to report on the page, or null. */
export function recordsLimitProblem(records: readonly RolloutRecord[]): string | null {
  if (records.length > RESULTS_LIMITS.records) return `it holds ${records.length.toLocaleString('en-US')} rollouts; a results file may hold ${RESULTS_LIMITS.records.toLocaleString('en-US')}`;
  const policies = new Set(records.map((record) => record.policy)).size;
  if (policies > RESULTS_LIMITS.policies) return `it holds ${policies.toLocaleString('en-US')} policies; a results file may hold ${RESULTS_LIMITS.policies}`;
  const longNames = policyNameProblem(new Set(records.map((record) => record.policy)));
  if (longNames) return longNames;
  const tasks = new Set(records.map((record) => record.taskId)).size;
  if (tasks > RESULTS_LIMITS.tasks) return `it holds ${tasks.toLocaleString('en-US')} tasks; a results file may hold ${RESULTS_LIMITS.tasks.toLocaleString('en-US')}`;
  return null;
}

/** Why a summary or report is too large to draw, or null. */
export function summaryLimitProblem(summary: EvalSummary | EvalReport): string | null {
  if (summary.policies.length > RESULTS_LIMITS.policies) return `it holds ${summary.policies.length.toLocaleString('en-US')} policies; a report may hold ${RESULTS_LIMITS.policies}`;
  const longNames = policyNameProblem(summary.policies.map((policy) => policy.name));
  if (longNames) return longNames;
  // A report lists each policy once (records are grouped by it); the table and charts key by name.
  const seen = new Set<string>();
  const twice = summary.policies.find(({ name }) => seen.size === seen.add(name).size);
  if (twice) return `it lists the policy "${twice.name}" more than once`;
  const groups = (summary as Partial<EvalReport>).groups?.length ?? 0;
  if (groups > RESULTS_LIMITS.groups) return `it holds ${groups.toLocaleString('en-US')} task groups; a report may hold ${RESULTS_LIMITS.groups.toLocaleString('en-US')}`;
  return null;
}

/** One rollout of one task under one policy, graded. */
export interface RolloutRecord {
  type: 'rollout';
  policy: string;
  taskId: string;
  /** 1-based. */
  rollout: number;
  runId: string;
  answer: string | null;
  stopReason: StopReason;
  /** The message of the error that stopped the run, when one did. */
  error?: string;
  correct: boolean;
  verdict: Verdict;
  /** The run's cost plus what grading it cost (a judge's call). */
  costUsd: number;
  runCostUsd: number;
  gradingCostUsd: number;
  /** Costs whose price is unknown (not in costUsd). */
  unknownCostEntries: number;
  hasEstimates: boolean;
  /** The run's wall-clock time. */
  latencyMs: number;
  turns: number;
  toolCounts: ToolCounts;
  /** The reward's tool features: calls per alias, plus calls to tools that have no alias. */
  toolFeatures: Record<string, number>;
  /** Model calls per provider model id (the orchestrator's turns and each expert call). */
  modelCalls: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
  /** What the simulated user of a τ² conversation cost (part of runCostUsd; the reward's cost
   * leaves it out, as the reference counts only the agent's cost). Absent elsewhere. */
  userCostUsd?: number;
}

/** The cost the reward weighs: everything but a simulated user's share. */
export const agentCostUsd = (record: Pick<RolloutRecord, 'costUsd' | 'userCostUsd'>): number => record.costUsd - (record.userCostUsd ?? 0);

/** The identity of a rollout: what a resumed evaluation skips when it is done. */
export function rolloutKey(record: Pick<RolloutRecord, 'policy' | 'taskId' | 'rollout'>): string {
  return JSON.stringify([record.policy, record.taskId, record.rollout]);
}

/** Calls per alias, plus calls to tools that never carry one (a function-calling domain tool):
 * "one count per tool alias used", the paper's tool features. */
export function rewardToolCounts(counts: ToolCounts, expertTools: ReadonlySet<string>): Record<string, number> {
  const features: Record<string, number> = { ...counts.aliases };
  for (const [tool, n] of Object.entries(counts.tools)) {
    if (!expertTools.has(tool)) features[tool] = (features[tool] ?? 0) + n;
  }
  return features;
}

/** What a policy is, for the report. */
export interface PolicyDescription {
  name: string;
  label: string;
  model: string;
  preference: PreferenceVector;
}

/** What the report needs of each policy. */
export function policyDescriptions(policies: readonly PolicyDescription[]): PolicyDescription[] {
  return policies.map(({ name, label, model, preference }) => ({ name, label, model, preference }));
}

export interface PolicySummary {
  name: string;
  label: string;
  model: string;
  /** Tasks with at least one graded rollout. */
  tasks: number;
  rollouts: number;
  correct: number;
  /** Correct rollouts over rollouts. */
  accuracy: number;
  /** The 95% Wilson score interval of the accuracy (over rollouts). */
  accuracyLow: number;
  accuracyHigh: number;
  /** Mean cost per rollout, grading included. */
  costUsd: number;
  totalCostUsd: number;
  /** Of the total, what grading cost (judge calls). */
  gradingCostUsd: number;
  /** Mean wall-clock time per rollout. */
  latencyMs: number;
  /** Total cost over correct rollouts; null when none is correct. */
  costPerCorrect: number | null;
  /** Each tool feature's share of all tool calls (alias, or tool without one). */
  toolShares: Record<string, number>;
  toolCalls: Record<string, number>;
  /** Each model's share of all model calls (orchestrator turns and expert calls). */
  modelShares: Record<string, number>;
  /** Rollouts that stopped abnormally (an error, a limit, invalid output). */
  abnormalStops: number;
  /** Rollouts whose check could not run as intended (they count as wrong). */
  failedChecks: number;
  unknownCostEntries: number;
  hasEstimates: boolean;
  /** On the Pareto front of (mean cost, accuracy) among the reported policies. */
  pareto: boolean;
  preference: PreferenceVector;
  /** τ²'s pass^1…pass^K over the tasks with rollouts (K: the fewest any has); see passHatKOf.
   * Absent from reports written before it was added. */
  passHatK?: number[];
  /** τ²'s criteria over the rollouts graded by them: how many passed, failed, were not graded
   * (NL_ASSERTION without a judge). Absent when no rollout was. */
  criteria?: Record<string, CriterionShare>;
  /** What the simulated users of τ² conversations cost, in total (part of totalCostUsd). */
  userCostUsd?: number;
}

export interface CriterionShare {
  passed: number;
  failed: number;
  notGraded: number;
}

/** Counts each τ² criterion's verdicts over records (every criterion τ² computes, counted in
 * the reward or not); undefined when none has any. */
export function criterionShares(records: readonly RolloutRecord[]): Record<string, CriterionShare> | undefined {
  const shares: Record<string, CriterionShare> = {};
  for (const record of records) {
    for (const c of record.verdict.criteria ?? []) {
      const share = (shares[c.criterion] ??= { passed: 0, failed: 0, notGraded: 0 });
      if (c.reward === null) share.notGraded += 1;
      else if (c.reward === 1) share.passed += 1;
      else share.failed += 1;
    }
  }
  return Object.keys(shares).length > 0 ? shares : undefined;
}

/** One task's group of rollouts under one policy, with the paper's rewards and advantages. */
export interface TaskGroup {
  policy: string;
  taskId: string;
  rollouts: number;
  correct: number;
  /** Absent for fewer than two rollouts: a group of one has nothing to compare. */
  reward?: Pick<GroupReward, 'rewards' | 'advantages' | 'mean' | 'std' | 'lowSpread' | 'tooSmall' | 'normalized' | 'skippedFeatures'>;
}

export interface EvalSummary {
  type: 'eval_summary';
  version: number;
  /** How accuracy intervals are computed. */
  interval: 'wilson-95';
  tasks: number;
  rolloutsPerTask: number;
  policies: PolicySummary[];
  /** The policies on the Pareto front, cheapest first. */
  pareto: string[];
}

export interface EvalReport extends EvalSummary {
  groups: TaskGroup[];
}

const NORMAL: ReadonlySet<StopReason> = new Set(['answered', 'final_message']);

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

function shares(counts: Record<string, number>): Record<string, number> {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const sorted = Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  return Object.fromEntries(sorted.map(([key, n]) => [key, total === 0 ? 0 : n / total]));
}

/** The latest record per rollout, in the order of the plan (policy, task, rollout). */
export function latestRecords(records: readonly RolloutRecord[]): Map<string, RolloutRecord> {
  const latest = new Map<string, RolloutRecord>();
  for (const record of records) latest.set(rolloutKey(record), record);
  return latest;
}

/**
 * The latest record of each rollout of the plan, by policy, then by task in the plan's order (each
 * task's records in rollout order). One pass over the records: looking every policy, task and
 * rollout up in turn was policies × tasks × rollouts, and 40,000 policies froze the page.
 */
function planRecordsByPolicy(options: { taskIds: readonly string[]; rollouts: number; records: readonly RolloutRecord[] }): Map<string, RolloutRecord[][]> {
  const taskOrder = new Map<string, number>();
  options.taskIds.forEach((taskId, index) => {
    if (!taskOrder.has(taskId)) taskOrder.set(taskId, index);
  });
  const byPolicy = new Map<string, RolloutRecord[]>();
  for (const record of latestRecords(options.records).values()) {
    if (!taskOrder.has(record.taskId) || record.rollout < 1 || record.rollout > options.rollouts) continue;
    const list = byPolicy.get(record.policy);
    if (list) list.push(record);
    else byPolicy.set(record.policy, [record]);
  }
  const grouped = new Map<string, RolloutRecord[][]>();
  for (const [policy, records] of byPolicy) {
    records.sort((a, b) => taskOrder.get(a.taskId)! - taskOrder.get(b.taskId)! || a.rollout - b.rollout);
    const groups: RolloutRecord[][] = [];
    for (const record of records) {
      const last = groups.at(-1);
      if (last && last[0]!.taskId === record.taskId) last.push(record);
      else groups.push([record]);
    }
    grouped.set(policy, groups);
  }
  return grouped;
}

/**
 * The report of an evaluation: per policy, accuracy with its 95% Wilson interval, mean cost and
 * latency, cost per correct answer, tool and model shares; the Pareto front over (cost, accuracy);
 * and per task, the group's rewards and advantages under the policy's preference. Only rollouts of
 * the given tasks, policies and rollout count are counted, each once (its latest record).
 */
const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

export function summarizeEval(options: {
  taskIds: readonly string[];
  policies: readonly PolicyDescription[];
  rollouts: number;
  records: readonly RolloutRecord[];
}): EvalReport {
  const groups: TaskGroup[] = [];
  const byPolicy = planRecordsByPolicy(options);
  const summaries = options.policies.map((policy) => {
    const policyGroups = (byPolicy.get(policy.name) ?? []).map((group) => groupOf(policy, group[0]!.taskId, group));
    groups.push(...policyGroups);
    return summarizePolicy(policy, byPolicy.get(policy.name) ?? [], policyGroups);
  });
  // A mean cost that leaves unknown prices out is no point to compare: it stays off the front.
  const front = paretoFront(
    summaries
      .filter((s) => s.rollouts > 0)
      .map((s) => ({ name: s.name, costUsd: s.unknownCostEntries > 0 ? null : s.costUsd, accuracy: s.accuracy })),
  );
  for (const summary of summaries) summary.pareto = front.includes(summary.name);
  return {
    type: 'eval_summary',
    version: RESULTS_VERSION,
    interval: 'wilson-95',
    tasks: options.taskIds.length,
    rolloutsPerTask: options.rollouts,
    policies: summaries,
    pareto: front,
    groups,
  };
}

/** One policy's line of the report, from its records task by task (`recordGroups`) and the
 * groups made of them. */
function summarizePolicy(policy: PolicyDescription, recordGroups: readonly RolloutRecord[][], groups: readonly TaskGroup[]): PolicySummary {
  const toolCalls: Record<string, number> = {};
  const modelCalls: Record<string, number> = {};
  let correct = 0;
  let totalCostUsd = 0;
  let gradingCostUsd = 0;
  let latencyMs = 0;
  let abnormalStops = 0;
  let failedChecks = 0;
  let unknownCostEntries = 0;
  let hasEstimates = false;
  let userCostUsd: number | undefined;
  const policyRecords = recordGroups.flat();
  for (const record of policyRecords) {
    if (record.userCostUsd !== undefined) userCostUsd = (userCostUsd ?? 0) + record.userCostUsd;
    if (record.correct) correct += 1;
    totalCostUsd += record.costUsd;
    gradingCostUsd += record.gradingCostUsd;
    latencyMs += record.latencyMs;
    if (!NORMAL.has(record.stopReason)) abnormalStops += 1;
    if (record.verdict.failed) failedChecks += 1;
    unknownCostEntries += record.unknownCostEntries;
    hasEstimates ||= record.hasEstimates;
    add(toolCalls, record.toolFeatures);
    add(modelCalls, record.modelCalls);
  }
  const rollouts = policyRecords.length;
  const interval = wilsonInterval(correct, rollouts);
  return {
    name: policy.name,
    label: policy.label,
    model: policy.model,
    tasks: recordGroups.length,
    rollouts,
    correct,
    accuracy: rollouts === 0 ? 0 : correct / rollouts,
    accuracyLow: interval.low,
    accuracyHigh: interval.high,
    costUsd: rollouts === 0 ? 0 : totalCostUsd / rollouts,
    totalCostUsd,
    gradingCostUsd,
    latencyMs: rollouts === 0 ? 0 : latencyMs / rollouts,
    costPerCorrect: correct === 0 ? null : totalCostUsd / correct,
    toolShares: shares(toolCalls),
    toolCalls,
    modelShares: shares(modelCalls),
    abnormalStops,
    failedChecks,
    unknownCostEntries,
    hasEstimates,
    pareto: false,
    preference: policy.preference,
    passHatK: passHatKOf(groups),
    ...optional('criteria', criterionShares(policyRecords)),
    ...optional('userCostUsd', userCostUsd),
  };
}

/** τ²'s pass^k for k = 1…K: per task, C(correct, k) / C(rollouts, k), the chance that k of its
 * rollouts drawn at random are all right; averaged over the tasks. K is the fewest rollouts any task
 * has (as τ²'s metrics cap it); none without groups. pass^1 is the mean per-task accuracy. */
export function passHatKOf(groups: readonly Pick<TaskGroup, 'rollouts' | 'correct'>[]): number[] {
  return meanPassHatKs(groups.map((group) => ({ trials: group.rollouts, successes: group.correct })));
}

function groupOf(policy: PolicyDescription, taskId: string, group: RolloutRecord[]): TaskGroup {
  const result: TaskGroup = { policy: policy.name, taskId, rollouts: group.length, correct: group.filter((r) => r.correct).length };
  if (group.length < 2) return result;
  const reward = computeGroupReward(
    group.map((record) => ({ correct: record.correct, costUsd: agentCostUsd(record), latencyMs: record.latencyMs, toolCounts: record.toolFeatures })),
    policy.preference,
  );
  result.reward = {
    rewards: reward.rewards,
    advantages: reward.advantages,
    mean: reward.mean,
    std: reward.std,
    lowSpread: reward.lowSpread,
    tooSmall: reward.tooSmall,
    normalized: reward.normalized,
    skippedFeatures: reward.skippedFeatures,
  };
  return result;
}

/** The summary without the per-task groups: the CLI's last `--json` line. */
export function summaryLine(report: EvalReport): EvalSummary {
  const { groups: _groups, ...summary } = report;
  return summary;
}

/** A spreadsheet cell: quoted when it must be, and never read as a formula (a name that starts
 * with "=", "+", "-" or "@" would run in a spreadsheet). */
function cell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_COLUMNS = [
  'policy',
  'label',
  'model',
  'tasks',
  'rollouts',
  'correct',
  'accuracy',
  'accuracy_low_95',
  'accuracy_high_95',
  'mean_cost_usd',
  'total_cost_usd',
  'grading_cost_usd',
  'mean_latency_ms',
  'cost_per_correct_usd',
  'pareto',
  'abnormal_stops',
  'failed_checks',
  'unknown_cost_entries',
  'tool_shares',
  'model_shares',
  'pass_hat_k',
] as const;

const sharesText = (values: Record<string, number>) =>
  Object.entries(values)
    .map(([key, share]) => `${key}=${Number(share.toFixed(4))}`)
    .join('; ');

/** The per-policy table as CSV (one header row, one row per policy). */
export function summaryToCsv(summary: EvalSummary): string {
  const rows = summary.policies.map((p) =>
    [
      p.name,
      p.label,
      p.model,
      p.tasks,
      p.rollouts,
      p.correct,
      p.accuracy,
      p.accuracyLow,
      p.accuracyHigh,
      p.costUsd,
      p.totalCostUsd,
      p.gradingCostUsd,
      Math.round(p.latencyMs),
      p.costPerCorrect,
      p.pareto,
      p.abnormalStops,
      p.failedChecks,
      p.unknownCostEntries,
      sharesText(p.toolShares),
      sharesText(p.modelShares),
      (p.passHatK ?? []).map((value, i) => `${i + 1}=${Number(value.toFixed(4))}`).join('; '),
    ]
      .map(cell)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\n')}\n`;
}

/** The first line of a results file: which evaluation its records belong to. A resumed
 * evaluation must match it, or its figures would mix two suites, configurations or seeds. */
export interface EvalHeader {
  type: 'eval_started';
  version: number;
  /** Where the suite came from (a file name or builtin:<name>). */
  suite: string;
  suiteHash: string;
  configHash: string;
  seed: string;
  startedAt: string;
  /** The part of the suite this file holds (`--shard`); absent: the whole suite. */
  shard?: Shard;
  /** The whole suite's task ids in its order, which a merged report follows (absent from files
   * written before `eval merge` existed). */
  taskIds?: string[];
}

/** What an evaluation's header is made of: hashes of the whole suite's tasks and of the config,
 * the suite's task ids, and the part of it this file is for. */
export function evalHeader(options: { suite: string; tasks: readonly SuiteTask[]; config: OrchestraConfig; seed: string; shard?: Shard }): EvalHeader {
  const tasks = options.tasks.map(({ line: _line, ...task }) => task);
  return {
    type: 'eval_started',
    version: RESULTS_VERSION,
    suite: options.suite,
    suiteHash: hashText(JSON.stringify(tasks)),
    configHash: hashText(JSON.stringify(options.config)),
    seed: options.seed,
    startedAt: new Date().toISOString(),
    ...(options.shard && options.shard.count > 1 ? { shard: { index: options.shard.index, count: options.shard.count } } : {}),
    taskIds: options.tasks.map((task) => task.id),
  };
}

/** Which part of the suite a header's file holds, in words. */
export const partOf = (header: Pick<EvalHeader, 'shard'>): string => (header.shard ? `part ${formatShard(header.shard)} of the suite` : 'the whole suite');

/** Why a results file's header does not fit this evaluation, or null when it does. */
export function headerMismatch(found: EvalHeader, wanted: EvalHeader): string | null {
  if (found.version !== wanted.version) return `it was written by another version of the results format (${found.version}, this is ${wanted.version})`;
  const differ: string[] = [];
  if (found.suiteHash !== wanted.suiteHash) differ.push('suite');
  if (found.configHash !== wanted.configHash) differ.push('configuration');
  if (found.seed !== wanted.seed) differ.push(`seed ("${found.seed}" then, "${wanted.seed}" now)`);
  if (differ.length > 0) return `it holds results of another evaluation: the ${differ.join(', the ')} differ${differ.length === 1 ? 's' : ''}`;
  return sameShard(found.shard, wanted.shard) ? null : `it holds ${partOf(found)}, and this is ${partOf(wanted)}`;
}

/** A line a session of `orchestra eval` appends when it starts with other policies or rollouts
 * than the file's last plan: what a report of the file (`eval merge`) is made for. */
export interface EvalPlan {
  type: 'eval_plan';
  policies: PolicyDescription[];
  rollouts: number;
}

export function evalPlan(policies: readonly PolicyDescription[], rollouts: number): EvalPlan {
  return { type: 'eval_plan', policies: policyDescriptions(policies), rollouts };
}

function isPreference(value: unknown): value is PreferenceVector {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Partial<PreferenceVector>;
  return [p.outcome, p.cost, p.latency].every(isFiniteNumber) && isCounts(p.tools);
}

function readPolicyDescription(value: unknown): PolicyDescription | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Partial<PolicyDescription>;
  return typeof p.name === 'string' && typeof p.label === 'string' && typeof p.model === 'string' && isPreference(p.preference)
    ? { name: p.name, label: p.label, model: p.model, preference: p.preference }
    : null;
}

export function readPlan(value: unknown): EvalPlan | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Partial<EvalPlan>;
  if (p.type !== 'eval_plan' || typeof p.rollouts !== 'number' || !Number.isSafeInteger(p.rollouts) || p.rollouts < 1 || !Array.isArray(p.policies)) return null;
  const policies = p.policies.map(readPolicyDescription);
  return policies.every((policy) => policy !== null) ? { type: 'eval_plan', policies: policies as PolicyDescription[], rollouts: p.rollouts } : null;
}

export const samePlan = (a: EvalPlan, b: EvalPlan): boolean => JSON.stringify(a) === JSON.stringify(b);

function isCounts(value: unknown): value is Record<string, number> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((n) => typeof n === 'number' && Number.isFinite(n));
}

/** A results-file line read back: a record when it has every field the summary uses, with the
 * right types; null for anything else (a line cut short by a crash, another kind of line). */
export function readRecord(value: unknown): RolloutRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Partial<RolloutRecord>;
  const ok =
    r.type === 'rollout' &&
    typeof r.policy === 'string' &&
    typeof r.taskId === 'string' &&
    typeof r.rollout === 'number' &&
    Number.isSafeInteger(r.rollout) &&
    typeof r.stopReason === 'string' &&
    typeof r.correct === 'boolean' &&
    typeof r.verdict === 'object' &&
    r.verdict !== null &&
    [r.costUsd, r.runCostUsd, r.gradingCostUsd, r.latencyMs, r.unknownCostEntries].every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    isCounts(r.toolFeatures) &&
    isCounts(r.modelCalls);
  return ok ? (r as RolloutRecord) : null;
}

export function readHeader(value: unknown): EvalHeader | null {
  if (typeof value !== 'object' || value === null) return null;
  const h = value as Partial<EvalHeader>;
  const ok =
    h.type === 'eval_started' &&
    typeof h.version === 'number' &&
    typeof h.suiteHash === 'string' &&
    typeof h.configHash === 'string' &&
    typeof h.seed === 'string' &&
    (h.shard === undefined || isShard(h.shard)) &&
    (h.taskIds === undefined || (Array.isArray(h.taskIds) && h.taskIds.every((id) => typeof id === 'string')));
  return ok ? (h as EvalHeader) : null;
}

/** A part within the bounds `--shard` enforces (shard.ts). */
const isShard = (value: unknown): value is Shard => shardValueProblem(value) === null;

/** Why a line that is an `eval_started` header cannot be one (its numbers out of bounds), or null. */
export function headerProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'eval_started') return null;
  const { shard, version } = value as { shard?: unknown; version?: unknown };
  if (typeof version === 'number' && !Number.isSafeInteger(version)) return `its version is ${version}`;
  return shard === undefined ? null : shardValueProblem(shard);
}

/** A results file read: its header, its records, and whether its first line was no header. */
export interface ResultsText {
  header: EvalHeader | null;
  /** The first line is something else: this is not a results file of `orchestra eval`. */
  notResults: boolean;
  /** The first line is a header whose numbers no evaluation could have written (headerProblem). */
  badHeader?: string;
  records: RolloutRecord[];
  /** The last plan line: the policies and rollouts of the latest session that changed them. */
  plan: EvalPlan | null;
  /** A crash left the last line without its newline. */
  unterminated: boolean;
}

/** Reads a results file's text: the header line, then one record per line. Lines that are cut
 * short or of another kind are skipped (that rollout runs again when resumed). */
export function readResultsText(text: string): ResultsText {
  let header: EvalHeader | null = null;
  let notResults = false;
  const records: RolloutRecord[] = [];
  let plan: EvalPlan | null = null;
  let lines = 0;
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    lines += 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      continue;
    }
    if (lines === 1) {
      header = readHeader(value);
      notResults = header === null;
      const problem = headerProblem(value);
      if (problem !== null) return { header: null, notResults: true, badHeader: problem, records, plan, unterminated: false };
      if (notResults) break;
      continue;
    }
    const record = readRecord(value);
    if (record) records.push(record);
    else plan = readPlan(value) ?? plan;
  }
  return { header, notResults, records, plan, unterminated: text.length > 0 && !text.endsWith('\n') };
}

/** The preference a policy's name states (orchestrator@<preset>, orchestrator@cost=<w>); null for
 * the others, whose preference was the configuration's. */
export function preferenceOfPolicyName(name: string): PreferenceVector | null {
  const setting = name.startsWith('orchestrator@') ? name.slice('orchestrator@'.length) : null;
  if (setting === null) return null;
  if (Object.hasOwn(PREFERENCE_PRESETS, setting)) return PREFERENCE_PRESETS[setting as PreferencePresetName];
  const weight = /^cost=(\d*\.?\d+)$/.exec(setting)?.[1];
  return weight !== undefined && Number(weight) <= 1 ? costWeightPreference(Number(weight)) : null;
}

/**
 * The report of a results file alone, as `orchestra eval` would print it from the same records:
 * its tasks and policies in the order they first appear, as many rollouts as the highest. The file
 * keeps no policy's description: each is labelled by its name, and a preference its name does not
 * state (which the groups' rewards are computed under) is taken as balanced.
 */
export function reportOfRecords(records: readonly RolloutRecord[]): EvalReport {
  const taskIds = [...new Set(records.map((record) => record.taskId))];
  const names = [...new Set(records.map((record) => record.policy))];
  const rollouts = records.reduce((most, record) => Math.max(most, record.rollout), 0);
  // Each policy's model calls in one pass over the records (not one pass per policy).
  const callsByPolicy = new Map<string, Record<string, number>>();
  for (const record of records) {
    let calls = callsByPolicy.get(record.policy);
    if (!calls) callsByPolicy.set(record.policy, (calls = {}));
    add(calls, record.modelCalls);
  }
  const policies = names.map((name) => {
    const calls = callsByPolicy.get(name) ?? {};
    const model = Object.entries(calls).sort(([, a], [, b]) => b - a)[0]?.[0] ?? '';
    return { name, label: name, model, preference: preferenceOfPolicyName(name) ?? PREFERENCE_PRESETS.balanced };
  });
  return summarizeEval({ taskIds, policies, rollouts, records });
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function readPolicySummary(value: unknown): PolicySummary | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Partial<PolicySummary>;
  const ok =
    typeof p.name === 'string' &&
    typeof p.label === 'string' &&
    typeof p.model === 'string' &&
    [p.tasks, p.rollouts, p.correct, p.accuracy, p.accuracyLow, p.accuracyHigh, p.costUsd, p.totalCostUsd, p.gradingCostUsd, p.latencyMs, p.abnormalStops, p.failedChecks, p.unknownCostEntries].every(isFiniteNumber) &&
    (p.costPerCorrect === null || isFiniteNumber(p.costPerCorrect)) &&
    isCounts(p.toolShares) &&
    isCounts(p.toolCalls) &&
    isCounts(p.modelShares) &&
    typeof p.hasEstimates === 'boolean' &&
    typeof p.pareto === 'boolean' &&
    (p.passHatK === undefined || (Array.isArray(p.passHatK) && p.passHatK.every(isFiniteNumber)));
  return ok ? (p as PolicySummary) : null;
}

/** An `eval_summary` (the last line of `orchestra eval --json`, or `--report`'s file, groups and
 * all) read back: null unless every policy has every field the table and charts use. */
export function readSummary(value: unknown): EvalSummary | EvalReport | null {
  if (typeof value !== 'object' || value === null) return null;
  const s = value as Partial<EvalReport>;
  if (s.type !== 'eval_summary' || !isFiniteNumber(s.tasks) || !isFiniteNumber(s.rolloutsPerTask) || !Array.isArray(s.policies) || !Array.isArray(s.pareto)) return null;
  const policies = s.policies.map(readPolicySummary);
  if (policies.some((p) => p === null) || !s.pareto.every((name) => typeof name === 'string')) return null;
  // A --report's groups come from a file: only the well-formed ones are kept.
  if ('groups' in s) {
    const groups = Array.isArray(s.groups) ? s.groups.map(readTaskGroup).filter((group): group is TaskGroup => group !== null) : [];
    return { ...(s as EvalReport), groups };
  }
  return s as EvalSummary;
}

/** A report with its per-task groups (computed here, or read back by readSummary, which keeps only
 * well-formed groups), rather than a summary line without them. */
export function hasGroups(report: EvalSummary | EvalReport): report is EvalReport {
  return Array.isArray((report as Partial<EvalReport>).groups);
}

function readTaskGroup(value: unknown): TaskGroup | null {
  if (typeof value !== 'object' || value === null) return null;
  const g = value as Partial<TaskGroup>;
  if (typeof g.policy !== 'string' || typeof g.taskId !== 'string' || !isFiniteNumber(g.rollouts) || !isFiniteNumber(g.correct)) return null;
  const group: TaskGroup = { policy: g.policy, taskId: g.taskId, rollouts: g.rollouts, correct: g.correct };
  const r = g.reward;
  if (r === undefined) return group;
  const numbers = (list: unknown): list is number[] => Array.isArray(list) && list.every(isFiniteNumber);
  const wellFormed =
    typeof r === 'object' &&
    r !== null &&
    numbers(r.rewards) &&
    numbers(r.advantages) &&
    r.advantages.length === r.rewards.length &&
    isFiniteNumber(r.mean) &&
    isFiniteNumber(r.std) &&
    typeof r.lowSpread === 'boolean' &&
    typeof r.tooSmall === 'boolean' &&
    Array.isArray(r.normalized) &&
    r.normalized.length === r.rewards.length &&
    r.normalized.every((values) => typeof values === 'object' && values !== null && Object.values(values).every(isFiniteNumber)) &&
    Array.isArray(r.skippedFeatures) &&
    r.skippedFeatures.every((name) => typeof name === 'string');
  return wellFormed ? { ...group, reward: r } : group;
}
