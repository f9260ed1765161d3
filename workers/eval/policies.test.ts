import { describe, expect, it } from 'vitest';
import { parseConfig } from '../hosts/config.ts';
import { REFERENCE_PRICING } from '../engine/pricing.ts';
import { parsePolicy, sweepPolicies } from './policies.ts';
import { pickExpert } from './policies/alone/alone.ts';
import { costWeightPreference } from '../engine/preferences.ts';
import { PolicyError } from './policy.ts';

describe('policy names', () => {
  it('reads every form, with canonical names', () => {
    expect(parsePolicy('orchestrator')).toEqual({ name: 'orchestrator', kind: 'orchestrator' });
    expect(parsePolicy('orchestrator@best-answer')).toEqual({ name: 'orchestrator@best-answer', kind: 'orchestrator', preference: 'best-answer' });
    expect(parsePolicy('orchestrator@cost=.25')).toEqual({ name: 'orchestrator@cost=0.25', kind: 'orchestrator', preference: { outcome: 0.75, cost: 0.25, latency: 0, tools: {} } });
    expect(parsePolicy(' strongest ')).toEqual({ name: 'strongest', kind: 'strongest' });
    expect(parsePolicy('random')).toEqual({ name: 'random', kind: 'random' });
    expect(parsePolicy('qwen3=ollama/qwen3:8b')).toEqual({ name: 'qwen3=ollama/qwen3:8b', kind: 'qwen3', provider: 'ollama', model: 'qwen3:8b' });
    expect(parsePolicy('qwen3=local/Qwen/Qwen3-8B')).toMatchObject({ provider: 'local', model: 'Qwen/Qwen3-8B' });
  });

  it('refuses the rest, saying what would do', () => {
    expect(() => parsePolicy('smartest')).toThrow(PolicyError);
    expect(() => parsePolicy('smartest')).toThrow(/Policies: orchestrator, orchestrator@<preset>/);
    expect(() => parsePolicy('orchestrator@thrifty')).toThrow('after "orchestrator@" give a preset (cheapest, balanced, best-answer, fastest) or cost=<0..1>');
    expect(() => parsePolicy('orchestrator@cost=1.5')).toThrow('The cost weight must be a number from 0 to 1, got "1.5"');
    expect(() => parsePolicy('qwen3=nomodel')).toThrow('write qwen3=<provider>/<model>');
  });

  it('sweeps the presets or a grid over the cost weight', () => {
    expect(sweepPolicies('presets').map((p) => p.name)).toEqual(['orchestrator@cheapest', 'orchestrator@balanced', 'orchestrator@best-answer', 'orchestrator@fastest']);
    expect(sweepPolicies('cost=0, 0.5,1').map((p) => p.name)).toEqual(['orchestrator@cost=0', 'orchestrator@cost=0.5', 'orchestrator@cost=1']);
    expect(costWeightPreference(0.3)).toEqual({ outcome: 0.7, cost: 0.3, latency: 0, tools: {} });
    expect(() => sweepPolicies('cost=')).toThrow('A cost sweep lists weights');
    expect(() => sweepPolicies('all')).toThrow('A sweep is "presets" or "cost=<w1>,<w2>,…"');
  });
});

describe('the strongest and cheapest experts', () => {
  it('are the priciest and least pricey answering experts of the paper\'s mapping', () => {
    const config = parseConfig({
      providers: { openai: { kind: 'openai-compatible', baseUrl: 'http://localhost/v1' }, 'open-models': { kind: 'openai-compatible', baseUrl: 'http://localhost/v1' } },
      orchestrator: { provider: 'open-models', model: 'nvidia/Nemotron-Orchestrator-8B' },
      experts: 'paper',
    });
    const [strongAlias, strong] = pickExpert(config, 'strongest', REFERENCE_PRICING);
    expect(strongAlias).toBe('answer-1');
    expect(strong.model).toBe('gpt-5');
    const [cheapAlias] = pickExpert(config, 'cheapest', REFERENCE_PRICING);
    // A search or reasoning alias never answers alone, however cheap.
    expect(['answer-2', 'answer-3', 'answer-4', 'answer-math-1', 'answer-math-2']).toContain(cheapAlias);
  });

  it('need a priced answering expert', () => {
    const config = parseConfig({
      protocol: 'function-calling',
      providers: { p: { kind: 'openai-compatible', baseUrl: 'http://localhost/v1' } },
      orchestrator: { provider: 'p', model: 'orch' },
      experts: { 'expert-1': { tool: 'call_expert', provider: 'p', model: 'unpriced-model' } },
    });
    expect(() => pickExpert(config, 'strongest', REFERENCE_PRICING)).toThrow('needs an answering expert (an "answer" or "call_expert" alias) with a known price');
  });
});
