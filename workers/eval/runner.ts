// Runs a suite under several policies: every (policy, task, rollout) is one ordinary run of the
// engine, graded by the task's check, recorded at once (the host persists it), so an interrupted
// evaluation resumes where it stopped. Bounded concurrency, a budget that stops new rollouts, and
// progress after each one. Pure TypeScript: the CLI and the browser drive the same loop.

import type { JavaScriptRunner } from '../engine/ports.ts';
import type { RunEvent } from '../engine/events.ts';
import { runOrchestration, type RunResult } from '../engine/run.ts';
import { grade, type JudgeModel, type Verdict } from './checks.ts';
import type { Policy, PreparedTask } from './policy.ts';
import { latestRecords, rewardToolCounts, rolloutKey, type RolloutRecord } from './results.ts';
import type { TaskDomain } from './ports.ts';
import type { SuiteTask } from './suite.ts';

export interface RolloutKey {
  policy: string;
  taskId: string;
  rollout: number;
}

/** What grading needs from the host. */
export interface Grading {
  /** The QuickJS sandbox, for regex and js checks. */
  javascript?: JavaScriptRunner;
  judge?: JudgeModel;
  /** The domains of the suite's tasks (their golden states and comparisons). */
  domains: ReadonlyMap<string, TaskDomain>;
}

export interface EvalProgress {
  /** Rollouts in the plan. */
  total: number;
  /** Done before this session (a resumed evaluation). */
  skipped: number;
  /** Finished and recorded in this session. */
  finished: number;
  running: number;
  /** Correct among every recorded rollout (skipped ones included). */
  correct: number;
  graded: number;
  /** What this session has spent, grading included. */
  spentUsd: number;
  elapsedMs: number;
  /** Time left at this session's pace; null until a rollout has finished. */
  etaMs: number | null;
}

export type EvalProgressEvent =
  | { type: 'started'; progress: EvalProgress; retried: number }
  | { type: 'rollout_finished'; record: RolloutRecord; progress: EvalProgress }
  /** Stopped (Ctrl-C, Stop): not recorded, it runs again next time. What it spent still counts. */
  | { type: 'rollout_abandoned'; key: RolloutKey; costUsd: number; progress: EvalProgress }
  /** Failed before it could run (a policy that cannot prepare the task): not recorded. */
  | { type: 'rollout_crashed'; key: RolloutKey; message: string; progress: EvalProgress }
  | { type: 'budget_reached'; progress: EvalProgress };

export interface RunEvalOptions {
  tasks: readonly SuiteTask[];
  policies: readonly Policy[];
  /** Rollouts per task and policy. */
  rollouts: number;
  concurrency: number;
  /** No new rollout starts once this session has spent this much (those in flight finish). */
  budgetUsd: number | null;
  grading: Grading;
  /** Records an earlier session left (the latest per rollout counts). Those that stopped on an
   * error run again; the others are skipped. */
  previous: readonly RolloutRecord[];
  signal: AbortSignal;
  /** Keeps a record (the CLI appends it to the results file). Called once per finished rollout. */
  onRecord(record: RolloutRecord): void;
  onProgress?(event: EvalProgressEvent): void;
  /** Every event of every run, for a host that stores or shows runs. */
  onRunEvent?(key: RolloutKey, event: RunEvent): void;
}

export interface EvalOutcome {
  /** The latest record of every planned rollout that has one, in plan order. */
  records: RolloutRecord[];
  progress: EvalProgress;
  crashed: number;
  interrupted: boolean;
  budgetReached: boolean;
  /** Planned rollouts with no record (not started, abandoned or crashed). */
  missing: number;
}

/** The plan's rollouts, rollout-major so that every task has a first rollout before any a second
 * (accuracy so far means something early), policies interleaved task by task. */
function planOf(tasks: readonly SuiteTask[], policies: readonly Policy[], rollouts: number): RolloutKey[] {
  const keys: RolloutKey[] = [];
  for (let rollout = 1; rollout <= rollouts; rollout++) {
    for (const task of tasks) for (const policy of policies) keys.push({ policy: policy.name, taskId: task.id, rollout });
  }
  return keys;
}

/** Works out every domain task's golden state before anything is spent: a task whose golden
 * actions do not run is a broken suite, said up front. Returns the problems. */
export async function checkDomainTasks(tasks: readonly SuiteTask[], domains: ReadonlyMap<string, TaskDomain>): Promise<string[]> {
  const problems: string[] = [];
  for (const task of tasks) {
    if (task.domain === undefined) continue;
    const domain = domains.get(task.domain);
    if (!domain) {
      problems.push(`line ${task.line} ("${task.id}"): no domain named "${task.domain}" is loaded`);
      continue;
    }
    const golden = await domain.goldenState(task);
    if (!golden.ok) problems.push(`line ${task.line} ("${task.id}"): ${golden.error}`);
  }
  return problems;
}

/** What this session of an evaluation has done, and its progress as reported. */
class Tally {
  finished = 0;
  running = 0;
  spentUsd = 0;
  crashed = 0;
  /** Correct among every recorded rollout (skipped ones included). */
  correct = 0;
  private readonly started = performance.now();

  constructor(
    private readonly total: number,
    private readonly skipped: number,
    private readonly pending: number,
  ) {}

  progress(): EvalProgress {
    const elapsedMs = performance.now() - this.started;
    const { finished } = this;
    const remaining = this.pending - finished;
    return {
      total: this.total,
      skipped: this.skipped,
      finished,
      running: this.running,
      correct: this.correct,
      graded: this.skipped + finished,
      spentUsd: this.spentUsd,
      elapsedMs,
      etaMs: finished > 0 && remaining > 0 ? (elapsedMs / finished) * remaining : finished > 0 ? 0 : null,
    };
  }
}

/** What an evaluation resumes from: its plan, the latest earlier record of each planned rollout,
 * the rollouts done already (an earlier error runs again) and those still to run. */
function resumeFrom(options: RunEvalOptions) {
  const plan = planOf(options.tasks, options.policies, options.rollouts);
  const planned = new Set(plan.map(rolloutKey));
  const latest = latestRecords(options.previous.filter((record) => planned.has(rolloutKey(record))));
  const done = new Set([...latest].filter(([, record]) => record.stopReason !== 'error').map(([key]) => key));
  const pending = plan.filter((key) => !done.has(rolloutKey(key)));
  return { plan, latest, done, retried: latest.size - done.size, pending };
}

export async function runEvaluation(options: RunEvalOptions): Promise<EvalOutcome> {
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const policiesByName = new Map(options.policies.map((policy) => [policy.name, policy]));
  const { plan, latest, done, retried, pending } = resumeFrom(options);

  const tally = new Tally(plan.length, done.size, pending.length);
  for (const key of done) if (latest.get(key)?.correct) tally.correct += 1;
  let budgetReached = false;
  const progress = () => tally.progress();
  options.onProgress?.({ type: 'started', progress: progress(), retried });

  const runOne = async (key: RolloutKey): Promise<void> => {
    const task = tasksById.get(key.taskId);
    const policy = policiesByName.get(key.policy);
    if (!task || !policy) return;
    const outcome = await runRollout(key, task, policy, options);
    if (outcome.kind === 'crashed') {
      tally.crashed += 1;
      options.onProgress?.({ type: 'rollout_crashed', key, message: outcome.message, progress: progress() });
      return;
    }
    if (outcome.kind === 'abandoned') {
      tally.spentUsd += outcome.costUsd;
      options.onProgress?.({ type: 'rollout_abandoned', key, costUsd: outcome.costUsd, progress: progress() });
      return;
    }
    const { record } = outcome;
    tally.spentUsd += record.costUsd;
    options.onRecord(record);
    latest.set(rolloutKey(record), record);
    tally.finished += 1;
    if (record.correct) tally.correct += 1;
    options.onProgress?.({ type: 'rollout_finished', record, progress: progress() });
  };

  let next = 0;
  const worker = async () => {
    while (!options.signal.aborted) {
      if (options.budgetUsd !== null && tally.spentUsd >= options.budgetUsd) {
        if (!budgetReached) {
          budgetReached = true;
          options.onProgress?.({ type: 'budget_reached', progress: progress() });
        }
        return;
      }
      const key = pending[next++];
      if (!key) return;
      tally.running += 1;
      try {
        await runOne(key);
      } finally {
        tally.running -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, pending.length)) }, worker));

  const records = plan.flatMap((key) => {
    const record = latest.get(rolloutKey(key));
    return record ? [record] : [];
  });
  return {
    records,
    progress: progress(),
    crashed: tally.crashed,
    interrupted: options.signal.aborted,
    budgetReached,
    missing: plan.length - records.length,
  };
}

/** How one rollout ended: it could not be prepared, it was stopped (what it spent still counts),
 * or it ran and was graded. */
type RolloutOutcome =
  | { kind: 'crashed'; message: string }
  | { kind: 'abandoned'; costUsd: number }
  | { kind: 'finished'; record: RolloutRecord };

/** Prepares, runs and grades one rollout; the evaluation's tallies are the caller's. */
async function runRollout(key: RolloutKey, task: SuiteTask, policy: Policy, options: RunEvalOptions): Promise<RolloutOutcome> {
  let prepared: PreparedTask;
  try {
    prepared = policy.prepare(task, key.rollout);
  } catch (error) {
    return { kind: 'crashed', message: error instanceof Error ? error.message : String(error) };
  }
  const modelCalls: Record<string, number> = {};
  let fatal: string | undefined;
  const result = await runOrchestration({
    ...prepared.run,
    task: task.task,
    signal: options.signal,
    onEvent: (event) => {
      if (event.type === 'usage' && (event.entry.kind === 'orchestrator' || event.entry.kind === 'expert') && event.entry.model) {
        modelCalls[event.entry.model] = (modelCalls[event.entry.model] ?? 0) + 1;
      } else if (event.type === 'error' && event.fatal) {
        fatal = event.message;
      }
      options.onRunEvent?.(key, event);
    },
  });
  if (result.stopReason === 'aborted' || options.signal.aborted) return { kind: 'abandoned', costUsd: result.totals.costUsd };
  const verdict = await gradeRollout(task, prepared, result, options);
  const gradingCostUsd = verdict.costUsd ?? 0;
  if (options.signal.aborted) return { kind: 'abandoned', costUsd: result.totals.costUsd + gradingCostUsd };
  const { totals } = result;
  const record: RolloutRecord = {
    type: 'rollout',
    policy: key.policy,
    taskId: key.taskId,
    rollout: key.rollout,
    runId: result.runId,
    answer: result.answer,
    stopReason: result.stopReason,
    ...(fatal !== undefined && result.stopReason === 'error' ? { error: fatal } : {}),
    correct: verdict.correct,
    verdict,
    costUsd: totals.costUsd + gradingCostUsd,
    runCostUsd: totals.costUsd,
    gradingCostUsd,
    unknownCostEntries: totals.unknownCostEntries + (verdict.costUsd === null ? 1 : 0),
    hasEstimates: totals.hasEstimates,
    latencyMs: totals.latencyMs,
    turns: totals.turns,
    toolCounts: totals.toolCounts,
    toolFeatures: rewardToolCounts(totals.toolCounts, prepared.expertTools),
    modelCalls,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    ...(totals.userCostUsd === undefined ? {} : { userCostUsd: totals.userCostUsd }),
  };
  return { kind: 'finished', record };
}

/** A rollout's verdict: its session grades it (a domain conversation), else the task's check. */
async function gradeRollout(task: SuiteTask, prepared: PreparedTask, result: RunResult, options: RunEvalOptions): Promise<Verdict> {
  if (prepared.session?.grade) return prepared.session.grade(options.signal);
  if (!task.check) return { check: 'exact', correct: false, failed: true, reason: 'the task has no check' };
  const domain = task.domain === undefined ? undefined : options.grading.domains.get(task.domain);
  return grade(task.check, {
    task: task.task,
    answer: result.answer,
    ...(task.answer === undefined ? {} : { expected: task.answer }),
    ...(task.meta === undefined ? {} : { meta: task.meta }),
    ...(options.grading.javascript ? { javascript: options.grading.javascript } : {}),
    ...(options.grading.judge ? { judge: options.grading.judge } : {}),
    ...(domain && prepared.session ? { database: domain.comparison(task, prepared.session) } : {}),
    signal: options.signal,
  });
}
