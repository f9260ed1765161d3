// What an import keeps of config text, once checked: its size, JSON, bounds and schema, then the
// JSON value as written. Run on the page's thread for a small file and in configImport.worker.ts
// for a large one (configImport.ts chooses).

import { ConfigError, readConfigJson, type CustomToolConfig } from '../../engine/config.ts';
import { parseConfig } from '../config.ts';

export type ConfigImportReply =
  /** `draft` is the file's JSON value without its custom tools, which come parsed. */
  | { ok: true; draft: Record<string, unknown>; customTools: CustomToolConfig[] }
  | { ok: false; problems: string[] };

/** Checks config text and returns what an import keeps of it, or every problem. */
export function readConfig(text: string): ConfigImportReply {
  try {
    const value = readConfigJson(text);
    const { customTools } = parseConfig(value);
    // The file's custom tools go to their own store; the draft keeps the rest as written.
    const { customTools: _customTools, ...draft } = value as Record<string, unknown>;
    return { ok: true, draft, customTools };
  } catch (error) {
    return { ok: false, problems: error instanceof ConfigError ? error.problems : [(error as Error).message] };
  }
}
