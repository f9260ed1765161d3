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
