// The paper's group reward of compared runs, said in words where its number stands. The reward
// scales every weighed figure over the runs compared (workers/engine/reward.ts): the best run
// gets the figure's whole weight, the worst 0. With two runs that is all or nothing, so a right
// run that is the dearer and the slower scores 0, legitimately; these words say so. Pure.

import type { PreferenceVector } from '../../workers/engine/preferences.ts';
import type { GroupReward } from '../../workers/engine/reward.ts';

/** A figure the preference weighs, with what it gave each run. */
export interface RewardTerm {
  feature: string;
  /** "Cost", "Time", "Being right", "Calls to search-1 (avoided)". */
  label: string;
  /** The label with its weight: "Cost, weight 0.6". */
  heading: string;
  weight: number;
  /** The same in every run: left out of the reward. */
  level: boolean;
  /** Per run: "0.6 of 0.6 — the cheaper", or why it is left out. */
  cells: string[];
}

export interface RewardWords {
  terms: RewardTerm[];
  /** Per run, why its reward is what it is. */
  why: string[];
  /** How the reward is scaled over these runs (all or nothing with two). */
  scaling: string;
}

const BUILT_IN = ['outcome', 'cost', 'latency'] as const;

/** Better / best and worse / worst of each built-in figure. */
const POSITIONS: Record<(typeof BUILT_IN)[number], { best: [string, string]; worst: [string, string] }> = {
  outcome: { best: ['right where the other is wrong', 'right where another is wrong'], worst: ['wrong', 'wrong'] },
  cost: { best: ['the cheaper', 'the cheapest'], worst: ['the dearer', 'the dearest'] },
  latency: { best: ['the faster', 'the fastest'], worst: ['the slower', 'the slowest'] },
};

const LABELS: Record<(typeof BUILT_IN)[number], string> = { outcome: 'Being right', cost: 'Cost', latency: 'Time' };

/** Weights and shares to two decimals, without trailing zeros: 0.6, 0.25, 0. */
function figure(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function weightOf(feature: string, preference: PreferenceVector): number {
  if (feature === 'outcome' || feature === 'cost' || feature === 'latency') return preference[feature];
  return Math.abs(preference.tools[feature] ?? 0);
}

function labelOf(feature: string, preference: PreferenceVector): string {
  if (feature === 'outcome' || feature === 'cost' || feature === 'latency') return LABELS[feature];
  return `Calls to ${feature} (${(preference.tools[feature] ?? 0) < 0 ? 'avoided' : 'preferred'})`;
}

/** Where a run stands on one figure: best, worst, or in between (three runs or more). */
function position(feature: string, value: number, preference: PreferenceVector, runs: number): string {
  const pair = runs === 2 ? 0 : 1;
  if (feature === 'outcome' || feature === 'cost' || feature === 'latency') {
    if (value >= 1) return POSITIONS[feature].best[pair]!;
    if (value <= 0) return POSITIONS[feature].worst[pair]!;
    return 'in between';
  }
  const avoided = (preference.tools[feature] ?? 0) < 0;
  if (value >= 1) return `the ${avoided ? 'fewest' : 'most'} calls to ${feature}`;
  if (value <= 0) return `the ${avoided ? 'most' : 'fewest'} calls to ${feature}`;
  return 'in between';
}

/** What a level figure's cells say: why it is left out. */
function levelCell(feature: string, correct: readonly boolean[]): string {
  if (feature !== 'outcome') return 'left out: the same in every run';
  const all = correct.length === 2 ? 'both' : 'all';
  return correct.every(Boolean) ? `left out: ${all} right` : `left out: ${all} wrong`;
}

/**
 * The terms of the reward that the preference weighs (a figure with weight 0 counts for nothing
 * and is not listed), and each run's reward in words.
 */
export function rewardWords(group: GroupReward, correct: readonly boolean[], preference: PreferenceVector): RewardWords {
  const runs = group.rewards.length;
  const features = [...new Set([...group.normalized.flatMap((values) => Object.keys(values)), ...group.skippedFeatures])];
  const ordered = [...BUILT_IN.filter((name) => features.includes(name)), ...features.filter((name) => !(BUILT_IN as readonly string[]).includes(name)).sort()];
  const terms: RewardTerm[] = ordered
    .filter((feature) => weightOf(feature, preference) > 0)
    .map((feature) => {
      const weight = weightOf(feature, preference);
      const level = group.skippedFeatures.includes(feature);
      return {
        feature,
        label: labelOf(feature, preference),
        heading: `${labelOf(feature, preference)}, weight ${figure(weight)}`,
        weight,
        level,
        cells: group.normalized.map((values) => {
          if (level) return levelCell(feature, correct);
          const value = values[feature] ?? 0;
          return `${figure(weight * value)} of ${figure(weight)} — ${position(feature, value, preference, runs)}`;
        }),
      };
    });
  return { terms, why: group.rewards.map((reward, index) => whyOf(index, reward, terms, group, correct, preference)), scaling: scalingOf(runs) };
}

function whyOf(index: number, reward: number, terms: RewardTerm[], group: GroupReward, correct: readonly boolean[], preference: PreferenceVector): string {
  if (!correct[index]) return 'Wrong: a wrong answer scores 0, whatever it cost or took.';
  const runs = group.rewards.length;
  const counted = terms.filter((term) => !term.level);
  const scored = counted.map((term) => {
    const value = group.normalized[index]?.[term.feature] ?? 0;
    return `${position(term.feature, value, preference, runs)} (+${figure(term.weight * value)})`;
  });
  const among = runs === 2 ? 'of the two' : `of the ${runs}`;
  const head = reward > 1e-9 ? 'Right' : 'Right, but 0';
  const body = scored.length > 0 ? `${scored.join(' and ')} ${among}` : 'nothing this preference weighs tells the runs apart';
  const notes = terms
    .filter((term) => term.level)
    .map((term) =>
      term.feature === 'outcome'
        ? `Being right adds nothing: ${runs === 2 ? 'both runs are right' : `all ${runs} runs are right`}.`
        : `${term.label} is the same in every run, so it is left out.`,
    );
  return [`${head}: ${body}.`, ...notes].join(' ');
}

function scalingOf(runs: number): string {
  const rule = 'Each weighed figure is scaled over the runs compared: the best run gets its whole weight, the worst 0.';
  if (runs === 2) {
    return `${rule} With two runs that is all or nothing, so a right run that is the dearer and the slower scores 0: the reward ranks these runs against each other, it does not grade them. Compare more runs for finer figures.`;
  }
  return `${rule} The reward ranks these runs against each other; it does not grade them.`;
}
