// Node-only: reads a shipped τ² or ToolScale domain (workers/domains/<folder>/) and τ²'s user
// simulator guidelines from disk, for `orchestra eval --suite builtin:tau2-retail` and the like;
// τ²'s airline with the database the user names (`--airline-db`), which is not shipped.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileRefused, readRegularFile } from './files.ts';
import { loadTau2Domain, TAU2_DOMAIN_FOLDERS, TAU2_GUIDELINE_FILES, TAU2_USER_FILES, type LoadedTau2Domain, type Tau2DomainName } from '../workers/domains/tau2/domains.ts';
import { AIRLINE_DB_LIMITS } from '../workers/domains/tau2/airline/source.ts';
import { formatCount } from '../workers/engine/format.ts';

const DOMAINS = fileURLToPath(new URL('../workers/domains/', import.meta.url));

/** A shipped file, read as any file of a folder is (cli/files.ts); the largest is 1.2 MB. */
const readShipped = (folder: string, file: string) => readRegularFile(join(folder, file), { maxBytes: 64 * 1024 * 1024, folder });

/** A file the user supplies for a domain is missing or cannot be read. */
export class UserFileError extends Error {
  override name = 'UserFileError';
}

export interface NodeTau2Options {
  /** Where τ²'s airline db.json is (a τ²-Bench checkout's data/tau2/domains/airline/db.json). */
  airlineDb?: string;
}

/** The user's airline database, read as a regular file (cli/files.ts: no FIFO, no /proc file). */
function readUserFile(path: string): string {
  try {
    return readRegularFile(path, {
      maxBytes: AIRLINE_DB_LIMITS.bytes,
      tooLarge: (size) => `it is ${formatCount(size)} bytes; τ²'s is about 7 MB, and at most ${formatCount(AIRLINE_DB_LIMITS.bytes)} are read`,
    });
  } catch (error) {
    if (error instanceof FileRefused) throw new UserFileError(`Cannot read the airline database "${path}": ${error.kind === 'missing' ? 'no such file' : error.reason}.`);
    throw error;
  }
}

export function readTau2Domain(name: Tau2DomainName, options: NodeTau2Options = {}): LoadedTau2Domain {
  const userFiles = TAU2_USER_FILES[name] ?? [];
  if (userFiles.length > 0 && options.airlineDb === undefined) {
    throw new UserFileError(
      "τ²-Bench's airline needs its database, which the playground does not ship: --airline-db <path to data/tau2/domains/airline/db.json in a τ²-Bench checkout> (docs/evaluation.md says where to get it).",
    );
  }
  const user = options.airlineDb === undefined ? undefined : readUserFile(options.airlineDb);
  return loadTau2Domain(name, (file) => (userFiles.includes(file) ? user! : readShipped(join(DOMAINS, TAU2_DOMAIN_FOLDERS[name]), file)), {
    ...(options.airlineDb === undefined ? {} : { userFileNames: { 'db.json': options.airlineDb } }),
  });
}

export function readTau2Guidelines(): { plain: string; tools: string } {
  const read = (file: string) => readShipped(join(DOMAINS, 'tau2'), file);
  return { plain: read(TAU2_GUIDELINE_FILES.plain), tools: read(TAU2_GUIDELINE_FILES.tools) };
}
