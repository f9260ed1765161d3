// Every built-in tool, in the order a config's `functionCalling.tools` may list them. A new tool is a
// folder beside these (its tool.ts: a ToolKind, workers/engine/toolKind.ts) and one line here
// (docs/configuration.md, "Function calling").

import { CALL_EXPERT_TOOL } from '../workers/engine/configBasics.ts';
import type { ToolKind } from '../workers/engine/toolKind.ts';
import { calculatorTool } from './calculator/tool.ts';
import { runJavaScriptTool } from './javascript/tool.ts';
import { runPythonTool } from './python/tool.ts';
import { searchCorpusTool } from './search/tool.ts';
import { TOOL_NAMES } from './toolNames.ts';

export const TOOL_KINDS: readonly ToolKind[] = [searchCorpusTool, runPythonTool, runJavaScriptTool, calculatorTool];

/** The built-in tools' names: what a config's `functionCalling.tools` may list (kept apart from
 * the tools' code in toolNames.ts, for hosts that read configs without loading a tool). */
export { TOOL_NAMES };

/** The names a custom tool may not take: the built-in tools' and call_expert. */
export const BUILT_IN_TOOL_NAMES: readonly string[] = [...TOOL_NAMES, CALL_EXPERT_TOOL];

/** The descriptor of a tool, or undefined for a name no tool has. */
export function toolKind(name: string, kinds: readonly ToolKind[] = TOOL_KINDS): ToolKind | undefined {
  return kinds.find((kind) => kind.name === name);
}
