// What an import keeps of config text, once checked: its size, JSON, bounds and schema, then the
// JSON value as written. Run in configImport.worker.ts, off the page's thread, whatever the size.

import { ConfigError, readConfigJson, type CustomToolConfig } from '../../engine/config.ts';
import { parseConfig } from '../config.ts';

export type ConfigImportReply =
  /** `draft` is the file's JSON value without its custom tools, which come parsed. */
  | { ok: true; draft: Record<string, unknown>; customTools: CustomToolConfig[] }
  | { ok: false; problems: string[] };

/** Checks config text and returns what an import keeps of it, or every problem. */
/** What the config import worker (configImport.worker.ts) is asked. */
export type ConfigImportRequests = { read_config: { body: { text: string }; reply: ConfigImportReply } };

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
