// The menu the orchestrator chose from, as (tool, alias) choices. The paper protocol's tools (and
// `call_expert`) take the alias as a string parameter whose description lists
// "Choices: ['a', 'b']" and a price table (see describeAliases in workers/engine/protocols/paper.ts);
// other tools are one choice each.

import type { ToolSchema } from '../../../workers/engine/types.ts';

export interface MenuChoice {
  tool: string;
  alias: string | null;
  /** What the orchestrator read about this choice: the tool's description, the alias's prices. */
  about: string;
  /** The alias's figures as the menu states them (presenter view shows them on the chip); null
   * for a tool without aliases. */
  figures: AliasFigures | null;
  chosen: boolean;
}

export interface AliasFigures {
  /** Dollars per million input and output tokens: "$1.25 / $10", or "unknown". */
  price: string;
  /** Its average latency: "20s", or "unknown". */
  latency: string;
}

export interface ChosenCall {
  name: string;
  alias?: string;
}

interface AliasParameter {
  aliases: string[];
  /** alias → its row of the price table ("$0.25 | $2 | 3s"). */
  rows: Map<string, string>;
}

const CHOICES = /Choices: \[([^\]]*)\]/;

function aliasParameter(tool: ToolSchema): AliasParameter | null {
  const properties = tool.parameters.properties;
  if (typeof properties !== 'object' || properties === null) return null;
  for (const property of Object.values(properties as Record<string, unknown>)) {
    if (typeof property !== 'object' || property === null) continue;
    const description = (property as { description?: unknown }).description;
    if (typeof description !== 'string') continue;
    const list = CHOICES.exec(description)?.[1];
    if (list === undefined) continue;
    const aliases = [...list.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '').filter(Boolean);
    if (aliases.length === 0) continue;
    const rows = new Map<string, string>();
    for (const line of description.split('\n')) {
      const [name, ...cells] = line.split(' | ');
      if (name && aliases.includes(name) && cells.length > 0) rows.set(name, cells.join(' | '));
    }
    return { aliases, rows };
  }
  return null;
}

function rowCells(row: string | undefined): { input: string; output: string; latency: string } | null {
  if (!row) return null;
  const [input = 'unknown', output = 'unknown', latency = 'unknown'] = row.split(' | ');
  return { input, output, latency };
}

function priceNote(row: string | undefined): string {
  const cells = rowCells(row);
  return cells ? `${cells.input} in / ${cells.output} out per million tokens, about ${cells.latency}` : '';
}

function aliasFigures(row: string | undefined): AliasFigures {
  const cells = rowCells(row);
  if (!cells) return { price: 'unknown', latency: 'unknown' };
  const price = cells.input === 'unknown' && cells.output === 'unknown' ? 'unknown' : `${cells.input} / ${cells.output}`;
  return { price, latency: cells.latency };
}

/** The tools on offer (`offered` names, or all of `tools` when null), one entry per alias. */
export function menuChoices(tools: readonly ToolSchema[], offered: readonly string[] | null, chosen: readonly ChosenCall[]): MenuChoice[] {
  const onOffer = offered ? tools.filter((tool) => offered.includes(tool.name)) : tools;
  return onOffer.flatMap((tool): MenuChoice[] => {
    const parameter = aliasParameter(tool);
    if (!parameter) {
      return [{ tool: tool.name, alias: null, about: tool.description, figures: null, chosen: chosen.some((call) => call.name === tool.name) }];
    }
    return parameter.aliases.map((alias) => {
      const note = priceNote(parameter.rows.get(alias));
      return {
        tool: tool.name,
        alias,
        about: note ? `${tool.description}\n${alias}: ${note}` : tool.description,
        figures: aliasFigures(parameter.rows.get(alias)),
        chosen: chosen.some((call) => call.name === tool.name && call.alias === alias),
      };
    });
  });
}
