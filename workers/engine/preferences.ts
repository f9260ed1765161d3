// The user's preference vector (what the reward weighs) and the instruction derived from it.
// Checking an untrusted vector needs zod: that is preferenceSchema.ts, kept apart so the page's
// sliders do not load it.

export interface PreferenceVector {
  /** Weight of a correct answer, 0..1. */
  outcome: number;
  /** Weight of a low cost, 0..1. */
  cost: number;
  /** Weight of a low latency, 0..1. */
  latency: number;
  /** Per tool name or alias: -1 (avoid) .. +1 (prefer). */
  tools: Record<string, number>;
}

export type PreferencePresetName = 'cheapest' | 'balanced' | 'best-answer' | 'fastest';

export const PREFERENCE_PRESETS: Record<PreferencePresetName, PreferenceVector> = {
  cheapest: { outcome: 0.3, cost: 0.6, latency: 0.1, tools: {} },
  balanced: { outcome: 0.5, cost: 0.25, latency: 0.25, tools: {} },
  'best-answer': { outcome: 1, cost: 0, latency: 0, tools: {} },
  fastest: { outcome: 0.3, cost: 0.1, latency: 0.6, tools: {} },
};

/** A cost weight w as a preference vector: outcome 1 − w, cost w, latency 0 (a sweep's grid). */
export function costWeightPreference(w: number): PreferenceVector {
  return { outcome: Number((1 - w).toFixed(6)), cost: w, latency: 0, tools: {} };
}

export type ObjectivePercents = Record<'outcome' | 'cost' | 'latency', number>;

/**
 * The three objectives' split among themselves, as whole percents that sum to 100 (all 0 when
 * none is weighted). The instruction states exactly these, and the sliders show them: tool and
 * alias weights are not part of the split (they become "prefer" / "avoid" lists).
 */
export function objectivePercents(p: PreferenceVector): ObjectivePercents {
  const [outcome = 0, cost = 0, latency = 0] = wholePercents([Math.abs(p.outcome), Math.abs(p.cost), Math.abs(p.latency)]);
  return { outcome, cost, latency };
}

const OBJECTIVE_LABELS = [
  ['outcome', 'correctness'],
  ['cost', 'low cost'],
  ['latency', 'low latency'],
] as const;

/**
 * The sentence the engine appends to the task so the orchestrator sees the user's preference.
 *
 * This wording is the playground's own: the paper (arXiv 2511.21689) uses the preference vector
 * only in its reward and publishes no prompt text for it. The objectives' shares are rounded to
 * whole percents that sum to 100; tool weights become plain "prefer" / "avoid" lists, strongest
 * first. Returns null when nothing is weighted.
 */
export function preferenceInstruction(p: PreferenceVector): string | null {
  const percents = objectivePercents(p);
  const priorities = OBJECTIVE_LABELS.map(([key, label]) => ({ label, percent: percents[key] }))
    .filter((objective) => objective.percent > 0)
    .map((objective) => `${objective.label} ${objective.percent}%`);

  const tools = Object.entries(p.tools)
    .filter(([, w]) => w !== 0)
    .sort(([a, wa], [b, wb]) => Math.abs(wb) - Math.abs(wa) || (a < b ? -1 : a > b ? 1 : 0));
  const preferred = tools.filter(([, w]) => w > 0).map(([key]) => key);
  const avoided = tools.filter(([, w]) => w < 0).map(([key]) => key);

  const parts: string[] = [];
  if (priorities.length > 0) parts.push(`Weigh ${priorities.join(', ')}.`);
  const toolClauses = [
    ...(preferred.length > 0 ? [`prefer ${listInWords(preferred)}`] : []),
    ...(avoided.length > 0 ? [`avoid ${listInWords(avoided)}`] : []),
  ];
  if (toolClauses.length > 0) {
    const sentence = toolClauses.join('; ');
    parts.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
  }
  if (parts.length === 0) return null;
  return `User preference: ${parts.join(' ')}`;
}

/** Whole percents of the weights that sum to exactly 100 (largest remainder; ties go to the
 * earlier weight), or all zeros when every weight is zero. */
function wholePercents(weights: number[]): number[] {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w / total) * 100);
  const floors = exact.map(Math.floor);
  let missing = 100 - floors.reduce((sum, f) => sum + f, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (missing <= 0) break;
    floors[index] = (floors[index] ?? 0) + 1;
    missing -= 1;
  }
  return floors;
}

function listInWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
