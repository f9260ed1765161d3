// Node-only: reads a domain's files from a folder (the built-in ones live next to this file).
// Sizes are checked before anything is read.

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_IN_DOMAINS, type BuiltInDomain } from '../workers/eval/builtInSuites.ts';
import { DOMAIN_FILE_NAMES, DOMAIN_LIMITS, DomainError, parseDomain, type Domain, type DomainFiles } from '../workers/domains/domain.ts';
import { formatCount } from '../workers/engine/format.ts';

export { BUILT_IN_DOMAINS };

const HERE = fileURLToPath(new URL('../workers/domains/', import.meta.url));

/** The folder of a built-in domain. */
export function builtInDomainDir(name: BuiltInDomain): string {
  return join(HERE, name);
}

/** At most this many bytes per file (tasks.jsonl is capped by the suite's own limit). */
const FILE_BYTES: Record<keyof DomainFiles, number> = {
  manifest: DOMAIN_LIMITS.manifestChars * 4,
  policy: DOMAIN_LIMITS.policyChars * 4,
  db: DOMAIN_LIMITS.dbChars * 4,
  tools: DOMAIN_LIMITS.toolsChars * 4,
  tasks: 20_000_000,
};

export function readDomainFiles(dir: string): DomainFiles {
  const read = (file: keyof DomainFiles): string => {
    const path = join(dir, DOMAIN_FILE_NAMES[file]);
    let size: number;
    try {
      size = statSync(path).size;
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message;
      throw new DomainError(dir, [`${DOMAIN_FILE_NAMES[file]} cannot be read: ${reason}`]);
    }
    if (size > FILE_BYTES[file]) {
      throw new DomainError(dir, [`${DOMAIN_FILE_NAMES[file]} is ${formatCount(size)} bytes; at most ${formatCount(FILE_BYTES[file])}`]);
    }
    return readFileSync(path, 'utf8');
  };
  return { manifest: read('manifest'), policy: read('policy'), db: read('db'), tools: read('tools'), tasks: read('tasks') };
}

export function loadDomainDir(dir: string): Domain {
  return parseDomain(readDomainFiles(dir), dir);
}
