// Two to four stored runs side by side: each route as tool/alias chips per step, the step where
// the routes first part, per-step and total figures, and the paper's group reward and advantage
// under a preference the person picks (workers/engine/reward.ts), with each run's normalised
// features so the number can be explained. Pure: the view and its tests use it alike.

import type { LedgerEntry } from '../../workers/engine/events.ts';
import type { PreferenceVector } from '../../workers/engine/preferences.ts';
import { computeGroupReward, type GroupReward } from '../../workers/engine/reward.ts';
import type { RunSummary } from '../../workers/history/runLog.ts';
import type { RunView } from './runView.ts';

export const MAX_COMPARED = 4;

export interface ComparedRun {
  summary: RunSummary;
  view: RunView;
}

export interface StepFigures {
  /** The step's top-level calls as chips: "search · search-1". */
  chips: string[];
  costUsd: number;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
}

export interface RunColumn {
  steps: StepFigures[];
  costUsd: number;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  answer: string | null;
}

function stepFigures(view: RunView): StepFigures[] {
  // The ledger by step, once: filtering it for every step was quadratic in a long run.
  const byStep = new Map<number, LedgerEntry[]>();
  for (const entry of view.ledger) {
    const list = byStep.get(entry.step);
    if (list) list.push(entry);
    else byStep.set(entry.step, [entry]);
  }
  return view.steps.map((step) => {
    const entries = byStep.get(step.step) ?? [];
    return {
      chips: step.callIds.map((callId) => {
        const call = view.calls[callId];
        if (!call) return '?';
        return call.alias ? `${call.name} · ${call.alias}` : call.name;
      }),
      costUsd: step.costUsd,
      latencyMs: step.latencyMs ?? 0,
      promptTokens: entries.reduce((sum, entry) => sum + (entry.usage?.promptTokens ?? 0), 0),
      completionTokens: entries.reduce((sum, entry) => sum + (entry.usage?.completionTokens ?? 0), 0),
    };
  });
}

export function columnOf({ view }: ComparedRun): RunColumn {
  return columnOfView(view);
}

/** A run's route and figures, from its view alone (a live run has no stored summary). */
export function columnOfView(view: RunView): RunColumn {
  const steps = stepFigures(view);
  return {
    steps,
    costUsd: view.totals?.costUsd ?? view.totalUsd,
    latencyMs: view.totals?.latencyMs ?? view.elapsedMs,
    promptTokens: view.totals?.promptTokens ?? steps.reduce((sum, step) => sum + step.promptTokens, 0),
    completionTokens: view.totals?.completionTokens ?? steps.reduce((sum, step) => sum + step.completionTokens, 0),
    answer: view.answer ?? null,
  };
}

/** The first step (1-based) where the routes differ — one run calls something else, or has no
 * such step — or null when every route is the same. */
export function firstParting(columns: readonly RunColumn[]): number | null {
  const longest = Math.max(0, ...columns.map((column) => column.steps.length));
  for (let index = 0; index < longest; index++) {
    const routes = columns.map((column) => column.steps[index]?.chips.join(' + ') ?? null);
    if (routes.some((route) => route !== routes[0])) return index + 1;
  }
  return null;
}

/** The paper's reward and advantage of each run as one group under `preference`. */
export function groupReward(runs: readonly ComparedRun[], correct: readonly boolean[], preference: PreferenceVector): GroupReward {
  return computeGroupReward(
    runs.map(({ view }, index) => ({
      correct: correct[index] ?? false,
      costUsd: view.totals?.costUsd ?? view.totalUsd,
      latencyMs: view.totals?.latencyMs ?? view.elapsedMs,
      toolCounts: view.totals?.toolCounts.aliases ?? {},
    })),
    preference,
  );
}
