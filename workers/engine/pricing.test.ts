import { describe, expect, it } from 'vitest';
import { lookupPrice, priceUsage, REFERENCE_PRICING, type PricingTable } from './pricing.ts';

describe('REFERENCE_PRICING', () => {
  it('holds the reference prices and rates, dated', () => {
    expect(REFERENCE_PRICING.asOf).toBe('2025-11-26');
    expect(REFERENCE_PRICING.models['gpt-5']).toEqual({ inputPerM: 1.25, outputPerM: 10 });
    expect(REFERENCE_PRICING.models['claude-opus-4-1']).toEqual({ inputPerM: 15, outputPerM: 75 });
    expect(REFERENCE_PRICING.models['Qwen/Qwen2.5-Math-72B-Instruct']).toEqual({ inputPerM: 0.9, outputPerM: 0.9 });
    expect(REFERENCE_PRICING.codePerSecond).toBe(0.0000083);
    expect(REFERENCE_PRICING.searchPerCall).toBe(0.01);
  });

  it('charges the orchestrator at Qwen3-8B prices', () => {
    const qwen3 = REFERENCE_PRICING.models['Qwen/Qwen3-8B'];
    expect(qwen3).toEqual({ inputPerM: 0.2, outputPerM: 0.2 });
    expect(REFERENCE_PRICING.models['nvidia/Nemotron-Orchestrator-8B']).toEqual(qwen3);
    expect(REFERENCE_PRICING.models['nvidia/Orchestrator-8B']).toEqual(qwen3);
  });
});

describe('lookupPrice', () => {
  it('finds an exact id', () => {
    expect(lookupPrice(REFERENCE_PRICING, 'gpt-5-mini')).toEqual({ inputPerM: 0.25, outputPerM: 2 });
  });

  it('ignores case', () => {
    expect(lookupPrice(REFERENCE_PRICING, 'meta-llama/llama-3.3-70b-instruct')).toEqual({ inputPerM: 0.9, outputPerM: 0.9 });
    expect(lookupPrice(REFERENCE_PRICING, 'GPT-5')).toEqual({ inputPerM: 1.25, outputPerM: 10 });
  });

  it('drops a provider prefix from the query', () => {
    expect(lookupPrice(REFERENCE_PRICING, 'openai/gpt-5')).toEqual({ inputPerM: 1.25, outputPerM: 10 });
    expect(lookupPrice(REFERENCE_PRICING, 'anthropic/claude-sonnet-4')).toEqual({ inputPerM: 3, outputPerM: 15 });
  });

  it('matches a table key with a prefix to a bare query, and prefixes that differ', () => {
    expect(lookupPrice(REFERENCE_PRICING, 'Qwen3-32B')).toEqual({ inputPerM: 0.8, outputPerM: 0.8 });
    expect(lookupPrice(REFERENCE_PRICING, 'qwen2.5-math-7b-instruct')).toEqual({ inputPerM: 0.2, outputPerM: 0.2 });
    expect(lookupPrice(REFERENCE_PRICING, 'together/Qwen/Qwen3-32B')).toEqual({ inputPerM: 0.8, outputPerM: 0.8 });
  });

  it('does not confuse the two orchestrator names, nor gpt-5 with gpt-5-mini', () => {
    const table: PricingTable = {
      ...REFERENCE_PRICING,
      models: { 'nvidia/Orchestrator-8B': { inputPerM: 1, outputPerM: 1 }, 'gpt-5-mini': { inputPerM: 0.25, outputPerM: 2 } },
    };
    expect(lookupPrice(table, 'Orchestrator-8B')).toEqual({ inputPerM: 1, outputPerM: 1 });
    expect(lookupPrice(table, 'Nemotron-Orchestrator-8B')).toBeUndefined();
    expect(lookupPrice(table, 'gpt-5')).toBeUndefined();
  });

  it('returns undefined for an unknown model', () => {
    expect(lookupPrice(REFERENCE_PRICING, 'mistral-large')).toBeUndefined();
    expect(lookupPrice(REFERENCE_PRICING, '')).toBeUndefined();
  });

  it('prefers an exact match, and calls a bare name unknown when prefixed entries disagree', () => {
    const table: PricingTable = {
      ...REFERENCE_PRICING,
      models: {
        'a/model-x': { inputPerM: 1, outputPerM: 2 },
        'b/model-x': { inputPerM: 3, outputPerM: 4 },
        'c/model-y': { inputPerM: 5, outputPerM: 5 },
        'd/model-y': { inputPerM: 5, outputPerM: 5 },
      },
    };
    expect(lookupPrice(table, 'b/model-x')).toEqual({ inputPerM: 3, outputPerM: 4 });
    expect(lookupPrice(table, 'model-x')).toBeUndefined();
    expect(lookupPrice(table, 'model-y')).toEqual({ inputPerM: 5, outputPerM: 5 });
  });
});

describe('priceUsage', () => {
  it('prices prompt and completion tokens per million', () => {
    // 1000 × 1.25/1e6 + 500 × 10/1e6 = 0.00125 + 0.005 = 0.00625
    expect(priceUsage({ inputPerM: 1.25, outputPerM: 10 }, { promptTokens: 1000, completionTokens: 500 })).toBeCloseTo(0.00625, 12);
  });

  it('does not add reasoning tokens on top of the completion tokens', () => {
    const price = { inputPerM: 1.25, outputPerM: 10 };
    const withReasoning = priceUsage(price, { promptTokens: 1000, completionTokens: 500, reasoningTokens: 400 });
    expect(withReasoning).toBeCloseTo(0.00625, 12);
  });

  it('prices cached and cache-write tokens at their own rates, or the input rate', () => {
    const price = { inputPerM: 3, outputPerM: 15, cachedInputPerM: 0.3, cacheWritePerM: 3.75 };
    const usage = { promptTokens: 10_000, cachedPromptTokens: 6000, cacheWritePromptTokens: 2000, completionTokens: 100 };
    // uncached 2000 × 3 + cached 6000 × 0.3 + writes 2000 × 3.75 + 100 × 15
    // = 6000 + 1800 + 7500 + 1500 = 16800 per million → 0.0168
    expect(priceUsage(price, usage)).toBeCloseTo(0.0168, 12);
    // Without cache prices every prompt token is at 3: 10000 × 3 + 100 × 15 = 31500 → 0.0315
    expect(priceUsage({ inputPerM: 3, outputPerM: 15 }, usage)).toBeCloseTo(0.0315, 12);
  });
});
