// τ²-Bench's and ToolScale's domains for the browser (the orchestrator worker): every data file
// is a chunk of its own, fetched when its domain is first loaded, so neither the first screen nor
// an evaluation of another domain pays for it. Node reads the same files from their folders
// (cli/nodeTau2.ts); both hand the text to loadTau2Domain.

import { loadTau2Domain, TAU2_DOMAIN_FILES, TAU2_DOMAIN_FOLDERS, TAU2_GUIDELINE_FILES, type LoadedTau2Domain, type Tau2DomainName } from './tau2/domains.ts';
import type { ToolScaleOptions } from './tau2/toolscale/domains.ts';
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

/** A shipped τ² or ToolScale domain, its files fetched (once per page) and its database parsed
 * (once per call: call it once per evaluation, as the CLI does). */
export async function loadBrowserDomain(name: Tau2DomainName, options: { newBillId?: () => string } & ToolScaleOptions = {}): Promise<LoadedTau2Domain> {
  const folder = TAU2_DOMAIN_FOLDERS[name];
  const files = await readFiles(folder, TAU2_DOMAIN_FILES[name]);
  return loadTau2Domain(
    name,
    (file) => {
      const text = files.get(file);
      if (text === undefined) throw new Error(`${folder}/${file} is not one of the domain's files`);
      return text;
    },
    options,
  );
}

/** τ²'s user simulator guidelines (plain, and for a user who has tools). */
export async function loadBrowserGuidelines(): Promise<{ plain: string; tools: string }> {
  const files = await readFiles('tau2', [TAU2_GUIDELINE_FILES.plain, TAU2_GUIDELINE_FILES.tools]);
  return { plain: files.get(TAU2_GUIDELINE_FILES.plain) ?? '', tools: files.get(TAU2_GUIDELINE_FILES.tools) ?? '' };
}

/** A τ² or ToolScale suite by name (`tau2-retail`, `toolscale-bank`…): its domain and its tasks. */
export async function loadBrowserSuite(name: Tau2SuiteName): Promise<{ domain: LoadedTau2Domain; tasks: SuiteTask[] }> {
  const domainName = tau2DomainOfSuite(name);
  if (!domainName) throw new Error(`There is no τ² suite "${name}".`);
  const domain = await loadBrowserDomain(domainName);
  return { domain, tasks: tau2Suite(domain) };
}

export { tau2DomainFromConfig } from './tau2/taskDomain.ts';
