// The composition root: turns a validated config plus what the environment provides (keys,
// retriever, Python, fetch, models loaded in the browser) into the parts a run needs. The CLI and
// the browser worker both go through here, so a config means the same thing everywhere.

import { createFunctionCallingTools } from '../tools/functionTools.ts';
import type { CalculatorRunner } from '../tools/calculator/types.ts';
import type { JavaScriptRunner } from '../tools/javascript/types.ts';
import type { PythonRunner } from './engine/ports.ts';
import type { Retriever } from './engine/ports.ts';
import { createSearchRetriever, describeSearchSources } from '../tools/search/searchSources.ts';
import { createAnthropicModel } from './backends/anthropic.ts';
import { createOpenAICompatibleModel } from './backends/openaiCompatible.ts';
import {
  CALL_EXPERT_TOOL,
  ORCHESTRATOR_MAX_TOKENS,
  protocolExperts,
  resolveExperts,
  VARIANT_DEFAULTS,
  type ExpertConfig,
  type OrchestraConfig,
  type ProviderConfig,
} from './engine/config.ts';
import { fitExpertBudgets, fitPaperBudgets, replyTokens } from './engine/contextWindow.ts';
import { pickCounterfactualModel } from './engine/ledger.ts';
import { PREFERENCE_PRESETS, preferenceInstruction, type PreferenceVector } from './engine/preferences.ts';
import { lookupPrice, REFERENCE_PRICING, type PricingTable } from './engine/pricing.ts';
import type { Protocol } from './engine/protocol.ts';
import { createFunctionCallingProtocol } from './engine/protocols/functionCalling.ts';
import { referenceAnswerStyle, referenceExpertBudgets, type ExpertBudgets } from './engine/protocols/expertFamilies.ts';
import { buildPaperTools, createPaperProtocol, PAPER_SYSTEM_PROMPT, type PaperExpert } from './engine/protocols/paper.ts';
import { systemWithTools } from './engine/qwen3/render.ts';
import type { OrchestratorOptions, RunLimits } from './engine/run.ts';
import { budgetTokens } from './engine/tokens.ts';
import type { ChatModel, Tool } from './engine/types.ts';
import { formatCount } from './engine/format.ts';
import type { Secret } from './engine/redact.ts';

/** A model loaded in this browser (web-llm), with the context window it was loaded with. */
export interface LocalChatModel {
  model: ChatModel;
  contextWindow: number;
}

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
  /** A model of a `webllm` provider, loaded in this browser. Throws an error that says what to
   * load when it is not loaded. Absent where models cannot run locally (the CLI). */
  localModel?(modelId: string, providerName: string, provider: ProviderConfig): LocalChatModel;
  /** The scripted demo's models (workers/backends/demo/), for a `demo` provider: hosts load the
   * module only when a config names one. */
  demoModel?(modelId: string): ChatModel;
}

/** The parts of one run. Prepare again for every run, rollout or task: the models made here may
 * keep their run's state (the scripted demo's orchestrator counts its searches), so parts shared
 * by two runs make each depend on what the other did. */
export interface PreparedRun {
  protocol: Protocol;
  orchestrator: OrchestratorOptions;
  pricing: PricingTable;
  counterfactualModel: string | undefined;
  limits: RunLimits;
  preference: PreferenceVector;
  instruction: string | null;
  /** The config the run was prepared from, recorded in its run_started event. */
  config: OrchestraConfig;
  /** The keys its models were given: the run redacts them from everything it emits. */
  secrets: Secret[];
}

const FREE = { inputPerM: 0, outputPerM: 0 };

/** Whether a provider's models run in this browser (web-llm, or llama.cpp for GGUF). */
export function isLocalProviderKind(kind: ProviderConfig['kind'] | undefined): boolean {
  return kind === 'webllm' || kind === 'gguf';
}

/** The models the config runs on `webllm` and `gguf` providers: they run on the user's own machine. */
function localModelIds(config: OrchestraConfig): string[] {
  const onWebLlm = (provider: string) => isLocalProviderKind(config.providers[provider]?.kind);
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

/** A domain environment's tools and policy (tools/domains/): the run uses the function-calling
 * protocol over them, with the config's `call_expert` experts, whatever the config's protocol. */
export interface DomainTools {
  system: string;
  tools: Tool[];
  /** Offer the config's `call_expert` experts (default true; false for a model acting alone). */
  experts?: boolean;
}

export interface PrepareOptions {
  domain?: DomainTools;
  /** A person takes the orchestrator's turns (humanOrchestrator.ts): the config's orchestrator
   * is not created (no key or loaded model needed); the person's turns cost nothing. Paper
   * protocol only. */
  person?: ChatModel;
}

/** The experts a run calls: the config protocol's, or for a domain run its `call_expert` ones. */
function runExperts(config: OrchestraConfig, domain: DomainTools | undefined): Array<[alias: string, expert: ExpertConfig]> {
  if (!domain) return protocolExperts(config);
  if (domain.experts === false) return [];
  return Object.entries(resolveExperts(config)).filter(([, expert]) => expert.tool === CALL_EXPERT_TOOL);
}

/** One chat model of the config, as a run would get it: loaded in this browser for a `webllm`
 * provider (with its context window), an API client otherwise. */
export function createModel(config: OrchestraConfig, environment: RunEnvironment, providerName: string, model: string): ChatModel {
  return localChatModel(providerName, model, config, environment)?.model ?? createChatModel(providerName, model, config, environment);
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
  const models = new Map<string, ChatModel>();
  /** Models loaded in the browser have a context window the run must fit into. */
  const windows = new Map<ChatModel, number>();
  const modelFor = (providerName: string, model: string): ChatModel => {
    const key = `${providerName}\u0000${model}`;
    let chat = models.get(key);
    if (!chat) {
      const local = localChatModel(providerName, model, config, environment);
      chat = local?.model ?? createChatModel(providerName, model, config, environment);
      if (local) windows.set(chat, local.contextWindow);
      models.set(key, chat);
    }
    return chat;
  };

  const expertParts = (alias: string, expert: ExpertConfig) => {
    const model = modelFor(expert.provider, expert.model);
    const window = windows.get(model);
    return {
      alias,
      model,
      description: expert.description,
      price: lookupPrice(pricing, expert.model),
      latencySeconds: expert.latencySeconds,
      temperature: expert.temperature,
      maxTokens: window === undefined ? expert.maxTokens : replyTokens(window, expert.maxTokens),
    };
  };

  const orchestratorModel = options.person ?? modelFor(config.orchestrator.provider, config.orchestrator.model);
  const orchestratorWindow = windows.get(orchestratorModel);
  // A domain run speaks the function-calling protocol, whatever the config's.
  const configuredMaxTokens = config.orchestrator.maxTokens ?? ORCHESTRATOR_MAX_TOKENS[options.domain ? 'function-calling' : config.protocol];
  let orchestratorMaxTokens =
    orchestratorWindow === undefined ? configuredMaxTokens : replyTokens(orchestratorWindow, configuredMaxTokens);

  const experts = runExperts(config, options.domain);
  const search = searchFor(config, environment);
  let protocol: Protocol;
  if (options.domain) {
    protocol = createFunctionCallingProtocol({
      system: options.domain.system,
      tools: options.domain.tools,
      experts: experts.map(([alias, expert]) => expertParts(alias, expert)),
      toolTimeoutMs: config.paper.codeTimeoutSeconds * 1000 + 5000,
    });
  } else if (config.protocol === 'paper') {
    const { variant } = config.paper;
    const paperExperts: PaperExpert[] = experts.map(([alias, expert]) => {
      const parts = expertParts(alias, expert);
      const tool = expert.tool as PaperExpert['tool'];
      const reference = referenceExpertBudgets(tool, expert.model, variant);
      const budgets: ExpertBudgets = {
        documentChars: expert.documentChars === undefined ? reference.documentChars : expert.documentChars,
        codeContextTokens: expert.codeContextTokens ?? reference.codeContextTokens,
        contextTokens: expert.contextTokens ?? reference.contextTokens,
      };
      const window = windows.get(parts.model);
      return {
        ...parts,
        tool,
        answerStyle: expert.answerStyle ?? referenceAnswerStyle(expert.model),
        budgets:
          window === undefined ? budgets : fitExpertBudgets(budgets, { label: parts.model.model, contextWindow: window, maxTokens: parts.maxTokens }),
      };
    });
    const fit = fitPaperBudgets(
      {
        contextTokens: config.paper.contextTokens ?? VARIANT_DEFAULTS[variant].contextTokens,
        codeContextTokens: config.paper.codeContextTokens,
        documentChars: config.paper.documentChars ?? VARIANT_DEFAULTS[variant].documentChars,
      },
      orchestratorWindow === undefined
        ? undefined
        : {
            label: orchestratorModel.model,
            contextWindow: orchestratorWindow,
            maxTokens: configuredMaxTokens,
            fixedPromptTokens: budgetTokens(systemWithTools(PAPER_SYSTEM_PROMPT, buildPaperTools(paperExperts))),
          },
    );
    orchestratorMaxTokens = fit.orchestratorMaxTokens ?? orchestratorMaxTokens;
    protocol = createPaperProtocol({
      experts: paperExperts,
      retriever: search.retriever,
      searchUsdPerCall: search.usdPerCall,
      python: environment.python,
      variant,
      searchTopK: config.paper.searchTopK,
      codeTimeoutMs: config.paper.codeTimeoutSeconds * 1000,
      budgets: fit.budgets,
      writtenArguments: options.person !== undefined,
    });
  } else {
    protocol = createFunctionCallingProtocol({
      system: config.functionCalling.system,
      tools: createFunctionCallingTools(config.functionCalling.tools, {
        retriever: search.retriever,
        ...(search.description === undefined ? {} : { searchDescription: search.description }),
        python: environment.python,
        javascript: environment.javascript,
        calculator: environment.calculator,
        searchLimit: config.paper.searchTopK,
        codeTimeoutMs: config.paper.codeTimeoutSeconds * 1000,
        codeUsdPerSecond: pricing.codePerSecond,
      }, config.customTools),
      experts: experts.map(([alias, expert]) => expertParts(alias, expert)),
      toolTimeoutMs: config.paper.codeTimeoutSeconds * 1000 + 5000,
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
      maxTokens: orchestratorMaxTokens,
      enableThinking: config.orchestrator.enableThinking,
    },
    pricing,
    counterfactualModel: pickCounterfactualModel(
      experts.map(([, expert]) => expert.model),
      pricing,
    ),
    limits: {
      maxTurns: config.limits.maxTurns,
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

/** A `webllm` or `gguf` provider's model from the browser's loaded models, with its context window checked
 * against the one the config asks for; undefined for other providers. */
function localChatModel(
  providerName: string,
  model: string,
  config: OrchestraConfig,
  environment: RunEnvironment,
): LocalChatModel | undefined {
  const provider = config.providers[providerName];
  if (!provider || !isLocalProviderKind(provider.kind)) return undefined;
  if (!environment.localModel) {
    const [engine, kind] = provider.kind === 'gguf' ? ['llama.cpp', 'GGUF'] : ['web-llm on WebGPU', 'web-llm'];
    throw new Error(
      `Provider "${providerName}" runs "${model}" in the browser (${engine}), and ${kind} models run only in the browser: open the playground, or use a remote provider here.`,
    );
  }
  const local = environment.localModel(model, providerName, provider);
  if (provider.contextWindow !== undefined && local.contextWindow < provider.contextWindow) {
    throw new Error(
      `"${model}" is loaded with a ${formatCount(local.contextWindow)}-token context window, and provider "${providerName}" asks for at least ${formatCount(provider.contextWindow)}. Load it again with a larger window in Models in this browser.`,
    );
  }
  return local;
}

function createChatModel(
  providerName: string,
  model: string,
  config: OrchestraConfig,
  environment: RunEnvironment,
): ChatModel {
  const provider = config.providers[providerName];
  if (!provider) throw new Error(`Unknown provider "${providerName}"`);
  if (provider.kind === 'demo') {
    if (!environment.demoModel) throw new Error(`Provider "${providerName}" is the scripted demo, which was not loaded here.`);
    return environment.demoModel(model);
  }
  const common = {
    model,
    apiKey: environment.apiKey(providerName, provider),
    timeoutMs: provider.timeoutSeconds * 1000,
    idleTimeoutMs: provider.idleTimeoutSeconds * 1000,
    maxRetries: provider.maxRetries,
    fetch: environment.fetch,
  };
  if (provider.kind === 'anthropic') {
    return createAnthropicModel({ ...common, baseUrl: provider.baseUrl });
  }
  if (!provider.baseUrl) throw new Error(`Provider "${providerName}" needs a baseUrl`);
  return createOpenAICompatibleModel({
    ...common,
    baseUrl: provider.baseUrl,
    provider: providerName,
    maxTokensField: provider.maxTokensField,
  });
}
