// The custom tools this browser keeps (IndexedDB, see customToolsDb.ts): reading stored records
// back through the config's own schema, and combining lists by tool name, which is unique.

import type { CustomToolConfig } from '../../workers/engine/config.ts';

/** A custom tool as kept here: the config's fields plus an id that survives renaming. */
export interface StoredCustomTool extends CustomToolConfig {
  id: string;
}

export function newToolId(): string {
  return crypto.randomUUID();
}

/** The stored records that are still valid tools; `skipped` counts the rest (an older or damaged
 * record). The config's schema (zod) is loaded here, not with the first screen. */
export async function readRecords(values: readonly unknown[]): Promise<{ tools: StoredCustomTool[]; skipped: number }> {
  const { customToolSchema } = await import('../../workers/engine/config.ts');
  const tools: StoredCustomTool[] = [];
  const names = new Set<string>();
  for (const value of values) {
    const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
    const { id: _id, ...fields } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const parsed = customToolSchema.safeParse(fields);
    if (typeof id !== 'string' || !parsed.success || names.has(parsed.data.name)) continue;
    names.add(parsed.data.name);
    tools.push({ id, ...parsed.data });
  }
  return { tools, skipped: values.length - tools.length };
}

/** `incoming` laid over `base`: a tool of the same name is replaced in place (keeping its id),
 * new ones are added at the end. */
export function upsertByName(base: readonly StoredCustomTool[], incoming: readonly CustomToolConfig[]): StoredCustomTool[] {
  const result = [...base];
  for (const tool of incoming) {
    const index = result.findIndex((existing) => existing.name === tool.name);
    const id = 'id' in tool && typeof tool.id === 'string' ? tool.id : (result[index]?.id ?? newToolId());
    const stored: StoredCustomTool = { id, ...toConfig(tool) };
    if (index === -1) result.push(stored);
    else result[index] = stored;
  }
  return result;
}

/** The fields that go into a config file. */
export function toConfig(tool: CustomToolConfig): CustomToolConfig {
  return { name: tool.name, description: tool.description, parameters: tool.parameters, code: tool.code, enabled: tool.enabled };
}
