// Node-only: reads a domain's files from a folder (the built-in ones live next to this file).
// Each is read as a regular file of its folder, its size checked before it is read (cli/files.ts).

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_IN_DOMAINS, type BuiltInDomain } from '../workers/eval/builtInSuites.ts';
import { DOMAIN_FILE_NAMES, DOMAIN_LIMITS, DomainError, parseDomain, type Domain, type DomainFiles } from '../workers/domains/domain.ts';
import { FileRefused, readRegularFile } from './files.ts';

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

/** A domain folder's files, each read as a regular file of the folder (cli/files.ts): a link out
 * of the folder, a FIFO or a device is refused, naming the file, and nothing is read. */
export function readDomainFiles(dir: string): DomainFiles {
  const read = (file: keyof DomainFiles): string => {
    try {
      return readRegularFile(join(dir, DOMAIN_FILE_NAMES[file]), { maxBytes: FILE_BYTES[file], folder: dir });
    } catch (error) {
      if (error instanceof FileRefused) throw new DomainError(dir, [`${DOMAIN_FILE_NAMES[file]} cannot be read: ${error.reason}`]);
      throw error;
    }
  };
  return { manifest: read('manifest'), policy: read('policy'), db: read('db'), tools: read('tools'), tasks: read('tasks') };
}

export function loadDomainDir(dir: string): Domain {
  return parseDomain(readDomainFiles(dir), dir);
}
