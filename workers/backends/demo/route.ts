// The scripted demo orchestrator's rules, written by hand to show the mechanics (a trained
// orchestrator learns its own): it reads the preference line added to the task and the price and
// latency of each alias from the tool menu, as a model would, and decides by the rules that
// rules.ts states in words.

import { readAliasTable } from '../../engine/protocols/paper.ts';
import type { ToolSchema } from '../../engine/types.ts';

export interface DemoPreference {
  /** Percents as the instruction states them; null when the task carries no preference line. */
  correctness: number;
  cost: number;
  latency: number;
  stated: boolean;
  prefer: string;
  avoid: string;
}

const PREFERENCE_LINE = /(?:^|\n)User preference: ([^\n]*)/;

/** The weights and the prefer/avoid clauses of the preference line (preferences.ts writes it). */
export function readPreference(problem: string): DemoPreference {
  const line = PREFERENCE_LINE.exec(problem)?.[1];
  if (line === undefined) return { correctness: 50, cost: 25, latency: 25, stated: false, prefer: '', avoid: '' };
  const percent = (label: string) => Number(new RegExp(`${label} (\\d{1,3})%`).exec(line)?.[1] ?? 0);
  const clause = (verb: string) => new RegExp(`(?:^|[.;] )${verb} ([^.;]*)`, 'i').exec(line)?.[1] ?? '';
  return {
    correctness: percent('correctness'),
    cost: percent('low cost'),
    latency: percent('low latency'),
    stated: true,
    prefer: clause('prefer'),
    avoid: clause('avoid'),
  };
}

/** Whether `name` is named in a prefer/avoid clause, as a whole word. */
function names(clause: string, name: string): boolean {
  return clause.split(/,? and |, /).some((item) => item.trim() === name);
}

export type Strategy = 'strongest' | 'middle' | 'cheapest' | 'fastest';

export function strategyOf(p: DemoPreference): Strategy {
  if (p.correctness > p.cost + p.latency) return 'strongest';
  if (p.correctness >= p.cost && p.correctness >= p.latency) return 'middle';
  return p.cost >= p.latency ? 'cheapest' : 'fastest';
}

export interface MenuAlias {
  alias: string;
  /** Input plus output price per million tokens; null when the menu says "unknown". */
  price: number | null;
  latencySeconds: number | null;
}

/** The aliases of each tool in the menu, with the figures read back from the text the model reads. */
export function readMenu(tools: readonly ToolSchema[]): Map<string, MenuAlias[]> {
  const menu = new Map<string, MenuAlias[]>();
  for (const tool of tools) {
    const description = (tool.parameters as { properties?: { model?: { description?: unknown } } }).properties?.model?.description;
    if (typeof description !== 'string') continue;
    const figure = (text: string) => {
      const value = Number(text.replace(/[$s]/g, ''));
      return text === 'unknown' || !Number.isFinite(value) ? null : value;
    };
    menu.set(
      tool.name,
      readAliasTable(description).map((row) => {
        const input = figure(row.inputPerM);
        const output = figure(row.outputPerM);
        return { alias: row.alias, price: input === null || output === null ? null : input + output, latencySeconds: figure(row.latency) };
      }),
    );
  }
  return menu;
}

export interface AliasChoice {
  alias: string;
  why: string;
}

/** The alias of `tool` the rules pick, or null when the tool is avoided (or has no aliases). */
export function chooseAlias(tool: string, aliases: readonly MenuAlias[], p: DemoPreference, mustChoose = false): AliasChoice | null {
  if (aliases.length === 0) return null;
  const toolAvoided = names(p.avoid, tool);
  let allowed = toolAvoided ? [] : aliases.filter((a) => !names(p.avoid, a.alias));
  const forced = allowed.length === 0;
  if (forced) {
    if (!mustChoose) return null;
    allowed = [...aliases];
  }
  const preferred = allowed.find((a) => names(p.prefer, a.alias));
  if (preferred) return { alias: preferred.alias, why: `${preferred.alias}, which is preferred` };
  const strategy = strategyOf(p);
  const price = (a: MenuAlias) => a.price ?? Number.POSITIVE_INFINITY;
  const latency = (a: MenuAlias) => a.latencySeconds ?? Number.POSITIVE_INFINITY;
  // Stable sorts: ties keep the menu's order.
  const byPrice = allowed.toSorted((a, b) => price(a) - price(b));
  let pick: MenuAlias;
  if (strategy === 'strongest') pick = byPrice.at(-1)!;
  else if (strategy === 'middle') pick = byPrice[Math.floor((byPrice.length - 1) / 2)]!;
  else if (strategy === 'cheapest') pick = byPrice[0]!;
  else pick = allowed.toSorted((a, b) => latency(a) - latency(b))[0]!;
  const reason = { strongest: 'the priciest, taken as the strongest', middle: 'the middle-priced', cheapest: 'the cheapest', fastest: 'the fastest' }[strategy];
  const avoided = aliases.length > allowed.length ? ' (leaving out what is avoided)' : '';
  const note = forced ? `; every ${tool} alias is avoided, but only ${tool} ends the run` : '';
  return { alias: pick.alias, why: `${pick.alias}, ${reason}${avoided}${note}` };
}

/** Whether the rules run Python before answering. */
export function wantsCode(p: DemoPreference, tools: readonly string[]): boolean {
  if (!tools.includes('enhance_reasoning') || names(p.avoid, 'enhance_reasoning')) return false;
  return names(p.prefer, 'enhance_reasoning') || strategyOf(p) === 'strongest';
}

/** A sentence on how the weights were read. */
export function describePreference(p: DemoPreference): string {
  if (!p.stated) return 'No preference line in the task: I weigh it as balanced.';
  const strategy = strategyOf(p);
  const rule = {
    strongest: 'correctness outweighs cost and latency together, so I take the strongest aliases and check with code',
    middle: 'correctness weighs at least as much as cost and latency, so I take the middle-priced aliases',
    cheapest: 'cost weighs most, so I take the cheapest aliases',
    fastest: 'latency weighs most, so I take the fastest aliases',
  }[strategy];
  return `The preference weighs correctness ${p.correctness}%, low cost ${p.cost}%, low latency ${p.latency}%: ${rule}.`;
}
