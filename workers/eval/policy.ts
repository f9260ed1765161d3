// What a policy is (docs/evaluation.md): a way of turning a suite's task into a ready run, and the
// descriptor by which a policy kind is listed in the registry (policies/registry.ts). Each kind is
// one folder under policies/; what they share (running the config's orchestrator, resolving a
// preference, a domain task's session) is here.

import { CALL_EXPERT_TOOL, type OrchestraConfig } from '../engine/config.ts';
import { protocolExperts } from '../engine/configExperts.ts';
import type { PreparedRun } from '../engine/preparedRun.ts';
import { PREFERENCE_PRESETS, type PreferencePresetName, type PreferenceVector } from '../engine/preferences.ts';
import type { RunOptions } from '../engine/run.ts';
import type { RunFactory, TaskDomain, TaskDomainSession } from './ports.ts';
import type { SuiteTask } from './suite.ts';

export interface PolicySpec {
  /** The canonical name, the key of the policy's results. */
  name: string;
  /** The policy kind that reads and makes it (its descriptor's `kind`). */
  kind: string;
  /** orchestrator: the preference to run under (the config's when absent). */
  preference?: PreferencePresetName | PreferenceVector;
  /** qwen3: the model to prompt, and the config's provider that serves it. */
  provider?: string;
  model?: string;
}

export class PolicyError extends Error {
  override name = 'PolicyError';
}

/** A kind of policy: one folder under policies/, one line in policies/registry.ts. */
export interface PolicyKind {
  kind: string;
  /** The names it takes, in words, for the list of forms an unknown name is answered with. */
  forms: string;
  /** Where it runs: every policy runs in the CLI and in the browser's Evaluate tab today. */
  runsIn: 'browser' | 'node' | 'both';
  /** Reads a policy name of this kind (trimmed); undefined when the name is not one. Throws a
   * PolicyError for a name of this kind that is malformed. */
  parse(name: string): PolicySpec | undefined;
  /** Makes the policy; throws a PolicyError when the configuration cannot run it. */
  create(spec: PolicySpec, context: PolicyContext): Policy;
}

export const PRESET_NAMES = Object.keys(PREFERENCE_PRESETS) as PreferencePresetName[];

export function parseWeight(text: string, what: string): number {
  const w = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || !(w >= 0 && w <= 1)) throw new PolicyError(`${what} must be a number from 0 to 1, got "${text}"`);
  return w;
}

/** A task made ready to run under a policy: one rollout's own parts (prepareRun's models, a
 * domain's database), never shared with another rollout, since a model may keep its run's state
 * (the scripted demo's orchestrator counts its searches). */
export interface PreparedTask {
  run: Omit<RunOptions, 'task' | 'onEvent' | 'signal' | 'runId'>;
  /** The tools whose calls name an alias (counted by alias in the reward's tool features). */
  expertTools: ReadonlySet<string>;
  /** A domain task's database and tools, for its db check. */
  session?: TaskDomainSession;
}

export interface Policy {
  name: string;
  kind: string;
  /** In words, for tables and charts. */
  label: string;
  /** The model that drives the run: the orchestrator, the expert alone, or random-policy. */
  model: string;
  /** The vector the policy's group rewards are computed under. */
  preference: PreferenceVector;
  /** Fresh parts for one rollout, whatever ran before or runs beside it. */
  prepare(task: SuiteTask, rollout: number): PreparedTask;
}

export interface PolicyContext {
  config: OrchestraConfig;
  /** Prepares each rollout's run (the host's composition root). */
  runs: RunFactory;
  /** The domains the suite's tasks run in, by name. */
  domains: ReadonlyMap<string, TaskDomain>;
  /** Seeds the random policy (with the task and rollout). */
  seed: string;
}

export function describePreference(preference: PreferencePresetName | PreferenceVector): string {
  if (typeof preference === 'string') return preference;
  return `outcome ${preference.outcome}, cost ${preference.cost}, latency ${preference.latency}`;
}

export function resolvePreferenceOf(preference: PreferencePresetName | PreferenceVector): PreferenceVector {
  return typeof preference === 'string' ? PREFERENCE_PRESETS[preference] : preference;
}

export function runOf(prepared: PreparedRun): PreparedTask['run'] {
  const { preference: _preference, ...run } = prepared;
  return run;
}

export function domainOf(context: PolicyContext, task: SuiteTask): TaskDomain {
  const environment = task.domain === undefined ? undefined : context.domains.get(task.domain);
  if (!environment) throw new PolicyError(`Task "${task.id}" runs in the domain "${task.domain}", which is not loaded.`);
  return environment;
}

export const PAPER_EXPERT_TOOLS = (config: OrchestraConfig) => new Set(protocolExperts(config).map(([, expert]) => expert.tool));
export const DOMAIN_EXPERT_TOOLS: ReadonlySet<string> = new Set([CALL_EXPERT_TOOL]);

/**
 * Runs the given config's orchestrator: the config's protocol for question tasks, the function-
 * calling protocol over the domain's tools for domain tasks (each with a fresh database).
 */
export function configuredPolicy(name: string, kind: string, label: string, config: OrchestraConfig, context: PolicyContext): Policy {
  return {
    name,
    kind,
    label,
    model: config.orchestrator.model,
    preference: resolvePreferenceOf(config.preference),
    prepare(task) {
      if (task.domain === undefined) {
        return { run: runOf(context.runs.prepare(config, { taskId: task.id })), expertTools: PAPER_EXPERT_TOOLS(config) };
      }
      const domain = domainOf(context, task);
      const session = domain.newSession(task);
      const prepared = context.runs.prepare(config, {
        domain: {
          system: domain.domain.policy,
          tools: session.tools,
          ...(session.partner ? { partner: session.partner } : {}),
          ...(session.maxTurns === undefined ? {} : { maxTurns: session.maxTurns }),
        },
      });
      return { run: runOf(prepared), expertTools: DOMAIN_EXPERT_TOOLS, session };
    },
  };
}
