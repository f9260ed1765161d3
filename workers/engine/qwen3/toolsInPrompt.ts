// Reading back the tool list that render.ts writes into a system turn (one OpenAI function object
// per line between `<tools>` and `</tools>`): the local backends constrain a reply to those tools.

import type { ChatRequest, ToolSchema } from '../types.ts';

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

/** The tools a local backend constrains a reply to: the request's own, or else those its system
 * turn lists (a prompted protocol writes them there); undefined when there are none. */
export function toolsToConstrain(request: ChatRequest): ToolSchema[] | undefined {
  const tools = request.tools ?? [];
  const first = request.messages[0];
  return tools.length > 0 ? tools : first?.role === 'system' ? toolsFromSystemPrompt(first.content) : undefined;
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
