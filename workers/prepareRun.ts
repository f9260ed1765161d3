// The composition root: turns a validated config plus what the environment provides (keys,
// retriever, Python, fetch) into the parts a run needs. The CLI and the browser worker both go
// through here, so a config means the same thing everywhere.

import { createFunctionCallingTools } from '../tools/functionTools.ts';
import type { PythonRunner } from '../tools/python/types.ts';
import type { Retriever } from '../tools/search/retriever.ts';
import { createAnthropicModel } from './backends/anthropic.ts';
import { createOpenAICompatibleModel } from './backends/openaiCompatible.ts';
import { protocolExperts, type ExpertConfig, type OrchestraConfig, type ProviderConfig } from './engine/config.ts';
import { pickCounterfactualModel } from './engine/ledger.ts';
import { PREFERENCE_PRESETS, preferenceInstruction, type PreferenceVector } from './engine/preferences.ts';
import { lookupPrice, REFERENCE_PRICING, type PricingTable } from './engine/pricing.ts';
import type { Protocol } from './engine/protocol.ts';
import { createFunctionCallingProtocol } from './engine/protocols/functionCalling.ts';
import { createPaperProtocol, type PaperExpert } from './engine/protocols/paper.ts';
import type { OrchestratorOptions, RunLimits } from './engine/run.ts';
import type { ChatModel } from './engine/types.ts';

export interface RunEnvironment {
  /** The API key for a provider, or undefined when it needs none. Never logged. */
  apiKey(providerName: string, provider: ProviderConfig): string | undefined;
  retriever: Retriever;
  /** What one search of `retriever` costs when known: 0 for the local corpus. Leave it out for a
   * paid web search, which is then charged at the pricing table's per-call rate, as an estimate. */
  searchUsdPerCall?: number;
  python: PythonRunner;
  fetch?: typeof fetch;
}

export interface PreparedRun {
  protocol: Protocol;
  orchestrator: OrchestratorOptions;
  pricing: PricingTable;
  counterfactualModel: string | undefined;
  limits: RunLimits;
  preference: PreferenceVector;
  instruction: string | null;
}

/** The reference prices with the config's own prices and rates laid over them. */
export function effectivePricing(config: OrchestraConfig): PricingTable {
  if (!config.pricing) return REFERENCE_PRICING;
  return {
    asOf: config.pricing.asOf,
    source: config.pricing.source ?? 'configuration',
    models: { ...REFERENCE_PRICING.models, ...config.pricing.models },
    codePerSecond: config.pricing.codePerSecond ?? REFERENCE_PRICING.codePerSecond,
    searchPerCall: config.pricing.searchPerCall ?? REFERENCE_PRICING.searchPerCall,
  };
}

export function resolvePreference(config: OrchestraConfig): PreferenceVector {
  return typeof config.preference === 'string' ? PREFERENCE_PRESETS[config.preference] : config.preference;
}

export function prepareRun(config: OrchestraConfig, environment: RunEnvironment): PreparedRun {
  const pricing = effectivePricing(config);
  const models = new Map<string, ChatModel>();
  const modelFor = (providerName: string, model: string): ChatModel => {
    const key = `${providerName}\u0000${model}`;
    let chat = models.get(key);
    if (!chat) {
      chat = createChatModel(providerName, model, config, environment);
      models.set(key, chat);
    }
    return chat;
  };

  const expertParts = (alias: string, expert: ExpertConfig) => ({
    alias,
    model: modelFor(expert.provider, expert.model),
    description: expert.description,
    price: lookupPrice(pricing, expert.model),
    latencySeconds: expert.latencySeconds,
    temperature: expert.temperature,
    maxTokens: expert.maxTokens,
  });

  const experts = protocolExperts(config);
  let protocol: Protocol;
  if (config.protocol === 'paper') {
    const paperExperts: PaperExpert[] = experts.map(([alias, expert]) => ({
        ...expertParts(alias, expert),
        tool: expert.tool as PaperExpert['tool'],
        answerStyle: expert.answerStyle ?? (/qwen/i.test(expert.model) ? 'boxed' : 'tagged'),
      }));
    protocol = createPaperProtocol({
      experts: paperExperts,
      retriever: environment.retriever,
      searchUsdPerCall: environment.searchUsdPerCall,
      python: environment.python,
      variant: config.paper.variant,
      searchTopK: config.paper.searchTopK,
      codeTimeoutMs: config.paper.codeTimeoutSeconds * 1000,
      budgets: {
        contextTokens: config.paper.contextTokens,
        codeContextTokens: config.paper.codeContextTokens,
        documentChars: config.paper.documentChars,
        expertContextTokens: config.paper.contextTokens,
      },
    });
  } else {
    protocol = createFunctionCallingProtocol({
      system: config.functionCalling.system,
      tools: createFunctionCallingTools(config.functionCalling.tools, {
        retriever: environment.retriever,
        python: environment.python,
        searchLimit: config.paper.searchTopK,
        codeTimeoutMs: config.paper.codeTimeoutSeconds * 1000,
        codeUsdPerSecond: pricing.codePerSecond,
      }),
      experts: experts.map(([alias, expert]) => expertParts(alias, expert)),
      toolTimeoutMs: config.paper.codeTimeoutSeconds * 1000 + 5000,
    });
  }

  const preference = resolvePreference(config);
  return {
    protocol,
    orchestrator: {
      model: modelFor(config.orchestrator.provider, config.orchestrator.model),
      toolMode: config.orchestrator.toolMode,
      temperature: config.orchestrator.temperature,
      maxTokens: config.orchestrator.maxTokens,
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
  };
}

function createChatModel(
  providerName: string,
  model: string,
  config: OrchestraConfig,
  environment: RunEnvironment,
): ChatModel {
  const provider = config.providers[providerName];
  if (!provider) throw new Error(`Unknown provider "${providerName}"`);
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
