// The config schema in use: the engine's format (workers/engine/config.ts) with the registries'
// names, every backend kind (workers/backends/registry.ts) and every built-in tool
// (by name: tools/toolNames.ts, which loads no tool). The page, the workers and the CLI read configs through here.

import { BACKEND_KINDS } from '../backends/registry.ts';
import { createConfigSchema, parseConfigWith, readConfigJson, type OrchestraConfig } from '../engine/config.ts';
import { TOOL_NAMES } from '../../tools/toolNames.ts';

export const configSchema = createConfigSchema({ providerKinds: BACKEND_KINDS, tools: TOOL_NAMES });

/** Validates a parsed JSON value. Every problem names the field and says what is wrong. */
export function parseConfig(value: unknown): OrchestraConfig {
  return parseConfigWith(configSchema, value);
}

/** Reads config text (JSON). A syntax error says where. */
export function parseConfigText(text: string): OrchestraConfig {
  return parseConfig(readConfigJson(text));
}
