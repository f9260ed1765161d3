// Node-only: reads a shipped τ² or ToolScale domain (workers/domains/<folder>/) and τ²'s user
// simulator guidelines from disk, for `orchestra eval --suite builtin:tau2-retail` and the like.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRegularFile } from './files.ts';
import { loadTau2Domain, TAU2_DOMAIN_FOLDERS, TAU2_GUIDELINE_FILES, type LoadedTau2Domain, type Tau2DomainName } from '../workers/domains/tau2/domains.ts';

const DOMAINS = fileURLToPath(new URL('../workers/domains/', import.meta.url));

/** A shipped file, read as any file of a folder is (cli/files.ts); the largest is 1.2 MB. */
const readShipped = (folder: string, file: string) => readRegularFile(join(folder, file), { maxBytes: 64 * 1024 * 1024, folder });

export function readTau2Domain(name: Tau2DomainName): LoadedTau2Domain {
  return loadTau2Domain(name, (file) => readShipped(join(DOMAINS, TAU2_DOMAIN_FOLDERS[name]), file));
}

export function readTau2Guidelines(): { plain: string; tools: string } {
  const read = (file: string) => readShipped(join(DOMAINS, 'tau2'), file);
  return { plain: read(TAU2_GUIDELINE_FILES.plain), tools: read(TAU2_GUIDELINE_FILES.tools) };
}
