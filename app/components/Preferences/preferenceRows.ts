// What the preference sliders weigh, in plain words, and which tools and aliases of the current
// config get a slider. Pure: the panel renders these, tests check them.

import type { OrchestraConfig } from '../../../workers/engine/config.ts';
import { CALL_EXPERT_TOOL, PAPER_TOOLS } from '../../../workers/engine/configBasics.ts';
import { protocolExperts } from '../../../workers/engine/configExperts.ts';
import type { PreferencePresetName } from '../../../workers/engine/preferences.ts';
import type { ObjectiveName } from '../../state/preferencesStore.ts';

export const PRESETS: ReadonlyArray<{ name: PreferencePresetName; label: string; hint: string }> = [
  { name: 'cheapest', label: 'Cheapest', hint: 'spend as little as possible' },
  { name: 'balanced', label: 'Balanced', hint: 'a right answer first, then cost and time' },
  { name: 'best-answer', label: 'Best answer', hint: 'only a right answer counts' },
  { name: 'fastest', label: 'Fastest', hint: 'answer as soon as possible' },
];

export const OBJECTIVES: ReadonlyArray<{ name: ObjectiveName; label: string; hint: string }> = [
  { name: 'outcome', label: 'Correct answer', hint: 'how much getting it right matters' },
  { name: 'cost', label: 'Low cost', hint: 'how much spending less matters' },
  { name: 'latency', label: 'Low latency', hint: 'how much a quick answer matters' },
];

/** A tool or alias the user can weigh from avoid (-1) to prefer (+1). */
export interface WeighedTarget {
  name: string;
  kind: 'tool' | 'alias';
  /** The model behind an alias. */
  model?: string;
  description?: string;
}

export interface TargetGroup {
  tool: WeighedTarget;
  aliases: WeighedTarget[];
}

export interface WeighedTargets {
  groups: TargetGroup[];
  /** Weighted names the current config does not have (kept from an import or an older setup). */
  others: WeighedTarget[];
}

/**
 * The tools the orchestrator of `config` is offered, each with the aliases behind it: the paper's
 * three tools and their experts, or the function-calling tools and `call_expert` with its
 * experts. With no valid config only the names already weighted are listed.
 */
export function weighedTargets(config: OrchestraConfig | null, weights: Readonly<Record<string, number>>): WeighedTargets {
  const groups: TargetGroup[] = [];
  if (config) {
    const experts = protocolExperts(config);
    const aliasesOf = (tool: string): WeighedTarget[] =>
      experts
        .filter(([, expert]) => expert.tool === tool)
        .map(([alias, expert]) => ({ name: alias, kind: 'alias', model: expert.model, description: expert.description || undefined }));
    if (config.protocol === 'paper') {
      for (const tool of PAPER_TOOLS) groups.push({ tool: { name: tool, kind: 'tool' }, aliases: aliasesOf(tool) });
    } else {
      for (const tool of config.functionCalling.tools) groups.push({ tool: { name: tool, kind: 'tool' }, aliases: [] });
      for (const tool of config.customTools.filter((custom) => custom.enabled)) {
        groups.push({ tool: { name: tool.name, kind: 'tool', description: tool.description || undefined }, aliases: [] });
      }
      const callExperts = aliasesOf(CALL_EXPERT_TOOL);
      if (callExperts.length > 0) groups.push({ tool: { name: CALL_EXPERT_TOOL, kind: 'tool' }, aliases: callExperts });
    }
  }
  const listed = new Set(groups.flatMap((group) => [group.tool.name, ...group.aliases.map((alias) => alias.name)]));
  const others = Object.keys(weights)
    .filter((name) => !listed.has(name))
    .sort()
    .map((name): WeighedTarget => ({ name, kind: 'tool' }));
  return { groups, others };
}

/** A tool weight in words: "neutral", "slightly prefer", "prefer", "strongly avoid"… */
export function describeToolWeight(weight: number): string {
  if (weight === 0) return 'neutral';
  const direction = weight > 0 ? 'prefer' : 'avoid';
  const strength = Math.abs(weight);
  if (strength < 0.4) return `slightly ${direction}`;
  if (strength >= 0.8) return `strongly ${direction}`;
  return direction;
}

/** A weight for display: 0.5 → "0.5", -0.3 → "−0.3", 0.25 → "0.25". */
export function formatWeight(weight: number, signed = false): string {
  const rounded = Math.round(weight * 100) / 100;
  const text = String(Math.abs(rounded));
  if (rounded < 0) return `−${text}`;
  return signed && rounded > 0 ? `+${text}` : text;
}
