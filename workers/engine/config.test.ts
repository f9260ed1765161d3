import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, parseConfigText, resolveExperts } from './config.ts';

const minimal = {
  providers: {
    vllm: { kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' },
    openai: { kind: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
    'open-models': { kind: 'openai-compatible', baseUrl: 'http://localhost:8001/v1' },
  },
  orchestrator: { provider: 'vllm', model: 'nvidia/Nemotron-Orchestrator-8B' },
  experts: 'paper',
};

function problemsOf(value: unknown): string[] {
  try {
    parseConfig(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the config to be rejected');
}

describe('config', () => {
  it('fills defaults and resolves the paper preset', () => {
    const config = parseConfig(minimal);
    expect(config.protocol).toBe('paper');
    expect(config.orchestrator).toMatchObject({ toolMode: 'server', temperature: 1, maxTokens: 12000 });
    expect(config.limits).toEqual({ maxTurns: 50, maxCostUsd: null, maxWallSeconds: null, maxInvalidTurns: 3 });
    expect(config.paper.codeTimeoutSeconds).toBe(60);
    expect(config.preference).toBe('balanced');
    const experts = resolveExperts(config);
    expect(Object.keys(experts)).toHaveLength(12);
    expect(experts['answer-1']).toMatchObject({ tool: 'answer', provider: 'openai', model: 'gpt-5' });
  });

  it('names the field and says what is wrong', () => {
    const problems = problemsOf({
      ...minimal,
      orchestrator: { provider: 'nowhere', model: '' },
      limits: { maxTurns: 0 },
      providers: { ...minimal.providers, bad: { kind: 'openai-compatible', apiKeyEnv: 'not a name' } },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^orchestrator\.model: /),
        expect.stringMatching(/^limits\.maxTurns: /),
        expect.stringMatching(/^providers\.bad\.apiKeyEnv: must be an environment variable name/),
      ]),
    );
  });

  it('wants an http(s) base URL, so a missing scheme is caught', () => {
    for (const baseUrl of ['localhost:8000/v1', 'ftp://example.com/v1']) {
      expect(problemsOf({ ...minimal, providers: { ...minimal.providers, vllm: { kind: 'openai-compatible', baseUrl } } })).toEqual([
        'providers.vllm.baseUrl: must be a full http(s) URL such as http://localhost:8000/v1',
      ]);
    }
  });

  it('checks cross-references once the fields are well-formed', () => {
    expect(problemsOf({ ...minimal, orchestrator: { provider: 'nowhere', model: 'm' } })).toEqual([
      'orchestrator.provider: names provider "nowhere", which is not in "providers" (known: vllm, openai, open-models)',
    ]);
    expect(
      problemsOf({ ...minimal, providers: { ...minimal.providers, bad: { kind: 'openai-compatible' } } }),
    ).toEqual(['providers.bad.baseUrl: is required for an openai-compatible provider']);
    expect(
      problemsOf({
        ...minimal,
        experts: { 'search-1': { tool: 'search', provider: 'openai', model: 'gpt-5' } },
      }),
    ).toEqual([
      'experts: the paper protocol needs at least one expert for "enhance_reasoning"',
      'experts: the paper protocol needs at least one expert for "answer"',
    ]);
  });

  it('says once which providers the paper preset needs', () => {
    expect(problemsOf({ ...minimal, providers: { vllm: minimal.providers.vllm } })).toEqual([
      'experts: the "paper" preset needs providers named "openai" and "open-models" (GPT-5 models from "openai", open models from "open-models")',
    ]);
  });

  it('rejects unknown keys (a typo is never silently ignored)', () => {
    expect(problemsOf({ ...minimal, limit: { maxTurns: 3 } })[0]).toMatch(/limit/);
  });

  it('reports JSON syntax errors', () => {
    expect(() => parseConfigText('{"protocol": ')).toThrow(/not valid JSON/);
  });

  it('accepts preference presets and vectors, and refuses out-of-range weights', () => {
    expect(parseConfig({ ...minimal, preference: 'cheapest' }).preference).toBe('cheapest');
    expect(parseConfig({ ...minimal, preference: { outcome: 1, cost: 0.5, latency: 0 } }).preference).toEqual({
      outcome: 1,
      cost: 0.5,
      latency: 0,
      tools: {},
    });
    expect(problemsOf({ ...minimal, preference: { outcome: 2, cost: 0, latency: 0 } }).join()).toMatch(/preference/);
  });
});
