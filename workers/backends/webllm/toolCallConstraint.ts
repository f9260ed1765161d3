// Constrained decoding for `<tool_call>` blocks (web-llm's `response_format` of type
// `structural_tag`, compiled by xgrammar): text stays free, but once the model writes
// `<tool_call>` it must finish a call to one of the listed tools with arguments that match that
// tool's schema. It helps small models that otherwise write broken calls.
//
// Shape, as web-llm 0.2.86 hands it to xgrammar (see structuralTagFromLegacy in its bundle):
//   { type: "structural_tag", format: { type: "triggered_tags", triggers: [...],
//     tags: [{ type: "tag", begin, content: { type: "json_schema", json_schema }, end }] } }

import type { ToolSchema } from '../../engine/types.ts';

const TRIGGER = '<tool_call>';

/** Qwen3's call format (render.ts formatToolCall): `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`. */
export function toolCallStructuralTag(tools: readonly ToolSchema[]): Record<string, unknown> {
  return {
    type: 'structural_tag',
    format: {
      type: 'triggered_tags',
      triggers: [TRIGGER],
      tags: tools.map((tool) => ({
        type: 'tag',
        begin: `${TRIGGER}\n{"name": ${JSON.stringify(tool.name)}, "arguments": `,
        content: { type: 'json_schema', json_schema: tool.parameters },
        end: '}\n</tool_call>',
      })),
    },
  };
}

/** The tools listed in a system turn that qwen3/render.ts wrote (one OpenAI function object per
 * line between `<tools>` and `</tools>`). Undefined when there is no such list or any line of
 * it does not read back, so a request is never constrained to the wrong tools. */
export function toolsFromSystemPrompt(system: string): ToolSchema[] | undefined {
  const start = system.indexOf('\n<tools>\n');
  if (start < 0) return undefined;
  const end = system.indexOf('\n</tools>', start);
  if (end < 0) return undefined;
  const lines = system.slice(start + '\n<tools>\n'.length, end).split('\n');
  const tools: ToolSchema[] = [];
  for (const line of lines) {
    const tool = readToolLine(line);
    if (!tool) return undefined;
    tools.push(tool);
  }
  return tools.length > 0 ? tools : undefined;
}

function readToolLine(line: string): ToolSchema | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || parsed.type !== 'function' || !isRecord(parsed.function)) return undefined;
  const { name, description, parameters } = parsed.function;
  if (typeof name !== 'string' || name === '') return undefined;
  return {
    name,
    description: typeof description === 'string' ? description : '',
    parameters: isRecord(parameters) ? parameters : {},
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
