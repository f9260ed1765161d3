// Model prices and how a call's tokens turn into dollars. Tables are written per million
// tokens, as providers publish them; a table carries the date its prices were true on.

import type { Usage } from './types.ts';

export interface ModelPrice {
  inputPerM: number;
  outputPerM: number;
  /** Prompt tokens read from the provider's cache; defaults to `inputPerM`. */
  cachedInputPerM?: number;
  /** Prompt tokens written to the cache (Anthropic); defaults to `inputPerM`. */
  cacheWritePerM?: number;
}

export interface PricingTable {
  /** YYYY-MM-DD the prices were true on. */
  asOf: string;
  source?: string;
  models: Record<string, ModelPrice>;
  /** Code execution, $ per second of run time. */
  codePerSecond: number;
  /** Web search, $ per call. */
  searchPerCall: number;
}

const QWEN3_8B: ModelPrice = { inputPerM: 0.2, outputPerM: 0.2 };

/** The reference prices of the paper's code. The orchestrator is charged as Qwen3-8B. */
export const REFERENCE_PRICING: PricingTable = {
  asOf: '2025-11-26',
  source: 'ToolOrchestra reference code (arXiv 2511.21689)',
  models: {
    'gpt-5': { inputPerM: 1.25, outputPerM: 10 },
    'gpt-5-mini': { inputPerM: 0.25, outputPerM: 2 },
    'Qwen/Qwen3-32B': { inputPerM: 0.8, outputPerM: 0.8 },
    'Qwen/Qwen2.5-Coder-32B-Instruct': { inputPerM: 0.8, outputPerM: 0.8 },
    'Qwen/Qwen2.5-Math-72B-Instruct': { inputPerM: 0.9, outputPerM: 0.9 },
    'Qwen/Qwen2.5-Math-7B-Instruct': { inputPerM: 0.2, outputPerM: 0.2 },
    'meta-llama/Llama-3.3-70B-Instruct': { inputPerM: 0.9, outputPerM: 0.9 },
    'Qwen/Qwen3-8B': QWEN3_8B,
    'claude-opus-4-1': { inputPerM: 15, outputPerM: 75 },
    'claude-sonnet-4': { inputPerM: 3, outputPerM: 15 },
    'nvidia/Nemotron-Orchestrator-8B': QWEN3_8B,
    'nvidia/Orchestrator-8B': QWEN3_8B,
  },
  codePerSecond: 0.0000083,
  searchPerCall: 0.01,
};

function withoutProvider(model: string): string {
  return model.slice(model.lastIndexOf('/') + 1).toLowerCase();
}

function samePrice(a: ModelPrice, b: ModelPrice): boolean {
  return (
    a.inputPerM === b.inputPerM &&
    a.outputPerM === b.outputPerM &&
    a.cachedInputPerM === b.cachedInputPerM &&
    a.cacheWritePerM === b.cacheWritePerM
  );
}

/** Finds a model's price: exact id, then case-insensitive, then ignoring a provider prefix on
 * either side ("openai/gpt-5" finds "gpt-5", "Qwen3-32B" finds "Qwen/Qwen3-32B"). When the
 * prefix-free name matches entries with different prices, the price is unknown. */
export function lookupPrice(table: PricingTable, model: string): ModelPrice | undefined {
  const exact = table.models[model];
  if (exact) return exact;
  const entries = Object.entries(table.models);
  const lower = model.toLowerCase();
  const caseInsensitive = entries.find(([key]) => key.toLowerCase() === lower);
  if (caseInsensitive) return caseInsensitive[1];
  const bare = withoutProvider(model);
  const candidates = entries.filter(([key]) => withoutProvider(key) === bare).map(([, price]) => price);
  const [first] = candidates;
  if (!first || candidates.some((price) => !samePrice(price, first))) return undefined;
  return first;
}

/** Dollars for one call's tokens. Cached and cache-write tokens are subsets of the prompt
 * tokens; reasoning tokens are already inside the completion tokens. */
export function priceUsage(price: ModelPrice, usage: Usage): number {
  const cached = usage.cachedPromptTokens ?? 0;
  const cacheWrites = usage.cacheWritePromptTokens ?? 0;
  const uncached = Math.max(0, usage.promptTokens - cached - cacheWrites);
  const perMillion =
    uncached * price.inputPerM +
    cached * (price.cachedInputPerM ?? price.inputPerM) +
    cacheWrites * (price.cacheWritePerM ?? price.inputPerM) +
    usage.completionTokens * price.outputPerM;
  return perMillion / 1_000_000;
}
