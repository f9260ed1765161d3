// "You are the orchestrator": a ChatModel whose turns a person takes. Each turn it asks, with the
// same tool menu the model would be offered and the same prompt it would read, which tool and
// alias to call (and, if the person likes, the search query or the code they wrote themselves),
// and answers as a server that parsed a tool call would. Everything else — the protocol, the
// context rebuilt each turn, the ledger, the limits — is the engine, unchanged.

import { readAliasTable } from './protocols/paper.ts';
import type { AliasRow, ChatModel, HumanChoice, HumanTurn, ToolSchema } from './types.ts';
import { formatCount } from './format.ts';
import { HUMAN_ORCHESTRATOR_MODEL } from './events.ts';

/** The longest query or code a person may write for one turn. */
export const MAX_WRITTEN_CHARS = 20_000;

export { HUMAN_ORCHESTRATOR_MODEL };

/** Asks the person for a turn; rejects when `signal` aborts (the run was stopped). */
export type AskHuman = (turn: HumanTurn, signal: AbortSignal | undefined) => Promise<HumanChoice>;

const WRITABLE: Partial<Record<string, 'query' | 'code'>> = { search: 'query', enhance_reasoning: 'code' };

export function createHumanOrchestrator(ask: AskHuman): ChatModel {
  let turns = 0;
  return {
    model: HUMAN_ORCHESTRATOR_MODEL,
    label: 'you (manual)',
    // The menu arrives structured (request.tools) and the choice goes back as a parsed call.
    supportsServerTools: true,
    async complete(request) {
      const started = performance.now();
      const turnId = `turn-${++turns}`;
      const tools = request.tools ?? [];
      const menu = tools.map((tool) => ({ name: tool.name, description: tool.description, aliases: aliasRows(tool), ...(WRITABLE[tool.name] ? { writable: WRITABLE[tool.name] } : {}) }));
      const choice = await ask({ turnId, menu, tools, messages: request.messages }, request.signal);
      return {
        content: '',
        toolCalls: [{ id: turnId, name: choice.name, arguments: JSON.stringify(choice.arguments) }],
        usage: { promptTokens: 0, completionTokens: 0 },
        finishReason: 'tool_calls',
        model: HUMAN_ORCHESTRATOR_MODEL,
        latencyMs: Math.round(performance.now() - started),
      };
    },
  };
}

/** The aliases a tool's `model` parameter offers, as rows of its price table. */
function aliasRows(tool: ToolSchema): AliasRow[] {
  const model = (tool.parameters as { properties?: { model?: { description?: unknown } } }).properties?.model;
  return typeof model?.description === 'string' ? readAliasTable(model.description) : [];
}

/** Checks a choice that came from the page against the turn's menu (it crossed a boundary). */
export function checkHumanChoice(value: unknown, tools: readonly ToolSchema[]): { ok: true; choice: HumanChoice } | { ok: false; problem: string } {
  const choice = value as { name?: unknown; arguments?: unknown } | null;
  const tool = tools.find((t) => t.name === choice?.name);
  if (!tool) return { ok: false, problem: `Choose one of the tools: ${tools.map((t) => t.name).join(', ')}.` };
  const args = choice?.arguments;
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { ok: false, problem: 'The choice had no arguments.' };
  const { model, ...rest } = args as Record<string, unknown>;
  const aliases = aliasRows(tool).map((row) => row.alias);
  if (typeof model !== 'string' || !aliases.includes(model)) return { ok: false, problem: `Choose one of ${tool.name}'s models: ${aliases.join(', ')}.` };
  const writable = WRITABLE[tool.name];
  const written: Record<string, string> = {};
  for (const [key, text] of Object.entries(rest)) {
    if (key !== writable || typeof text !== 'string') return { ok: false, problem: `${tool.name} takes no "${key}" here.` };
    if (text.length > MAX_WRITTEN_CHARS) return { ok: false, problem: `Keep the ${key} under ${formatCount(MAX_WRITTEN_CHARS)} characters.` };
    if (text.trim()) written[key] = text;
  }
  return { ok: true, choice: { name: tool.name, arguments: { model, ...written } } };
}
