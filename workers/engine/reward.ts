// The paper's reward over a group of rollouts of one task, and the group advantage used in
// training (arXiv 2511.21689, "outcome, efficiency and preference" reward).
//
// Each feature is min-max normalised over the group. Cost and latency are normalised so that
// cheaper and faster score higher: (max − x) / (max − min). The reference code negates cost and
// latency when it takes the min and max but plugs the un-negated value into the formula, which
// can push those terms outside [0, 1] and reward the dearer rollout; we apply the negation
// consistently instead, so every normalised feature lies in [0, 1] and higher is better.
// A tool the user wants avoided (a negative weight) is scored the same way: fewer calls score
// higher, at weight |w|. Every term is then ≥ 0, so a correct rollout never scores below a wrong
// one (which scores 0), as "R when correct, 0 otherwise" requires.
// A tool's min and max are taken over the whole group, a rollout that never called it counting 0
// calls. The reference takes them over the rollouts that called it only and then plugs in 0 for the
// others, which scores those below 0, and skips the tool whenever its users agree even though
// the others differ (docs/protocol.md).

import type { PreferenceVector } from './preferences.ts';

export interface RolloutFeatures {
  correct: boolean;
  costUsd: number;
  latencyMs: number;
  /** Calls per tool or alias. */
  toolCounts: Record<string, number>;
}

export interface GroupReward {
  rewards: number[];
  advantages: number[];
  mean: number;
  /** Sample standard deviation (n − 1) of the rewards; 0 for fewer than 2 rollouts. */
  std: number;
  /** std ≤ 0.1: the paper drops such groups from training. */
  lowSpread: boolean;
  /** Fewer than 3 rollouts. */
  tooSmall: boolean;
  /** Per rollout, each used feature's normalised value in [0, 1]. */
  normalized: Array<Record<string, number>>;
  /** Features with the same value in every rollout (no spread), left out of the reward. */
  skippedFeatures: string[];
}

export const LOW_SPREAD_STD = 0.1;
export const MIN_GROUP_SIZE = 3;
const ADVANTAGE_EPSILON = 1e-6;
const ADVANTAGE_CLIP = 3;

const BUILT_IN_FEATURES = ['outcome', 'cost', 'latency'] as const;

interface Feature {
  name: string;
  weight: number;
  /** True for cost, latency and tools to avoid, where less is better. */
  lowerIsBetter: boolean;
  values: number[];
}

/** Rewards and clipped advantages for one group. Feature names are the tool keys (sorted)
 * followed by `outcome`, `cost` and `latency`; a tool key may not reuse one of those three. */
export function computeGroupReward(rollouts: RolloutFeatures[], preference: PreferenceVector): GroupReward {
  const features = groupFeatures(rollouts, preference);
  const normalized: Array<Record<string, number>> = rollouts.map(() => ({}));
  const skippedFeatures: string[] = [];
  for (const feature of features) {
    const min = Math.min(...feature.values);
    const max = Math.max(...feature.values);
    // `!(max > min)` also covers an empty group, where min is Infinity and max -Infinity.
    if (!(max > min)) {
      skippedFeatures.push(feature.name);
      continue;
    }
    feature.values.forEach((x, i) => {
      const row = normalized[i];
      if (row) row[feature.name] = feature.lowerIsBetter ? (max - x) / (max - min) : (x - min) / (max - min);
    });
  }

  const weights = new Map(features.map((feature) => [feature.name, feature.weight]));
  const rewards = rollouts.map((rollout, i) => {
    if (!rollout.correct) return 0;
    return Object.entries(normalized[i] ?? {}).reduce((sum, [name, value]) => sum + (weights.get(name) ?? 0) * value, 0);
  });

  const n = rewards.length;
  const mean = n === 0 ? 0 : rewards.reduce((sum, r) => sum + r, 0) / n;
  const std = n < 2 ? 0 : Math.sqrt(rewards.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (n - 1));
  const advantages = rewards.map((r) => clip((r - mean) / (std + ADVANTAGE_EPSILON), ADVANTAGE_CLIP));

  return {
    rewards,
    advantages,
    mean,
    std,
    lowSpread: std <= LOW_SPREAD_STD,
    tooSmall: n < MIN_GROUP_SIZE,
    normalized,
    skippedFeatures,
  };
}

function groupFeatures(rollouts: RolloutFeatures[], preference: PreferenceVector): Feature[] {
  const toolKeys = [...new Set(rollouts.flatMap((rollout) => Object.keys(rollout.toolCounts)))].sort();
  const clash = toolKeys.find((key) => (BUILT_IN_FEATURES as readonly string[]).includes(key));
  if (clash !== undefined) throw new Error(`Tool key "${clash}" clashes with a built-in reward feature`);

  const features: Feature[] = [
    ...toolKeys.map((key) => {
      const weight = preference.tools[key] ?? 0;
      return {
        name: key,
        weight: Math.abs(weight),
        lowerIsBetter: weight < 0,
        values: rollouts.map((rollout) => rollout.toolCounts[key] ?? 0),
      };
    }),
    { name: 'outcome', weight: preference.outcome, lowerIsBetter: false, values: rollouts.map((r) => (r.correct ? 1 : 0)) },
    { name: 'cost', weight: preference.cost, lowerIsBetter: true, values: rollouts.map((r) => r.costUsd) },
    { name: 'latency', weight: preference.latency, lowerIsBetter: true, values: rollouts.map((r) => r.latencyMs) },
  ];
  for (const feature of features) {
    if (feature.values.some((value) => !Number.isFinite(value))) {
      throw new RangeError(`Reward feature "${feature.name}" has a value that is not a finite number`);
    }
  }
  return features;
}

function clip(value: number, limit: number): number {
  return Math.min(limit, Math.max(-limit, value));
}
