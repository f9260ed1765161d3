// τ²-Bench's and ToolScale's domains for the browser (the orchestrator worker): every data file
// is a chunk of its own, fetched when its domain is first loaded, so neither the first screen nor
// an evaluation of another domain pays for it. Node reads the same files from their folders
// (cli/nodeTau2.ts); both hand the text to loadTau2Domain.

import { loadTau2Domain, TAU2_DOMAIN_FILES, TAU2_DOMAIN_FOLDERS, TAU2_GUIDELINE_FILES, TAU2_USER_FILES, type LoadedTau2Domain, type Tau2DomainName, type Tau2LoadOptions } from './tau2/domains.ts';
import type { SuiteTask } from '../eval/suite.ts';
import type { Tau2SuiteName } from './tau2/suiteNames.ts';
import { tau2DomainOfSuite, tau2Suite } from './tau2/taskDomain.ts';

// Lazy: each entry is a dynamic import of one file's text (Vite makes one chunk per file).
const FILES = import.meta.glob<string>(['./tau2/*/*.json', './tau2/*/*.md', './tau2/simulation_guidelines*.md', './tau2/toolscale/*/*.json', './tau2/toolscale/*/*.md'], {
  query: '?raw',
  import: 'default',
});

async function readFiles(folder: string, names: readonly string[]): Promise<Map<string, string>> {
  const texts = await Promise.all(
    names.map((name) => {
      const load = FILES[`./${folder}/${name}`];
      if (!load) throw new Error(`The browser build has no ${folder}/${name}.`);
      return load();
    }),
  );
  return new Map(names.map((name, i) => [name, texts[i] ?? '']));
}

/** The files a domain needs from the user (airline's db.json), by name, with what to call each in
 * an error (where it came from). */
export interface UserFiles {
  texts: Readonly<Record<string, string>>;
  names: Readonly<Record<string, string>>;
}

/** A shipped τ² or ToolScale domain, its files fetched (once per page) and its database parsed
 * (once per call: call it once per evaluation, as the CLI does). A domain whose database is the
 * user's (τ²'s airline) takes it from `userFiles`, which `userFiles()` finds (this browser's copy). */
export async function loadBrowserDomain(name: Tau2DomainName, options: Tau2LoadOptions & { userFiles?: () => Promise<UserFiles | null> } = {}): Promise<LoadedTau2Domain> {
  const folder = TAU2_DOMAIN_FOLDERS[name];
  const wanted = TAU2_USER_FILES[name] ?? [];
  const user = wanted.length > 0 ? await options.userFiles?.() : null;
  if (wanted.length > 0 && !user) {
    throw new Error("τ²-Bench's airline needs its database (db.json), which the playground does not ship: in Evaluate, choose τ²-Bench airline and give it the db.json of a τ²-Bench checkout, or download it there.");
  }
  const files = new Map([...(await readFiles(folder, TAU2_DOMAIN_FILES[name])), ...Object.entries(user?.texts ?? {})]);
  return loadTau2Domain(
    name,
    (file) => {
      const text = files.get(file);
      if (text === undefined) throw new Error(`${folder}/${file} is not one of the domain's files`);
      return text;
    },
    { ...options, ...(user ? { userFileNames: user.names } : {}) },
  );
}

/** τ²'s user simulator guidelines (plain, and for a user who has tools). */
export async function loadBrowserGuidelines(): Promise<{ plain: string; tools: string }> {
  const files = await readFiles('tau2', [TAU2_GUIDELINE_FILES.plain, TAU2_GUIDELINE_FILES.tools]);
  return { plain: files.get(TAU2_GUIDELINE_FILES.plain) ?? '', tools: files.get(TAU2_GUIDELINE_FILES.tools) ?? '' };
}

/** A τ² or ToolScale suite by name (`tau2-retail`, `toolscale-bank`…): its domain and its tasks. */
export async function loadBrowserSuite(name: Tau2SuiteName, userFiles?: () => Promise<UserFiles | null>): Promise<{ domain: LoadedTau2Domain; tasks: SuiteTask[] }> {
  const domainName = tau2DomainOfSuite(name);
  if (!domainName) throw new Error(`There is no τ² suite "${name}".`);
  const domain = await loadBrowserDomain(domainName, userFiles ? { userFiles } : {});
  return { domain, tasks: tau2Suite(domain) };
}

export { tau2DomainFromConfig } from './tau2/taskDomain.ts';
