// The parts of the configuration format (config.ts) that need no schema library: the paper's tool
// names and the search sources', the size limits, the cheap bounds check run before any schema,
// and reading JSON text (which experts a run uses: configExperts.ts). The playground's first
// screen imports these without loading zod, which is a fifth of its JavaScript
// (docs/benchmarks.md); config.ts re-exports them.

import { formatCount } from './format.ts';

export const PAPER_TOOLS = ['search', 'enhance_reasoning', 'answer'] as const;
export type PaperToolName = (typeof PAPER_TOOLS)[number];
export const CALL_EXPERT_TOOL = 'call_expert';

export const SEARCH_SOURCES = ['local', 'documents', 'wikipedia', 'retrieval'] as const;
export type SearchSourceName = (typeof SEARCH_SOURCES)[number];
export const WIKIPEDIA_API_URL = 'https://en.wikipedia.org/w/api.php';

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`The configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** How large a config may be. Real ones are a few kilobytes with a handful of providers; these
 * bounds are far above that, and low enough that checking and showing a config never stalls the
 * page (a file with 12,000 providers froze it for seconds). docs/configuration.md lists them. */
export const CONFIG_LIMITS = {
  /** Characters of the file (custom tools' code included). */
  fileChars: 1_000_000,
  providers: 50,
  /** Aliases (the paper's preset has 12). */
  experts: 100,
  /** Entries of `pricing.models`. */
  pricedModels: 500,
  /** Custom models of one web-llm provider. */
  localModels: 16,
  customTools: 50,
  /** Characters of a provider, alias or model name. */
  nameChars: 200,
  /** Levels of nesting (a custom tool's JSON schema is the deepest part). */
  depth: 32,
} as const;

/** The named records of a config: where they are, and what one entry is called. */
const NAMED_RECORDS: Array<{ path: string[]; what: string; limit: number }> = [
  { path: ['providers'], what: 'providers', limit: CONFIG_LIMITS.providers },
  { path: ['experts'], what: 'experts', limit: CONFIG_LIMITS.experts },
  { path: ['pricing', 'models'], what: 'prices', limit: CONFIG_LIMITS.pricedModels },
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Problems that make a value unsafe to validate or show, found cheaply before any schema runs:
 * too many entries, overlong names, deep nesting, and "__proto__" used as a name (JSON.parse keeps
 * it as data, but any copy by assignment turns it into a prototype: the Setup showed such a
 * provider while the engine silently lost it). */
export function configBoundsProblems(value: unknown): string[] {
  const problems: string[] = [];
  const where = (path: readonly (string | number)[]) => (path.length > 0 ? path.join('.') : '(top level)');
  const tooDeep = new Set<string>();
  const stack: Array<{ node: unknown; path: (string | number)[] }> = [{ node: value, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: unknown; path: (string | number)[] };
    if (typeof node !== 'object' || node === null) continue;
    if (path.length >= CONFIG_LIMITS.depth) {
      const top = where(path.slice(0, 1));
      if (!tooDeep.has(top)) problems.push(`${top}: nested more than ${CONFIG_LIMITS.depth} levels deep; no config is`);
      tooDeep.add(top);
      continue;
    }
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, path: [...path, index] }));
      continue;
    }
    if (Object.hasOwn(node, '__proto__')) {
      problems.push(`${where(path)}: "__proto__" cannot be a name: JavaScript reserves it, so it would be lost. Rename it.`);
    }
    for (const [key, item] of Object.entries(node)) stack.push({ node: item, path: [...path, key] });
  }
  if (!isRecord(value)) return problems;
  const providers = isRecord(value.providers) ? value.providers : {};
  const records = [
    ...NAMED_RECORDS,
    ...Object.keys(providers).map((name) => ({ path: ['providers', name, 'models'], what: 'models', limit: CONFIG_LIMITS.localModels })),
  ];
  for (const { path, what, limit } of records) {
    let node: unknown = value;
    for (const key of path) node = isRecord(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    if (!isRecord(node)) continue;
    const names = Object.keys(node);
    if (names.length > limit) problems.push(`${where(path)}: ${formatCount(names.length)} ${what}; a config may have at most ${formatCount(limit)}`);
    const long = names.find((name) => name.length > CONFIG_LIMITS.nameChars);
    if (long !== undefined) {
      problems.push(
        `${where(path)}: the name "${long.slice(0, 40)}…" is ${formatCount(long.length)} characters; a name may be at most ${CONFIG_LIMITS.nameChars}`,
      );
    }
  }
  if (Array.isArray(value.customTools) && value.customTools.length > CONFIG_LIMITS.customTools) {
    problems.push(`customTools: ${formatCount(value.customTools.length)} tools; a config may have at most ${CONFIG_LIMITS.customTools}`);
  }
  return problems;
}

/** Config text (JSON) as a JSON value, within the size limit; a syntax error says where. */
export function readConfigJson(text: string): unknown {
  if (text.length > CONFIG_LIMITS.fileChars) {
    throw new ConfigError([
      `the file is ${formatCount(text.length)} characters; a config file may be at most ${formatCount(CONFIG_LIMITS.fileChars)}`,
    ]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError([`not valid JSON: ${(error as Error).message}`]);
  }
}
