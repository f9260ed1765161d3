import { describe, expect, it } from 'vitest';
import { parseConfig } from './engine/config.ts';
import { lookupPrice, REFERENCE_PRICING } from './engine/pricing.ts';
import { effectivePricing } from './prepareRun.ts';

const LOCAL = 'Qwen3-4B-q4f32_1-MLC';

describe('effectivePricing', () => {
  const config = (pricing?: unknown) =>
    parseConfig({
      protocol: 'function-calling',
      providers: { local: { kind: 'webllm' }, vllm: { kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' } },
      orchestrator: { provider: 'local', model: LOCAL, toolMode: 'prompt' },
      experts: { 'expert-1': { tool: 'call_expert', provider: 'vllm', model: 'gpt-5' } },
      ...(pricing ? { pricing } : {}),
    });

  it('charges models run in the browser nothing, and remote ones the reference price', () => {
    const pricing = effectivePricing(config());
    expect(lookupPrice(pricing, LOCAL)).toEqual({ inputPerM: 0, outputPerM: 0 });
    expect(lookupPrice(pricing, 'gpt-5')).toEqual(REFERENCE_PRICING.models['gpt-5']);
    expect(pricing.asOf).toBe(REFERENCE_PRICING.asOf);
  });

  it('lets the config charge a local model after all (as the paper prices its orchestrator)', () => {
    const pricing = effectivePricing(config({ asOf: '2026-01-01', models: { [LOCAL]: { inputPerM: 0.2, outputPerM: 0.2 } } }));
    expect(lookupPrice(pricing, LOCAL)).toEqual({ inputPerM: 0.2, outputPerM: 0.2 });
    expect(pricing).toMatchObject({ asOf: '2026-01-01', source: 'configuration' });
  });
});
