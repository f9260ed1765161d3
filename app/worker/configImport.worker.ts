/// <reference lib="webworker" />
// Reads an imported config file off the page's thread: its size, JSON, bounds and schema are
// checked here, so a hostile file (12,000 providers, deep nesting) cannot stall the page. Only a
// config that passed every check goes back, as the JSON value it was written as.

import { ConfigError, parseConfig, readConfigJson } from '../../workers/engine/config.ts';
import type { ConfigImportReply } from './configImport.ts';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (message: MessageEvent<{ text: string }>) => {
  let reply: ConfigImportReply;
  try {
    const value = readConfigJson(message.data.text);
    const { customTools } = parseConfig(value);
    // The file's custom tools go to their own store; the draft keeps the rest as written.
    const { customTools: _customTools, ...draft } = value as Record<string, unknown>;
    reply = { ok: true, draft, customTools };
  } catch (error) {
    reply = { ok: false, problems: error instanceof ConfigError ? error.problems : [(error as Error).message] };
  }
  self.postMessage(reply);
};
