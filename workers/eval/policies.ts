// The policies a suite is run under, as in the paper's tables: the configured orchestrator (under
// any preference vector), the strongest and the cheapest expert answering alone, a seeded random
// policy over the same tools and aliases, and a prompted Qwen3 as orchestrator. Each turns a task
// into a ready run through the same composition root as every other run (the host's prepareRun,
// handed in as a RunFactory), so a policy means the same in the browser and the CLI.
//
// Policy names (what --policy takes and results are keyed by):
//   orchestrator                 the config's orchestrator and preference
//   orchestrator@<preset>        … under a preset: cheapest, balanced, best-answer, fastest
//   orchestrator@cost=<w>        … under the vector outcome 1−w, cost w, latency 0 (a sweep's grid)
//   strongest | cheapest         the priciest / least pricey answering expert, alone
//   random                       tools and aliases picked at random (seeded)
//   qwen3=<provider>/<model>     that model as orchestrator, tools rendered into its prompt

import type { PreparedRun } from '../engine/preparedRun.ts';
import { CALL_EXPERT_TOOL, type ExpertConfig, type OrchestraConfig } from '../engine/config.ts';
import { protocolExperts, resolveExperts } from '../engine/configExperts.ts';
import { lookupPrice } from '../engine/pricing.ts';
import { costWeightPreference, PREFERENCE_PRESETS, type PreferencePresetName, type PreferenceVector } from '../engine/preferences.ts';
import { referenceAnswerStyle } from '../engine/protocols/expertFamilies.ts';
import type { RunOptions } from '../engine/run.ts';
import { createDirectAnswerProtocol } from './policies/alone/direct.ts';
import type { RunFactory, TaskDomain, TaskDomainSession } from './ports.ts';
import { createRandomOrchestrator, RANDOM_POLICY_MODEL } from './policies/random/random.ts';
import type { SuiteTask } from './suite.ts';

export type PolicyKind = 'orchestrator' | 'strongest' | 'cheapest' | 'random' | 'qwen3';

export interface PolicySpec {
  /** The canonical name, the key of the policy's results. */
  name: string;
  kind: PolicyKind;
  /** orchestrator: the preference to run under (the config's when absent). */
  preference?: PreferencePresetName | PreferenceVector;
  /** qwen3: the model to prompt, and the config's provider that serves it. */
  provider?: string;
  model?: string;
}

export class PolicyError extends Error {
  override name = 'PolicyError';
}

const PRESET_NAMES = Object.keys(PREFERENCE_PRESETS) as PreferencePresetName[];
const POLICY_FORMS =
  'orchestrator, orchestrator@<preset> (cheapest, balanced, best-answer, fastest), orchestrator@cost=<0..1>, strongest, cheapest, random, qwen3=<provider>/<model>';

export { costWeightPreference };

function parseWeight(text: string, what: string): number {
  const w = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || !(w >= 0 && w <= 1)) throw new PolicyError(`${what} must be a number from 0 to 1, got "${text}"`);
  return w;
}

/** Reads a policy name; throws a PolicyError that lists the forms. */
export function parsePolicy(text: string): PolicySpec {
  const name = text.trim();
  if (name === 'orchestrator') return { name, kind: 'orchestrator' };
  if (name === 'strongest' || name === 'cheapest' || name === 'random') return { name, kind: name };
  if (name.startsWith('orchestrator@')) {
    const setting = name.slice('orchestrator@'.length);
    if ((PRESET_NAMES as string[]).includes(setting)) return { name, kind: 'orchestrator', preference: setting as PreferencePresetName };
    if (setting.startsWith('cost=')) {
      const w = parseWeight(setting.slice('cost='.length), 'The cost weight');
      return { name: `orchestrator@cost=${w}`, kind: 'orchestrator', preference: costWeightPreference(w) };
    }
    throw new PolicyError(`"${name}": after "orchestrator@" give a preset (${PRESET_NAMES.join(', ')}) or cost=<0..1>.`);
  }
  if (name.startsWith('qwen3=')) {
    const target = name.slice('qwen3='.length);
    const slash = target.indexOf('/');
    if (slash <= 0 || slash === target.length - 1) throw new PolicyError(`"${name}": write qwen3=<provider>/<model>, such as qwen3=ollama/qwen3:8b.`);
    return { name, kind: 'qwen3', provider: target.slice(0, slash), model: target.slice(slash + 1) };
  }
  throw new PolicyError(`Unknown policy "${name}". Policies: ${POLICY_FORMS}.`);
}

/** The policies of a preference sweep: "presets" (the four presets) or "cost=w1,w2,…" (a grid
 * over the cost weight). */
export function sweepPolicies(sweep: string): PolicySpec[] {
  const text = sweep.trim();
  if (text === 'presets') return PRESET_NAMES.map((preset) => parsePolicy(`orchestrator@${preset}`));
  if (text.startsWith('cost=')) {
    const weights = text.slice('cost='.length).split(',').map((w) => w.trim());
    if (weights.length === 0 || weights.some((w) => w === '')) throw new PolicyError('A cost sweep lists weights: cost=0,0.25,0.5,0.75,1.');
    return weights.map((w) => parsePolicy(`orchestrator@cost=${w}`));
  }
  throw new PolicyError(`A sweep is "presets" or "cost=<w1>,<w2>,…", got "${sweep}".`);
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
  kind: PolicyKind;
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

function describePreference(preference: PreferencePresetName | PreferenceVector): string {
  if (typeof preference === 'string') return preference;
  return `outcome ${preference.outcome}, cost ${preference.cost}, latency ${preference.latency}`;
}

function resolvePreferenceOf(preference: PreferencePresetName | PreferenceVector): PreferenceVector {
  return typeof preference === 'string' ? PREFERENCE_PRESETS[preference] : preference;
}

function runOf(prepared: PreparedRun): PreparedTask['run'] {
  const { preference: _preference, ...run } = prepared;
  return run;
}

function domainOf(context: PolicyContext, task: SuiteTask): TaskDomain {
  const environment = task.domain === undefined ? undefined : context.domains.get(task.domain);
  if (!environment) throw new PolicyError(`Task "${task.id}" runs in the domain "${task.domain}", which is not loaded.`);
  return environment;
}

const PAPER_EXPERT_TOOLS = (config: OrchestraConfig) => new Set(protocolExperts(config).map(([, expert]) => expert.tool));
const DOMAIN_EXPERT_TOOLS: ReadonlySet<string> = new Set([CALL_EXPERT_TOOL]);

/**
 * Runs the given config's orchestrator: the config's protocol for question tasks, the function-
 * calling protocol over the domain's tools for domain tasks (each with a fresh database).
 */
function configuredPolicy(name: string, kind: PolicyKind, label: string, config: OrchestraConfig, context: PolicyContext): Policy {
  return {
    name,
    kind,
    label,
    model: config.orchestrator.model,
    preference: resolvePreferenceOf(config.preference),
    prepare(task) {
      if (task.domain === undefined) {
        return { run: runOf(context.runs.prepare(config)), expertTools: PAPER_EXPERT_TOOLS(config) };
      }
      const domain = domainOf(context, task);
      const session = domain.newSession();
      const prepared = context.runs.prepare(config, { domain: { system: domain.domain.policy, tools: session.tools } });
      return { run: runOf(prepared), expertTools: DOMAIN_EXPERT_TOOLS, session };
    },
  };
}

/** The experts that answer (the paper's `answer` aliases, `call_expert` ones), each model once. */
function answeringExperts(config: OrchestraConfig): Array<[alias: string, expert: ExpertConfig]> {
  const seen = new Set<string>();
  return Object.entries(resolveExperts(config)).filter(([, expert]) => {
    if (expert.tool !== 'answer' && expert.tool !== CALL_EXPERT_TOOL) return false;
    const key = `${expert.provider}\u0000${expert.model}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The priciest or least pricey answering expert by its price per million tokens (input plus
 * output, as the counterfactual picks the strongest); the first in the config among equals. */
export function pickExpert(config: OrchestraConfig, which: 'strongest' | 'cheapest', pricing: PreparedRun['pricing']): [string, ExpertConfig] {
  let best: { entry: [string, ExpertConfig]; perM: number } | undefined;
  for (const entry of answeringExperts(config)) {
    const price = lookupPrice(pricing, entry[1].model);
    if (!price) continue;
    const perM = price.inputPerM + price.outputPerM;
    if (!best || (which === 'strongest' ? perM > best.perM : perM < best.perM)) best = { entry, perM };
  }
  if (!best) {
    throw new PolicyError(`The "${which}" policy needs an answering expert (an "answer" or "call_expert" alias) with a known price; the configuration has none.`);
  }
  return best.entry;
}

/** An expert answering alone: one call with the paper's answer prompt for a question, or the
 * expert as the agent over a domain's tools (no orchestrator, no other experts). */
function alonePolicy(spec: PolicySpec, context: PolicyContext): Policy {
  const config: OrchestraConfig = { ...context.config, preferenceInstruction: false };
  // Prepared once here so a configuration the policy cannot run is refused before anything runs.
  const [alias, expert] = pickExpert(config, spec.kind as 'strongest' | 'cheapest', context.runs.prepare(config).pricing);
  const asAgent: OrchestraConfig = {
    ...config,
    orchestrator: { ...config.orchestrator, provider: expert.provider, model: expert.model, toolMode: 'server', temperature: expert.temperature ?? config.orchestrator.temperature, ...(expert.maxTokens === undefined ? {} : { maxTokens: expert.maxTokens }) },
  };
  const answerStyle = expert.answerStyle ?? referenceAnswerStyle(expert.model);
  const direct = createDirectAnswerProtocol(answerStyle, config.paper.variant);
  return {
    name: spec.name,
    kind: spec.kind,
    label: `${spec.kind} expert alone: ${expert.model} (${alias})`,
    model: expert.model,
    preference: resolvePreferenceOf(config.preference),
    prepare(task) {
      if (task.domain === undefined) {
        const model = context.runs.model(config, expert.provider, expert.model);
        return {
          run: {
            ...runOf(context.runs.prepare(config)),
            protocol: direct,
            orchestrator: { model, toolMode: 'prompt', temperature: expert.temperature, maxTokens: expert.maxTokens },
          },
          expertTools: new Set(),
        };
      }
      const domain = domainOf(context, task);
      const session = domain.newSession();
      const prepared = context.runs.prepare(asAgent, { domain: { system: domain.domain.policy, tools: session.tools, experts: false } });
      return { run: runOf(prepared), expertTools: DOMAIN_EXPERT_TOOLS, session };
    },
  };
}

function aliasesByTool(experts: Array<[string, ExpertConfig]>): Record<string, string[]> {
  const byTool: Record<string, string[]> = {};
  for (const [alias, expert] of experts) (byTool[expert.tool] ??= []).push(alias);
  return byTool;
}

/** Random routes over the config's own tools and aliases, seeded by (seed, policy, task, rollout). */
function randomPolicy(spec: PolicySpec, context: PolicyContext): Policy {
  const config: OrchestraConfig = { ...context.config, preferenceInstruction: false };
  const free = (prepared: PreparedRun): PreparedRun['pricing'] => ({
    ...prepared.pricing,
    models: { ...prepared.pricing.models, [RANDOM_POLICY_MODEL]: { inputPerM: 0, outputPerM: 0 } },
  });
  const callExperts = Object.entries(resolveExperts(config)).filter(([, expert]) => expert.tool === CALL_EXPERT_TOOL);
  return {
    name: spec.name,
    kind: 'random',
    label: `random routes (seed "${context.seed}")`,
    model: RANDOM_POLICY_MODEL,
    preference: resolvePreferenceOf(config.preference),
    prepare(task, rollout) {
      const seed = `${context.seed}\u0000${spec.name}\u0000${task.id}\u0000${rollout}`;
      if (task.domain === undefined) {
        const plain = context.runs.prepare(config);
        const orchestrator = createRandomOrchestrator({ seed, task: task.task, aliases: aliasesByTool(protocolExperts(config)) });
        return {
          run: { ...runOf(plain), pricing: free(plain), orchestrator: { model: orchestrator, toolMode: 'server' } },
          expertTools: PAPER_EXPERT_TOOLS(config),
        };
      }
      const domain = domainOf(context, task);
      const session = domain.newSession();
      const prepared = context.runs.prepare(config, { domain: { system: domain.domain.policy, tools: session.tools } });
      const orchestrator = createRandomOrchestrator({ seed, task: task.task, aliases: aliasesByTool(callExperts) });
      return {
        run: { ...runOf(prepared), pricing: free(prepared), orchestrator: { model: orchestrator, toolMode: 'server' } },
        expertTools: DOMAIN_EXPERT_TOOLS,
        session,
      };
    },
  };
}

/** Builds the policies; throws a PolicyError for one the configuration cannot run. */
export function createPolicies(specs: readonly PolicySpec[], context: PolicyContext): Policy[] {
  const names = new Set<string>();
  return specs.map((spec) => {
    if (names.has(spec.name)) throw new PolicyError(`The policy "${spec.name}" is named twice.`);
    names.add(spec.name);
    const { config } = context;
    switch (spec.kind) {
      case 'orchestrator': {
        const preference = spec.preference ?? config.preference;
        return configuredPolicy(
          spec.name,
          'orchestrator',
          `orchestrator ${config.orchestrator.model} (${describePreference(preference)})`,
          { ...config, preference },
          context,
        );
      }
      case 'qwen3': {
        const provider = spec.provider ?? '';
        if (!Object.hasOwn(config.providers, provider)) {
          throw new PolicyError(`"${spec.name}" names the provider "${provider}", which is not in the configuration's "providers" (known: ${Object.keys(config.providers).join(', ')}).`);
        }
        const model = spec.model ?? '';
        return configuredPolicy(spec.name, 'qwen3', `prompted ${model} as orchestrator (${describePreference(config.preference)})`, {
          ...config,
          orchestrator: { ...config.orchestrator, provider, model, toolMode: 'prompt' },
        }, context);
      }
      case 'strongest':
      case 'cheapest':
        return alonePolicy(spec, context);
      case 'random':
        return randomPolicy(spec, context);
    }
  });
}
