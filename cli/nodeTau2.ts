// Node-only: reads a shipped τ² or ToolScale domain (workers/domains/<folder>/) and τ²'s user
// simulator guidelines from disk, for `orchestra eval --suite builtin:tau2-retail` and the like;
// τ²'s airline with the database the user names (`--airline-db`), which is not shipped.

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTau2Domain, TAU2_DOMAIN_FOLDERS, TAU2_GUIDELINE_FILES, TAU2_USER_FILES, type LoadedTau2Domain, type Tau2DomainName } from '../workers/domains/tau2/domains.ts';
import { AIRLINE_DB_LIMITS } from '../workers/domains/tau2/airline/source.ts';
import { formatCount } from '../workers/engine/format.ts';

const DOMAINS = fileURLToPath(new URL('../workers/domains/', import.meta.url));

/** A file the user supplies for a domain is missing or cannot be read. */
export class UserFileError extends Error {
  override name = 'UserFileError';
}

export interface NodeTau2Options {
  /** Where τ²'s airline db.json is (a τ²-Bench checkout's data/tau2/domains/airline/db.json). */
  airlineDb?: string;
}

function readUserFile(path: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UserFileError(`Cannot read the airline database "${path}": ${reason}.`);
  }
  if (size > AIRLINE_DB_LIMITS.bytes) throw new UserFileError(`The airline database "${path}" is ${formatCount(size)} bytes; τ²'s is about 7 MB, and at most ${formatCount(AIRLINE_DB_LIMITS.bytes)} are read.`);
  return readFileSync(path, 'utf8');
}

export function readTau2Domain(name: Tau2DomainName, options: NodeTau2Options = {}): LoadedTau2Domain {
  const userFiles = TAU2_USER_FILES[name] ?? [];
  if (userFiles.length > 0 && options.airlineDb === undefined) {
    throw new UserFileError(
      "τ²-Bench's airline needs its database, which the playground does not ship: --airline-db <path to data/tau2/domains/airline/db.json in a τ²-Bench checkout> (docs/evaluation.md says where to get it).",
    );
  }
  const user = options.airlineDb === undefined ? undefined : readUserFile(options.airlineDb);
  return loadTau2Domain(name, (file) => (userFiles.includes(file) ? user! : readFileSync(join(DOMAINS, TAU2_DOMAIN_FOLDERS[name], file), 'utf8')), {
    ...(options.airlineDb === undefined ? {} : { userFileNames: { 'db.json': options.airlineDb } }),
  });
}

export function readTau2Guidelines(): { plain: string; tools: string } {
  const read = (file: string) => readFileSync(join(DOMAINS, 'tau2', file), 'utf8');
  return { plain: read(TAU2_GUIDELINE_FILES.plain), tools: read(TAU2_GUIDELINE_FILES.tools) };
}
