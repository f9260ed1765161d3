// The summary line of a run (what `--json` ends with and a batch writes per task), and the group
// reward over rollouts of one task.

import type { RunEvent, RunTotals, StopReason, ToolCounts } from '../workers/engine/events.ts';
import type { PreferenceVector } from '../workers/engine/preferences.ts';
import { computeGroupReward, MIN_GROUP_SIZE, type GroupReward } from '../workers/engine/reward.ts';
import type { RunResult } from '../workers/engine/run.ts';
import { answersMatch, normalizeAnswer } from '../workers/eval/answers.ts';
import { rewardToolCounts } from '../workers/eval/results.ts';

/** The run's totals, with what the summary line adds to them. */
export interface RunSummary extends RunTotals {
  type: 'summary';
  runId: string | null;
  answer: string | null;
  stopReason: StopReason;
  /** The message of the error that stopped the run, when one did. */
  error?: string;
  counterfactualModel: string | null;
  /** Whether the answer equals the expected one; only when one was given. */
  correct?: boolean;
}

export interface RolloutRecord {
  runId: string;
  answer: string | null;
  correct: boolean | null;
  costUsd: number;
  latencyMs: number;
  /** The reward's tool features: calls per alias, plus calls to tools that have no alias. */
  toolCounts: Record<string, number>;
  stopReason: StopReason;
}

export interface GroupSummary extends RunSummary {
  rollouts: RolloutRecord[];
  rewards: number[] | null;
  advantages: number[] | null;
  mean: number | null;
  std: number | null;
  lowSpread: boolean | null;
  tooSmall: boolean;
  normalized: GroupReward['normalized'] | null;
  skippedFeatures: string[] | null;
  /** Why rewards are null, when they are. */
  rewardNote?: string;
}

export const NORMAL_STOPS: ReadonlySet<StopReason> = new Set(['answered', 'final_message']);

/** Whether an answer is the expected one: the evaluation's exact check (case, accents,
 * punctuation, articles and number formatting aside: "558,457" = "558457"). */
export function isCorrect(answer: string | null, expected: string): boolean {
  return answersMatch(answer, expected);
}

/** Watches a run's events for what the result alone does not carry: the fatal error's message. */
export function createRunWatcher(): { onEvent(event: RunEvent): void; fatalError(): string | undefined } {
  let fatal: string | undefined;
  return {
    onEvent(event) {
      if (event.type === 'error' && event.fatal) fatal = event.message;
    },
    fatalError: () => fatal,
  };
}

export function summarizeRun(
  result: RunResult,
  extra: { counterfactualModel: string | undefined; error?: string; expected?: string },
): RunSummary {
  const { totals } = result;
  const summary: RunSummary = {
    type: 'summary',
    runId: result.runId,
    answer: result.answer,
    stopReason: result.stopReason,
    ...totals,
    counterfactualModel: totals.counterfactualUsd === null ? null : (extra.counterfactualModel ?? null),
  };
  if (extra.error !== undefined && !NORMAL_STOPS.has(result.stopReason)) summary.error = extra.error;
  if (extra.expected !== undefined) summary.correct = isCorrect(result.answer, extra.expected);
  return summary;
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

/** The most frequent non-null answer (the earliest among ties), or null. */
function mostCommonAnswer(answers: readonly (string | null)[]): string | null {
  const tally = new Map<string, { answer: string; count: number; first: number }>();
  answers.forEach((answer, index) => {
    if (answer === null) return;
    const key = normalizeAnswer(answer);
    const entry = tally.get(key) ?? { answer, count: 0, first: index };
    entry.count += 1;
    tally.set(key, entry);
  });
  let best: { answer: string; count: number; first: number } | undefined;
  for (const entry of tally.values()) {
    if (!best || entry.count > best.count || (entry.count === best.count && entry.first < best.first)) best = entry;
  }
  return best?.answer ?? null;
}

/** What a group's rollouts called and spent together; the counterfactual is null when one
 * rollout's is not known. */
function groupSpend(runs: ReadonlyArray<{ result: RunResult }>): { toolCounts: ToolCounts; costUsd: number; counterfactualUsd: number | null } {
  const toolCounts: ToolCounts = { tools: {}, aliases: {} };
  let costUsd = 0;
  let counterfactualUsd: number | null = 0;
  for (const { result } of runs) {
    addCounts(toolCounts.tools, result.totals.toolCounts.tools);
    addCounts(toolCounts.aliases, result.totals.toolCounts.aliases);
    costUsd += result.totals.costUsd;
    counterfactualUsd =
      counterfactualUsd === null || result.totals.counterfactualUsd === null ? null : counterfactualUsd + result.totals.counterfactualUsd;
  }
  return { toolCounts, costUsd, counterfactualUsd };
}

/** Several rollouts of one task: their records, the group's totals and, with an expected
 * answer, the paper's rewards and advantages. */
export function summarizeGroup(
  runs: ReadonlyArray<{ result: RunResult; error?: string }>,
  options: {
    expected?: string;
    preference: PreferenceVector;
    expertTools: ReadonlySet<string>;
    counterfactualModel: string | undefined;
    wallMs: number;
    /** Set when Ctrl-C cut the group short: a partial group gets no rewards. */
    interrupted?: { ran: number; asked: number };
  },
): GroupSummary {
  const rollouts: RolloutRecord[] = runs.map(({ result }) => ({
    runId: result.runId,
    answer: result.answer,
    correct: options.expected === undefined ? null : isCorrect(result.answer, options.expected),
    costUsd: result.totals.costUsd,
    latencyMs: result.totals.latencyMs,
    toolCounts: rewardToolCounts(result.totals.toolCounts, options.expertTools),
    stopReason: result.stopReason,
  }));

  const { toolCounts, costUsd, counterfactualUsd } = groupSpend(runs);
  const sum = (pick: (result: RunResult) => number) => runs.reduce((total, { result }) => total + pick(result), 0);
  const abnormal = runs.find(({ result }) => !NORMAL_STOPS.has(result.stopReason));
  const stopReason = abnormal?.result.stopReason ?? runs[0]?.result.stopReason ?? 'error';

  const group: GroupSummary = {
    type: 'summary',
    runId: null,
    answer: mostCommonAnswer(runs.map(({ result }) => result.answer)),
    stopReason,
    costUsd,
    unknownCostEntries: sum((r) => r.totals.unknownCostEntries),
    hasEstimates: runs.some(({ result }) => result.totals.hasEstimates),
    counterfactualUsd,
    counterfactualModel: counterfactualUsd === null ? null : (options.counterfactualModel ?? null),
    latencyMs: options.wallMs,
    toolLatencyMs: sum((r) => r.totals.toolLatencyMs),
    turns: sum((r) => r.totals.turns),
    toolCounts,
    promptTokens: sum((r) => r.totals.promptTokens),
    completionTokens: sum((r) => r.totals.completionTokens),
    rollouts,
    rewards: null,
    advantages: null,
    mean: null,
    std: null,
    lowSpread: null,
    tooSmall: runs.length < MIN_GROUP_SIZE,
    normalized: null,
    skippedFeatures: null,
  };
  if (abnormal?.error !== undefined) group.error = abnormal.error;

  if (options.interrupted) {
    const { ran, asked } = options.interrupted;
    group.rewardNote = `Interrupted after ${ran} of ${asked} rollouts: rewards are not computed for a partial group.`;
    return group;
  }
  if (options.expected === undefined) {
    group.rewardNote =
      'Rewards need the expected answer: pass --correct "<answer>" so each rollout can be marked correct or not.';
    return group;
  }
  group.correct = isCorrect(group.answer, options.expected);
  const reward = computeGroupReward(
    rollouts.map((rollout) => ({
      correct: rollout.correct === true,
      costUsd: rollout.costUsd,
      latencyMs: rollout.latencyMs,
      toolCounts: rollout.toolCounts,
    })),
    options.preference,
  );
  return { ...group, ...reward };
}
