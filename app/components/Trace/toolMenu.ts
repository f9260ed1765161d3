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
  chosen: boolean;
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

function priceNote(row: string | undefined): string {
  if (!row) return '';
  const [input, output, latency] = row.split(' | ');
  return `${input ?? 'unknown'} in / ${output ?? 'unknown'} out per million tokens, about ${latency ?? 'unknown'}`;
}

/** The tools on offer (`offered` names, or all of `tools` when null), one entry per alias. */
export function menuChoices(tools: readonly ToolSchema[], offered: readonly string[] | null, chosen: readonly ChosenCall[]): MenuChoice[] {
  const onOffer = offered ? tools.filter((tool) => offered.includes(tool.name)) : tools;
  return onOffer.flatMap((tool): MenuChoice[] => {
    const parameter = aliasParameter(tool);
    if (!parameter) {
      return [{ tool: tool.name, alias: null, about: tool.description, chosen: chosen.some((call) => call.name === tool.name) }];
    }
    return parameter.aliases.map((alias) => {
      const note = priceNote(parameter.rows.get(alias));
      return {
        tool: tool.name,
        alias,
        about: note ? `${tool.description}\n${alias}: ${note}` : tool.description,
        chosen: chosen.some((call) => call.name === tool.name && call.alias === alias),
      };
    });
  });
}
