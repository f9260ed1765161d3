// The composition root: turns a validated config plus what the environment provides (keys,
// retriever, Python, fetch, models loaded in the browser) into the parts a run needs. The CLI and
// the browser worker both go through here, so a config means the same thing everywhere.

import { createFunctionCallingTools } from '../../tools/functionTools.ts';
import type { CalculatorRunner } from '../../tools/calculator/types.ts';
import type { JavaScriptRunner } from '../engine/ports.ts';
import type { PythonRunner } from '../engine/ports.ts';
import type { Retriever } from '../engine/ports.ts';
import { createSearchRetriever, describeSearchSources } from '../../tools/search/searchSources.ts';
import { backendKind } from '../backends/registry.ts';
import type { LoadedBackend, LocalChatModel, ProvidedModel } from '../engine/backendKind.ts';
import { CALL_EXPERT_TOOL, ORCHESTRATOR_MAX_TOKENS, VARIANT_DEFAULTS, type ExpertConfig, type OrchestraConfig, type ProviderConfig } from '../engine/config.ts';
import { protocolExperts, resolveExperts } from '../engine/configExperts.ts';
import { fitExpertBudgets, fitPaperBudgets, replyTokens } from '../engine/contextWindow.ts';
import { pickCounterfactualModel } from '../engine/ledger.ts';
import { PREFERENCE_PRESETS, preferenceInstruction, type PreferenceVector } from '../engine/preferences.ts';
import { lookupPrice, REFERENCE_PRICING, type PricingTable } from '../engine/pricing.ts';
import type { Protocol } from '../engine/protocol.ts';
import { createFunctionCallingProtocol } from '../engine/protocols/functionCalling.ts';
import { referenceAnswerStyle, referenceExpertBudgets, type ExpertBudgets, type PaperVariant } from '../engine/protocols/expertFamilies.ts';
import { buildPaperTools, createPaperProtocol, PAPER_SYSTEM_PROMPT, type PaperExpert } from '../engine/protocols/paper.ts';
import { systemWithTools } from '../engine/qwen3/render.ts';
import { budgetTokens } from '../engine/tokens.ts';
import type { ChatModel } from '../engine/types.ts';
import type { DomainTools, PreparedRun, PrepareOptions } from '../engine/preparedRun.ts';
import type { RunFactory } from '../eval/ports.ts';
import { formatCount } from '../engine/format.ts';
import type { Secret } from '../engine/redact.ts';

export type { LocalChatModel };

export interface RunEnvironment {
  /** The API key for a provider, or undefined when it needs none. Never logged. */
  apiKey(providerName: string, provider: ProviderConfig): string | undefined;
  /** The local corpus. */
  retriever: Retriever;
  /** The documents added in the playground (IndexedDB); absent where there are none (the CLI). */
  documentRetriever?: Retriever;
  /** What one search of `retriever` costs when known: 0 for the local corpus. Leave it out for a
   * paid web search, which is then charged at the pricing table's per-call rate, as an estimate. */
  searchUsdPerCall?: number;
  python: PythonRunner;
  /** The JavaScript sandbox (QuickJS), for run_javascript and custom tools. */
  javascript?: JavaScriptRunner;
  /** The calculator (mathjs in its own worker). */
  calculator?: CalculatorRunner;
  fetch?: typeof fetch;
  /** The model factories of the backend kinds this host loaded (workers/backends/registry.ts's
   * loadBackends): the kinds a config names, or all of them. */
  backends: ReadonlyMap<string, LoadedBackend>;
  /** A model of a provider whose models run in this browser (web-llm, GGUF), loaded here. Throws
   * an error that says what to load when it is not loaded. Absent where models cannot run in the
   * browser (the CLI). */
  localModel?(modelId: string, providerName: string, provider: ProviderConfig): LocalChatModel;
}

const FREE = { inputPerM: 0, outputPerM: 0 };

/** The models the config runs on providers whose models run on the user's own device. */
function localModelIds(config: OrchestraConfig): string[] {
  const onWebLlm = (provider: string) => backendKind(config.providers[provider]?.kind)?.onDevice === true;
  const ids = protocolExperts(config)
    .filter(([, expert]) => onWebLlm(expert.provider))
    .map(([, expert]) => expert.model);
  if (onWebLlm(config.orchestrator.provider)) ids.unshift(config.orchestrator.model);
  return [...new Set(ids)];
}

/** The reference prices, then $0 for models run in the browser, then the config's own prices and
 * rates (so a config can still charge a local model, as the paper charges its orchestrator). */
export function effectivePricing(config: OrchestraConfig): PricingTable {
  const local = localModelIds(config);
  if (!config.pricing && local.length === 0) return REFERENCE_PRICING;
  const localPrices = Object.fromEntries(local.map((id) => [id, FREE]));
  return {
    asOf: config.pricing?.asOf ?? REFERENCE_PRICING.asOf,
    source: config.pricing ? (config.pricing.source ?? 'configuration') : REFERENCE_PRICING.source,
    models: { ...REFERENCE_PRICING.models, ...localPrices, ...config.pricing?.models },
    codePerSecond: config.pricing?.codePerSecond ?? REFERENCE_PRICING.codePerSecond,
    searchPerCall: config.pricing?.searchPerCall ?? REFERENCE_PRICING.searchPerCall,
  };
}

export function resolvePreference(config: OrchestraConfig): PreferenceVector {
  return typeof config.preference === 'string' ? PREFERENCE_PRESETS[config.preference] : config.preference;
}

/** The experts a run calls: the config protocol's, or for a domain run its `call_expert` ones. */
function runExperts(config: OrchestraConfig, domain: DomainTools | undefined): Array<[alias: string, expert: ExpertConfig]> {
  if (!domain) return protocolExperts(config);
  if (domain.experts === false) return [];
  return Object.entries(resolveExperts(config)).filter(([, expert]) => expert.tool === CALL_EXPERT_TOOL);
}

/** One chat model of the config, as a run would get it: loaded in this browser for a provider
 * whose models run here (with its context window), an API client or a script otherwise. */
export function createModel(config: OrchestraConfig, environment: RunEnvironment, providerName: string, model: string): ChatModel {
  return provideModel(providerName, model, config, environment).model;
}

/** Runs and models of any config in this environment, for evaluation (workers/eval/ports.ts). */
export function runFactory(environment: RunEnvironment): RunFactory {
  return {
    prepare: (config, options) => prepareRun(config, environment, options),
    model: (config, provider, model) => createModel(config, environment, provider, model),
    pricing: effectivePricing,
  };
}

export function prepareRun(config: OrchestraConfig, given: RunEnvironment, options: PrepareOptions = {}): PreparedRun {
  const { environment, secrets } = keysRecorded(given);
  if (options.person && (options.domain || config.protocol !== 'paper')) {
    throw new Error('You can take the orchestrator’s turns in the paper protocol only: switch the config’s protocol to "paper".');
  }
  const configPricing = effectivePricing(config);
  const pricing = options.person
    ? { ...configPricing, models: { ...configPricing.models, [options.person.model]: FREE } }
    : configPricing;
  const models = new RunModels(config, environment, pricing);
  const orchestratorModel = options.person ?? models.get(config.orchestrator.provider, config.orchestrator.model);
  const orchestratorWindow = models.windows.get(orchestratorModel);
  // A domain run speaks the function-calling protocol, whatever the config's.
  const configuredMaxTokens = config.orchestrator.maxTokens ?? ORCHESTRATOR_MAX_TOKENS[options.domain ? 'function-calling' : config.protocol];
  const orchestrator = {
    model: orchestratorModel,
    window: orchestratorWindow,
    configuredMaxTokens,
    maxTokens: orchestratorWindow === undefined ? configuredMaxTokens : replyTokens(orchestratorWindow, configuredMaxTokens),
  };

  const experts = runExperts(config, options.domain);
  const search = searchFor(config, environment);
  const toolTimeoutMs = config.paper.codeTimeoutSeconds * 1000 + 5000;
  let protocol: Protocol;
  if (options.domain) {
    protocol = createFunctionCallingProtocol({
      system: options.domain.system,
      tools: options.domain.tools,
      experts: experts.map(([alias, expert]) => models.expertParts(alias, expert)),
      ...(options.domain.partner ? { partner: options.domain.partner } : {}),
      toolTimeoutMs,
    });
  } else if (config.protocol === 'paper') {
    const paper = paperProtocol(config, environment, search, models, experts, orchestrator, options.person !== undefined);
    protocol = paper.protocol;
    orchestrator.maxTokens = paper.orchestratorMaxTokens ?? orchestrator.maxTokens;
  } else {
    protocol = createFunctionCallingProtocol({
      system: config.functionCalling.system,
      tools: configTools(config, environment, search, pricing),
      experts: experts.map(([alias, expert]) => models.expertParts(alias, expert)),
      toolTimeoutMs,
    });
  }

  const preference = resolvePreference(config);
  return {
    protocol,
    orchestrator: {
      model: orchestratorModel,
      // A person's menu arrives structured; their choice comes back as a parsed call.
      toolMode: options.person ? 'server' : config.orchestrator.toolMode,
      temperature: config.orchestrator.temperature,
      maxTokens: orchestrator.maxTokens,
      enableThinking: config.orchestrator.enableThinking,
    },
    pricing,
    counterfactualModel: pickCounterfactualModel(
      experts.map(([, expert]) => expert.model),
      pricing,
    ),
    limits: {
      maxTurns: options.domain?.maxTurns ?? config.limits.maxTurns,
      maxCostUsd: config.limits.maxCostUsd,
      maxWallMs: config.limits.maxWallSeconds === null ? null : config.limits.maxWallSeconds * 1000,
      maxInvalidTurns: config.limits.maxInvalidTurns,
    },
    preference,
    instruction: config.preferenceInstruction ? preferenceInstruction(preference) : null,
    config,
    secrets,
  };
}

/** The config's function-calling tools, built-in and custom, made with this environment's sandboxes. */
function configTools(config: OrchestraConfig, environment: RunEnvironment, search: ReturnType<typeof searchFor>, pricing: PricingTable) {
  return createFunctionCallingTools(
    config.functionCalling.tools,
    {
      retriever: search.retriever,
      ...(search.description === undefined ? {} : { searchDescription: search.description }),
      python: environment.python,
      javascript: environment.javascript,
      calculator: environment.calculator,
      searchLimit: config.paper.searchTopK,
      codeTimeoutMs: config.paper.codeTimeoutSeconds * 1000,
      codeUsdPerSecond: pricing.codePerSecond,
    },
    config.customTools,
  );
}

/** A run's chat models, one per (provider, model), and the context windows of those loaded in
 * this browser (a run must fit into them). */
class RunModels {
  readonly windows = new Map<ChatModel, number>();
  private readonly models = new Map<string, ChatModel>();

  constructor(
    private readonly config: OrchestraConfig,
    private readonly environment: RunEnvironment,
    private readonly pricing: PricingTable,
  ) {}

  get(providerName: string, model: string): ChatModel {
    const key = `${providerName}\u0000${model}`;
    let chat = this.models.get(key);
    if (!chat) {
      const provided = provideModel(providerName, model, this.config, this.environment);
      chat = provided.model;
      if (provided.contextWindow !== undefined) this.windows.set(chat, provided.contextWindow);
      this.models.set(key, chat);
    }
    return chat;
  }

  /** What every protocol's expert is made of: its model, price, and a reply that fits its window. */
  expertParts(alias: string, expert: ExpertConfig) {
    const model = this.get(expert.provider, expert.model);
    const window = this.windows.get(model);
    return {
      alias,
      model,
      description: expert.description,
      price: lookupPrice(this.pricing, expert.model),
      latencySeconds: expert.latencySeconds,
      temperature: expert.temperature,
      maxTokens: window === undefined ? expert.maxTokens : replyTokens(window, expert.maxTokens),
    };
  }
}

/** The orchestrator of a run: its model, its context window when loaded here, and its reply's
 * token limit as configured and as fitted to the window. */
interface RunOrchestrator {
  model: ChatModel;
  window: number | undefined;
  configuredMaxTokens: number;
  maxTokens: number;
}

/** The paper protocol for a config: its experts with their budgets (the reference's, or the
 * config's, fitted to their windows), and the orchestrator's context fitted to its window. */
function paperProtocol(
  config: OrchestraConfig,
  environment: RunEnvironment,
  search: ReturnType<typeof searchFor>,
  models: RunModels,
  experts: Array<[alias: string, expert: ExpertConfig]>,
  orchestrator: RunOrchestrator,
  writtenArguments: boolean,
): { protocol: Protocol; orchestratorMaxTokens: number | undefined } {
  const { variant } = config.paper;
  const paperExperts: PaperExpert[] = experts.map(([alias, expert]) => paperExpert(models, alias, expert, variant));
  const fit = fitPaperBudgets(
    {
      contextTokens: config.paper.contextTokens ?? VARIANT_DEFAULTS[variant].contextTokens,
      codeContextTokens: config.paper.codeContextTokens,
      documentChars: config.paper.documentChars ?? VARIANT_DEFAULTS[variant].documentChars,
    },
    orchestrator.window === undefined
      ? undefined
      : {
          label: orchestrator.model.model,
          contextWindow: orchestrator.window,
          maxTokens: orchestrator.configuredMaxTokens,
          fixedPromptTokens: budgetTokens(systemWithTools(PAPER_SYSTEM_PROMPT, buildPaperTools(paperExperts))),
        },
  );
  const protocol = createPaperProtocol({
    experts: paperExperts,
    retriever: search.retriever,
    searchUsdPerCall: search.usdPerCall,
    python: environment.python,
    variant,
    searchTopK: config.paper.searchTopK,
    codeTimeoutMs: config.paper.codeTimeoutSeconds * 1000,
    budgets: fit.budgets,
    writtenArguments,
  });
  return { protocol, orchestratorMaxTokens: fit.orchestratorMaxTokens };
}

/** One paper expert: the reference's budgets and answer style for its family, unless the config
 * sets them, fitted to its window when it runs here. */
function paperExpert(models: RunModels, alias: string, expert: ExpertConfig, variant: PaperVariant): PaperExpert {
  const parts = models.expertParts(alias, expert);
  const tool = expert.tool as PaperExpert['tool'];
  const reference = referenceExpertBudgets(tool, expert.model, variant);
  const budgets: ExpertBudgets = {
    documentChars: expert.documentChars === undefined ? reference.documentChars : expert.documentChars,
    codeContextTokens: expert.codeContextTokens ?? reference.codeContextTokens,
    contextTokens: expert.contextTokens ?? reference.contextTokens,
  };
  const window = models.windows.get(parts.model);
  return {
    ...parts,
    tool,
    answerStyle: expert.answerStyle ?? referenceAnswerStyle(expert.model),
    budgets: window === undefined ? budgets : fitExpertBudgets(budgets, { label: parts.model.model, contextWindow: window, maxTokens: parts.maxTokens }),
  };
}

/** The environment, and every key it hands out (each with its provider) as the run's models are made. */
function keysRecorded(environment: RunEnvironment): { environment: RunEnvironment; secrets: Secret[] } {
  const secrets: Secret[] = [];
  return {
    secrets,
    environment: {
      ...environment,
      apiKey(providerName, provider) {
        const key = environment.apiKey(providerName, provider);
        if (key && !secrets.some((secret) => secret.value === key)) secrets.push({ provider: providerName, value: key });
        return key;
      },
    },
  };
}

/** The retriever the config's `search` section asks for. The local corpus alone stays as it was
 * (no source tags); other sources and mixes go through the combined retriever. The documents and
 * Wikipedia cost nothing (Wikipedia's API is free), so only the local corpus's own rate applies. */
function searchFor(
  config: OrchestraConfig,
  environment: RunEnvironment,
): { retriever: Retriever; usdPerCall: number | undefined; description: string | undefined } {
  const { sources } = config.search;
  if (sources.length === 1 && sources[0] === 'local') {
    return { retriever: environment.retriever, usdPerCall: environment.searchUsdPerCall, description: undefined };
  }
  return {
    retriever: createSearchRetriever(config.search, {
      local: environment.retriever,
      ...(environment.documentRetriever ? { documents: environment.documentRetriever } : {}),
      ...(environment.fetch ? { fetch: environment.fetch } : {}),
    }),
    usdPerCall: sources.includes('local') ? environment.searchUsdPerCall : 0,
    description: describeSearchSources(sources),
  };
}

/** A provider's model, made by its kind's backend (workers/backends/<kind>/); one that runs in
 * this browser comes with its context window, checked against the one the config asks for. */
function provideModel(providerName: string, model: string, config: OrchestraConfig, environment: RunEnvironment): ProvidedModel {
  const provider = config.providers[providerName];
  if (!provider) throw new Error(`Unknown provider "${providerName}"`);
  const backend = environment.backends.get(provider.kind);
  if (!backend) {
    const title = backendKind(provider.kind)?.title ?? `of the kind "${provider.kind}"`;
    throw new Error(`Provider "${providerName}" is ${title}, which was not loaded here.`);
  }
  const provided = backend.create({
    providerName,
    provider,
    model,
    apiKey: backend.kind.needs.apiKey ? environment.apiKey(providerName, provider) : undefined,
    ...(environment.fetch ? { fetch: environment.fetch } : {}),
    ...(environment.localModel ? { localModel: environment.localModel } : {}),
  });
  if (provided.contextWindow !== undefined && provider.contextWindow !== undefined && provided.contextWindow < provider.contextWindow) {
    throw new Error(
      `"${model}" is loaded with a ${formatCount(provided.contextWindow)}-token context window, and provider "${providerName}" asks for at least ${formatCount(provider.contextWindow)}. Load it again with a larger window in Models in this browser.`,
    );
  }
  return provided;
}
