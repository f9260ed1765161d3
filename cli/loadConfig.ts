// Reads and validates a configuration file; every failure becomes a UsageError (exit code 2).

import { readFile } from 'node:fs/promises';
import { ConfigError, type OrchestraConfig } from '../workers/engine/config.ts';
import { parseConfigText } from '../workers/hosts/config.ts';
import { UsageError } from './usage.ts';

export async function loadConfig(path: string): Promise<OrchestraConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`Cannot read the configuration file "${path}": ${reason}.`);
  }
  try {
    return parseConfigText(text);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`${path}: ${error.message}`);
    throw error;
  }
}
