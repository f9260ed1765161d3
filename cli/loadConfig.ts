// Reads and validates a configuration file; every failure becomes a UsageError (exit code 2).

import { ConfigError, type OrchestraConfig } from '../workers/engine/config.ts';
import { CONFIG_LIMITS } from '../workers/engine/configBasics.ts';
import { readNamedFile } from './files.ts';
import { parseConfigText } from '../workers/hosts/config.ts';
import { UsageError } from './usage.ts';

export async function loadConfig(path: string): Promise<OrchestraConfig> {
  // A character is at most 4 bytes of UTF-8; the parser checks the characters.
  const text = readNamedFile(path, 'the configuration file', { maxBytes: CONFIG_LIMITS.fileChars * 4 });
  try {
    return parseConfigText(text);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`${path}: ${error.message}`);
    throw error;
  }
}
