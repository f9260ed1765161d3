// The tools offered in the function-calling protocol: the built-in ones a config names, each made
// by its descriptor in the tool registry (tools/registry.ts) from the host's parts, then the user's
// own custom tools.

import type { CustomToolConfig } from '../workers/engine/config.ts';
import type { JavaScriptRunner } from '../workers/engine/ports.ts';
import { missingNeeds, TOOL_NEED_WORDS, type ToolHost, type ToolKind, type ToolNeed } from '../workers/engine/toolKind.ts';
import type { Tool } from '../workers/engine/types.ts';
import { createCustomTool } from './custom/customTool.ts';
import { TOOL_KINDS, toolKind } from './registry.ts';

function needsError(what: string, need: ToolNeed): Error {
  return new Error(`${what} needs ${TOOL_NEED_WORDS[need]}, which this environment does not provide.`);
}

function createBuiltIn(name: string, host: ToolHost, kinds: readonly ToolKind[]): Tool {
  const kind = toolKind(name, kinds);
  if (!kind) throw new Error(`No built-in tool is named "${name}".`);
  const [missing] = missingNeeds(kind, host);
  if (missing) throw needsError(`The tool "${name}"`, missing);
  // Every part the tool needs is there (missingNeeds found none).
  return kind.create(host as Parameters<ToolKind['create']>[0]);
}

function requireJavaScript(host: ToolHost, what: string): JavaScriptRunner {
  if (host.javascript) return host.javascript;
  throw needsError(what, 'javascript');
}

/** The built-in tools named in the config (of `kinds`: the registry's), then the enabled custom tools. */
export function createFunctionCallingTools(
  names: readonly string[],
  host: ToolHost,
  customTools: readonly CustomToolConfig[] = [],
  kinds: readonly ToolKind[] = TOOL_KINDS,
): Tool[] {
  const code = { timeoutMs: host.codeTimeoutMs, usdPerSecond: host.codeUsdPerSecond };
  const builtIn = names.map((name) => createBuiltIn(name, host, kinds));
  const custom = customTools
    .filter((tool) => tool.enabled)
    .map((tool) => createCustomTool(tool, requireJavaScript(host, `The custom tool "${tool.name}"`), code));
  return [...builtIn, ...custom];
}
