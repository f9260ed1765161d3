// Node-only: reads a shipped τ² or ToolScale domain (workers/domains/<folder>/) and τ²'s user
// simulator guidelines from disk, for `orchestra eval --suite builtin:tau2-retail` and the like.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTau2Domain, TAU2_DOMAIN_FOLDERS, TAU2_GUIDELINE_FILES, type LoadedTau2Domain, type Tau2DomainName } from '../workers/domains/tau2/domains.ts';

const DOMAINS = fileURLToPath(new URL('../workers/domains/', import.meta.url));

export function readTau2Domain(name: Tau2DomainName): LoadedTau2Domain {
  return loadTau2Domain(name, (file) => readFileSync(join(DOMAINS, TAU2_DOMAIN_FOLDERS[name], file), 'utf8'));
}

export function readTau2Guidelines(): { plain: string; tools: string } {
  const read = (file: string) => readFileSync(join(DOMAINS, 'tau2', file), 'utf8');
  return { plain: read(TAU2_GUIDELINE_FILES.plain), tools: read(TAU2_GUIDELINE_FILES.tools) };
}
