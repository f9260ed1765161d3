import { describe, expect, it } from 'vitest';
import { Ledger, pickCounterfactualModel } from './ledger.ts';
import { REFERENCE_PRICING, type PricingTable } from './pricing.ts';

const CACHED_TABLE: PricingTable = {
  asOf: '2025-01-01',
  models: {
    'cheap-model': { inputPerM: 1, outputPerM: 2, cachedInputPerM: 0.1 },
    'strong-model': { inputPerM: 10, outputPerM: 40 },
  },
  codePerSecond: 0.0000083,
  searchPerCall: 0.01,
};

describe('Ledger.recordModelCall', () => {
  it('takes the provider cost over the price table', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    const entry = ledger.recordModelCall({
      step: 1,
      callId: 'c1',
      kind: 'expert',
      model: 'gpt-5',
      alias: 'answer-1',
      usage: { promptTokens: 1000, completionTokens: 1000, costUsd: 0.5 },
      latencyMs: 1200,
    });
    expect(entry).toMatchObject({ usd: 0.5, basis: 'measured', source: 'provider', callId: 'c1', alias: 'answer-1', latencyMs: 1200 });
    expect(ledger.totalUsd()).toBe(0.5);
  });

  it('prices reported usage as measured, with cached tokens at the cached rate', () => {
    const ledger = new Ledger({ pricing: CACHED_TABLE });
    const entry = ledger.recordModelCall({
      step: 1,
      kind: 'orchestrator',
      model: 'cheap-model',
      usage: { promptTokens: 10_000, cachedPromptTokens: 8000, completionTokens: 500 },
      latencyMs: 300,
    });
    // 2000 × 1 + 8000 × 0.1 + 500 × 2 = 2000 + 800 + 1000 = 3800 per million → 0.0038
    expect(entry.usd).toBeCloseTo(0.0038, 12);
    expect(entry).toMatchObject({ basis: 'measured', source: 'pricing' });
    expect(ledger.hasEstimates()).toBe(false);
  });

  it('keeps an unknown price as null and counts it, never as $0', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    ledger.recordModelCall({ step: 1, kind: 'orchestrator', model: 'gpt-5-mini', usage: { promptTokens: 1_000_000, completionTokens: 0 }, latencyMs: 5 });
    const entry = ledger.recordModelCall({ step: 1, kind: 'expert', model: 'mystery-model', usage: { promptTokens: 100, completionTokens: 100 }, latencyMs: 5 });
    expect(entry.usd).toBeNull();
    expect(entry.basis).toBe('measured');
    expect(ledger.unknownCount()).toBe(1);
    // Only the known call: 1,000,000 × 0.25 per million = 0.25
    expect(ledger.totalUsd()).toBeCloseTo(0.25, 12);
  });

  it('marks counted-by-us tokens as estimated', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    const entry = ledger.recordModelCall({
      step: 2,
      kind: 'orchestrator',
      model: 'nvidia/Nemotron-Orchestrator-8B',
      estimatedUsage: { promptTokens: 3000, completionTokens: 2000 },
      latencyMs: 800,
    });
    // 5000 tokens × 0.2 per million = 0.001
    expect(entry.usd).toBeCloseTo(0.001, 12);
    expect(entry).toMatchObject({ basis: 'estimated', source: 'pricing', usage: { promptTokens: 3000, completionTokens: 2000 } });
    expect(ledger.hasEstimates()).toBe(true);
  });

  it('has no figure at all when neither usage nor an estimate came', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    const entry = ledger.recordModelCall({ step: 1, kind: 'expert', model: 'gpt-5', latencyMs: 10 });
    expect(entry.usd).toBeNull();
    expect(entry.usage).toBeUndefined();
    expect(ledger.unknownCount()).toBe(1);
    expect(ledger.hasEstimates()).toBe(false);
  });

  it('ignores a provider cost that is not a finite, non-negative number', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    const entry = ledger.recordModelCall({ step: 1, kind: 'expert', model: 'gpt-5-mini', usage: { promptTokens: 0, completionTokens: 1_000_000, costUsd: Number.NaN }, latencyMs: 1 });
    expect(entry).toMatchObject({ usd: 2, source: 'pricing' });
  });
});

describe('Ledger rates and tools', () => {
  it('charges code by the second and search by the call, as estimates', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    const code = ledger.recordCodeExecution({ step: 1, callId: 'k', seconds: 12.5, latencyMs: 12_600 });
    // 12.5 × 0.0000083 = 0.00010375
    expect(code.usd).toBeCloseTo(0.00010375, 15);
    expect(code).toMatchObject({ kind: 'code', basis: 'estimated', source: 'rate', callId: 'k' });
    const search = ledger.recordSearch({ step: 1, calls: 3, latencyMs: 900 });
    expect(search.usd).toBeCloseTo(0.03, 12);
    expect(search).toMatchObject({ kind: 'search', basis: 'estimated', source: 'rate' });
    expect(ledger.recordSearch({ step: 2, latencyMs: 1 }).usd).toBeCloseTo(0.01, 12);
    expect(ledger.hasEstimates()).toBe(true);
  });

  it('keeps a sandbox start-up in the time, apart and uncharged, and stamps when each entry ended', () => {
    let now = 0;
    const ledger = new Ledger({ pricing: REFERENCE_PRICING, clock: () => now });
    now = 9_400.4;
    const code = ledger.recordCodeExecution({ step: 1, seconds: 0.4, latencyMs: 9_400, startup: { sandbox: 'Python', ms: 9_000 } });
    expect(code).toMatchObject({ latencyMs: 9_400, startup: { sandbox: 'Python', ms: 9_000 }, endMs: 9_400 });
    expect(code.usd).toBeCloseTo(0.4 * REFERENCE_PRICING.codePerSecond, 15);
    now = 9_600;
    // A warm sandbox (0 ms) records no start-up at all.
    const warm = ledger.recordTool({ step: 2, tool: 'run_python', latencyMs: 150, startup: { sandbox: 'Python', ms: 0 } });
    expect(warm.startup).toBeUndefined();
    expect(warm.endMs).toBe(9_600);
    // Without a clock (a ledger outside a run) entries carry no time stamp.
    expect(new Ledger({ pricing: REFERENCE_PRICING }).recordSearch({ step: 1, latencyMs: 5, usd: 0 }).endMs).toBeUndefined();
  });

  it('takes an explicit search cost, including a free local search', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    const local = ledger.recordSearch({ step: 1, latencyMs: 40, usd: 0 });
    expect(local).toMatchObject({ usd: 0, basis: 'measured' });
    expect(ledger.hasEstimates()).toBe(false);
  });

  it('charges client tools what they report, else nothing', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    expect(ledger.recordTool({ step: 1, tool: 'get_weather', latencyMs: 20 })).toMatchObject({ kind: 'tool', tool: 'get_weather', usd: 0, basis: 'measured' });
    expect(ledger.recordTool({ step: 1, tool: 'paid_api', usd: 0.002, latencyMs: 20 }).usd).toBe(0.002);
    expect(ledger.totalUsd()).toBe(0.002);
    expect(ledger.unknownCount()).toBe(0);
  });

  it('sums per step and keeps entries in order', () => {
    const ledger = new Ledger({ pricing: REFERENCE_PRICING });
    ledger.recordTool({ step: 1, tool: 'a', usd: 0.1, latencyMs: 1 });
    ledger.recordTool({ step: 2, tool: 'b', usd: 0.2, latencyMs: 1 });
    ledger.recordTool({ step: 2, tool: 'c', usd: 0.3, latencyMs: 1 });
    ledger.recordModelCall({ step: 2, kind: 'expert', model: 'unknown-x', usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1 });
    expect(ledger.stepUsd(1)).toBeCloseTo(0.1, 12);
    expect(ledger.stepUsd(2)).toBeCloseTo(0.5, 12);
    expect(ledger.stepUsd(3)).toBe(0);
    expect(ledger.entries.map((entry) => entry.tool ?? entry.model)).toEqual(['a', 'b', 'c', 'unknown-x']);
  });
});

describe('Ledger.counterfactualUsd', () => {
  it('reprices expert calls at the strongest model and keeps the rest', () => {
    const ledger = new Ledger({ pricing: CACHED_TABLE, counterfactualModel: 'strong-model' });
    // Orchestrator: 1000 × 1 + 1000 × 2 = 3000 per million → 0.003 (kept as is)
    ledger.recordModelCall({ step: 1, kind: 'orchestrator', model: 'cheap-model', usage: { promptTokens: 1000, completionTokens: 1000 }, latencyMs: 1 });
    // Expert: actual 2000 × 1 + 500 × 2 = 3000 → 0.003; on strong-model 2000 × 10 + 500 × 40 = 40000 → 0.04
    const expert = ledger.recordModelCall({ step: 1, kind: 'expert', model: 'cheap-model', usage: { promptTokens: 2000, completionTokens: 500 }, latencyMs: 1 });
    // Code: 10 s × 0.0000083 = 0.000083 (kept as is)
    ledger.recordCodeExecution({ step: 1, seconds: 10, latencyMs: 10_000 });
    expect(expert.counterfactualUsd).toBeCloseTo(0.04, 12);
    expect(ledger.totalUsd()).toBeCloseTo(0.006083, 12);
    // 0.003 + 0.04 + 0.000083 = 0.043083
    expect(ledger.counterfactualUsd()).toBeCloseTo(0.043083, 12);
  });

  it('reprices an estimated expert call too, and a provider-costed one by its tokens', () => {
    const ledger = new Ledger({ pricing: CACHED_TABLE, counterfactualModel: 'strong-model' });
    ledger.recordModelCall({ step: 1, kind: 'expert', model: 'cheap-model', estimatedUsage: { promptTokens: 100, completionTokens: 100 }, latencyMs: 1 });
    ledger.recordModelCall({ step: 1, kind: 'expert', model: 'cheap-model', usage: { promptTokens: 100, completionTokens: 0, costUsd: 0.9 }, latencyMs: 1 });
    // 100 × 10 + 100 × 40 = 5000 → 0.005; 100 × 10 = 1000 → 0.001
    expect(ledger.counterfactualUsd()).toBeCloseTo(0.006, 12);
  });

  it('is null without a counterfactual model, with an unpriced one, or when a needed figure is unknown', () => {
    const usage = { promptTokens: 10, completionTokens: 10 };
    const none = new Ledger({ pricing: CACHED_TABLE });
    none.recordModelCall({ step: 1, kind: 'expert', model: 'cheap-model', usage, latencyMs: 1 });
    expect(none.counterfactualUsd()).toBeNull();
    expect(none.entries[0]?.counterfactualUsd).toBeNull();

    const unpriced = new Ledger({ pricing: CACHED_TABLE, counterfactualModel: 'no-such-model' });
    unpriced.recordModelCall({ step: 1, kind: 'expert', model: 'cheap-model', usage, latencyMs: 1 });
    expect(unpriced.counterfactualUsd()).toBeNull();

    const unknownOrchestrator = new Ledger({ pricing: CACHED_TABLE, counterfactualModel: 'strong-model' });
    unknownOrchestrator.recordModelCall({ step: 1, kind: 'orchestrator', model: 'no-such-model', usage, latencyMs: 1 });
    expect(unknownOrchestrator.counterfactualUsd()).toBeNull();

    // An expert whose own price is unknown can still be repriced: its tokens are known.
    const unknownExpert = new Ledger({ pricing: CACHED_TABLE, counterfactualModel: 'strong-model' });
    unknownExpert.recordModelCall({ step: 1, kind: 'expert', model: 'no-such-model', usage, latencyMs: 1 });
    // 10 × 10 + 10 × 40 = 500 → 0.0005
    expect(unknownExpert.counterfactualUsd()).toBeCloseTo(0.0005, 12);
  });

  it('is zero for an empty run with a counterfactual model', () => {
    expect(new Ledger({ pricing: CACHED_TABLE, counterfactualModel: 'strong-model' }).counterfactualUsd()).toBe(0);
  });
});

describe('pickCounterfactualModel', () => {
  it('picks the most expensive known model by input + output price', () => {
    expect(pickCounterfactualModel(['gpt-5-mini', 'openai/gpt-5', 'Qwen/Qwen3-32B'], REFERENCE_PRICING)).toBe('openai/gpt-5');
    expect(pickCounterfactualModel(['claude-sonnet-4', 'gpt-5', 'unknown-giant'], REFERENCE_PRICING)).toBe('claude-sonnet-4');
  });

  it('returns undefined when no model has a price', () => {
    expect(pickCounterfactualModel(['unknown-a', 'unknown-b'], REFERENCE_PRICING)).toBeUndefined();
    expect(pickCounterfactualModel([], REFERENCE_PRICING)).toBeUndefined();
  });
});
