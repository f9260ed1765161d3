// The τ²-Bench domains we ship (retail, telecom, and ToolScale's ten, ../toolscale), their files,
// and loading one: its database parsed once, its tasks, its policy and the tool schemas τ² gives
// the agent and the user. The host reads the files (Node from disk, the browser from the bundle)
// from the domain's folder (TAU2_DOMAIN_FOLDERS) and hands in their text. Airline is not here: its
// db.json and tasks.json are missing from the stored copy of the reference repository
// (docs/evaluation.md). Pure TypeScript.

import type { ToolSchema } from '../../engine/types.ts';
import type { Tau2Environment } from './environment.ts';
import { PyError } from './pyErrors.ts';
import type { Clock } from './rolloutClock.ts';
import { parseRetailDb, retailEnvironment } from './retail/domain.ts';
import { parseTasks, type Tau2Task } from './tasks.ts';
import { parseTelecomDbs, telecomEnvironment, telecomPolicy } from './telecom/domain.ts';
import { isToolScaleDomain, TOOLSCALE_DOMAIN_FILES, TOOLSCALE_DOMAIN_NAMES, toolScaleEnvironments, type ToolScaleOptions } from './toolscale/domains.ts';

export const TAU2_DOMAIN_FILES = {
  retail: ['db.json', 'tasks.json', 'policy.md', 'tool-schemas.json'],
  telecom: ['db.json', 'user_db.json', 'tasks.json', 'main_policy.md', 'tech_support_manual.md', 'tool-schemas.json'],
  ...TOOLSCALE_DOMAIN_FILES,
} as const;
export type Tau2DomainName = keyof typeof TAU2_DOMAIN_FILES;
export const TAU2_DOMAIN_NAMES = Object.keys(TAU2_DOMAIN_FILES) as Tau2DomainName[];

/** Each domain's folder, relative to workers/domains. */
export const TAU2_DOMAIN_FOLDERS = Object.fromEntries(
  TAU2_DOMAIN_NAMES.map((name) => [name, (TOOLSCALE_DOMAIN_NAMES as string[]).includes(name) ? `tau2/toolscale/${name}` : `tau2/${name}`]),
) as Record<Tau2DomainName, string>;

/** The user simulator's guidelines, beside the domains (data/tau2/user_simulator in τ²). */
export const TAU2_GUIDELINE_FILES = { plain: 'simulation_guidelines.md', tools: 'simulation_guidelines_tools.md' } as const;

export interface LoadedTau2Domain {
  name: Tau2DomainName;
  policy: string;
  tasks: Tau2Task[];
  /** The agent's tools as τ² lists them (OpenAI function schemas, from its docstrings). */
  agentTools: ToolSchema[];
  /** The user's tools (telecom), or null. */
  userTools: ToolSchema[] | null;
  /** A fresh environment over the parsed database: one per rollout, and two per grading. `clock`:
   * the time the tools that stamp it read (ToolScale's bank; rolloutClock.ts), the real clock
   * without one; the other domains do not read the time. */
  newEnvironment(clock?: Clock): Tau2Environment;
}

function schemas(text: string, key: 'agent' | 'user'): ToolSchema[] | null {
  const parsed = JSON.parse(text) as Record<string, { function: ToolSchema }[] | undefined>;
  return parsed[key]?.map(({ function: f }) => ({ name: f.name, description: f.description, parameters: f.parameters })) ?? null;
}

/** A shipped domain's file that cannot be read as it should be. */
export class Tau2DomainError extends Error {
  override name = 'Tau2DomainError';
}

/** Runs `parse`, naming the file in any error it throws. */
function inFile<T>(file: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const text = error instanceof PyError ? error.text : error instanceof Error ? error.message : String(error);
    throw new Tau2DomainError(text.startsWith(file) ? text : `${file}: ${text}`, { cause: error });
  }
}

/** Loads a domain from its files' text (`read(fileName)`). Throws naming the file at fault. */
export function loadTau2Domain(name: Tau2DomainName, read: (file: string) => string, options: { newBillId?: () => string } & ToolScaleOptions = {}): LoadedTau2Domain {
  const tasks = inFile(`${name}/tasks.json`, () => parseTasks(read('tasks.json'), `${name}/tasks.json`));
  const agentTools = inFile(`${name}/tool-schemas.json`, () => schemas(read('tool-schemas.json'), 'agent') ?? []);
  if (isToolScaleDomain(name)) {
    const policy = read('policy.md');
    const newEnvironment = inFile(`${name}/db.json`, () => toolScaleEnvironments(name, read('db.json'), policy, options));
    return { name, policy, tasks, agentTools, userTools: null, newEnvironment };
  }
  if (name === 'retail') {
    const seed = inFile(`${name}/db.json`, () => parseRetailDb(read('db.json')));
    const policy = read('policy.md');
    return { name, policy, tasks, agentTools, userTools: null, newEnvironment: () => retailEnvironment(seed, policy) };
  }
  const seed = inFile(`${name}/db.json and user_db.json`, () => parseTelecomDbs(read('db.json'), read('user_db.json')));
  const policy = telecomPolicy(read('main_policy.md'), read('tech_support_manual.md'));
  return {
    name,
    policy,
    tasks,
    agentTools,
    userTools: inFile(`${name}/tool-schemas.json`, () => schemas(read('tool-schemas.json'), 'user')),
    newEnvironment: () => telecomEnvironment(seed, policy, options.newBillId),
  };
}
