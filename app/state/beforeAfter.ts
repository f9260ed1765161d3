// This run against the one before it, for the Task screen and presenter view (issue 24, item 5):
// each one's route, cost and time, the step where the routes part, and the one line of this
// run's reasoning at that step that names what it weighed (price, speed, a right answer). Pure.

import { PREFERENCE_PRESETS, type PreferenceVector } from '../../workers/engine/preferences.ts';
import { columnOfView, firstParting } from './compareModel.ts';
import type { RunView } from './runView.ts';

export interface RouteLine {
  /** Per step, what it called: "search · search-2". */
  route: string[];
  costUsd: number;
  latencyMs: number;
  /** "Cheapest", or the weights: "right 0.5 · cost 0.25 · time 0.25". */
  preference: string;
}

export interface BeforeAfter {
  now: RouteLine;
  before: RouteLine;
  /** The first step (1-based) where the routes differ, or null when they are the same. */
  parting: number | null;
  /** This run's reasoning at that step, the sentence that names a preference; null if it has none. */
  reason: string | null;
}

const PRESET_LABELS: Record<string, string> = { cheapest: 'Cheapest', balanced: 'Balanced', 'best-answer': 'Best answer', fastest: 'Fastest' };

/** Words by which a sentence of reasoning names what the preference weighs. */
const PREFERENCE_WORDS = /\b(cheap\w*|cost\w*|price\w*|pric(?:ed|ey)|spend\w*|budget|fast\w*|quick\w*|latenc\w*|slow\w*|time|accura\w*|correct\w*|right|best|prefer\w*|weigh\w*|dear\w*|expensive)\b/i;

export function preferenceName(preference: PreferenceVector | null | undefined): string {
  if (!preference) return 'no preference';
  for (const [name, preset] of Object.entries(PREFERENCE_PRESETS)) {
    if (preset.outcome === preference.outcome && preset.cost === preference.cost && preset.latency === preference.latency && Object.keys(preference.tools).length === 0) {
      return PRESET_LABELS[name] ?? name;
    }
  }
  const round = (value: number) => String(Math.round(value * 100) / 100);
  return `right ${round(preference.outcome)} · cost ${round(preference.cost)} · time ${round(preference.latency)}`;
}

function lineOf(view: RunView): RouteLine {
  const column = columnOfView(view);
  return { route: column.steps.map((step) => step.chips.join(' + ')), costUsd: column.costUsd, latencyMs: column.latencyMs, preference: preferenceName(view.preference) };
}

/** The sentence of `text` that names a preference (the first such), else null. */
export function preferenceSentence(text: string): string | null {
  const sentences = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  const named = sentences.find((sentence) => PREFERENCE_WORDS.test(sentence));
  if (!named) return null;
  return named.length > 240 ? `${named.slice(0, 239)}…` : named;
}

/** This run (`now`, finished) against `before`; null when either is missing or unfinished. */
export function beforeAfter(now: RunView | null, before: RunView | null): BeforeAfter | null {
  if (!now || !before || now.status !== 'finished' || before.status !== 'finished' || now.runId === before.runId) return null;
  const parting = firstParting([columnOfView(now), columnOfView(before)]);
  const step = now.steps[(parting ?? 1) - 1];
  const reason = step ? preferenceSentence(`${step.reasoning} ${step.content}`) : null;
  return { now: lineOf(now), before: lineOf(before), parting, reason };
}
