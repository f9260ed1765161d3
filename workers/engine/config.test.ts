import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS, ConfigError } from './config.ts';
import { parseConfig, parseConfigText } from '../hosts/config.ts';
import { resolveExperts } from './configExperts.ts';

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
    expect(config.orchestrator).toMatchObject({ toolMode: 'server', temperature: 1 });
    expect(config.orchestrator.maxTokens).toBeUndefined(); // by protocol: 12,000 (paper), 8,000 (function calling)
    expect(config.limits).toEqual({ maxTurns: 50, maxCostUsd: null, maxWallSeconds: null, maxInvalidTurns: 3 });
    expect(config.paper.codeTimeoutSeconds).toBe(60);
    expect(config.preference).toBe('balanced');
    const experts = resolveExperts(config);
    expect(Object.keys(experts)).toHaveLength(12);
    expect(experts['answer-1']).toMatchObject({ tool: 'answer', provider: 'openai', model: 'gpt-5' });
  });

  it('still loads files written before the per-variant and per-expert budgets', () => {
    // Fields and values the format had before (explicit orchestrator budgets, boxed/tagged) keep
    // their meaning; unset budgets now follow the variant and the expert's model family.
    const config = parseConfig({
      ...minimal,
      experts: {
        'answer-1': { tool: 'answer', provider: 'vllm', model: 'm', answerStyle: 'tagged' },
        'answer-2': { tool: 'answer', provider: 'vllm', model: 'q', answerStyle: 'boxed' },
      },
      protocol: 'function-calling',
      paper: { variant: 'frames', contextTokens: 24000, codeContextTokens: 12000, documentChars: 4000 },
    });
    expect(config.paper).toMatchObject({ variant: 'frames', contextTokens: 24000, documentChars: 4000 });
    expect(parseConfig(minimal).paper.contextTokens).toBeUndefined();
  });

  it('takes per-expert budgets and the GPT-5 answer style, and refuses nonsense', () => {
    const experts = (expert: Record<string, unknown>) => ({
      ...minimal,
      experts: { 'answer-1': { tool: 'answer', provider: 'vllm', model: 'gpt-5', ...expert } },
      protocol: 'function-calling',
    });
    const config = parseConfig(experts({ answerStyle: 'think-hard', documentChars: null, codeContextTokens: 1000, contextTokens: 2000 }));
    expect(resolveExperts(config)['answer-1']).toMatchObject({ answerStyle: 'think-hard', documentChars: null, contextTokens: 2000 });
    expect(problemsOf(experts({ answerStyle: 'loud' }))).toHaveLength(1);
    expect(problemsOf(experts({ documentChars: 0 }))).toHaveLength(1);
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

  it('refuses credentials inside a base URL, which would be saved and exported', () => {
    expect(
      problemsOf({ ...minimal, providers: { ...minimal.providers, vllm: { kind: 'openai-compatible', baseUrl: 'https://user:placeholder@host/v1' } } }),
    ).toEqual(['providers.vllm.baseUrl: must not contain a user name or password: give the key in Setup (or its environment variable)']);
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

  describe('webllm providers (models in the browser)', () => {
    const local = {
      providers: { local: { kind: 'webllm' } },
      orchestrator: { provider: 'local', model: 'Qwen3-4B-q4f32_1-MLC', toolMode: 'prompt' },
      experts: {
        'search-1': { tool: 'search', provider: 'local', model: 'Qwen3-0.6B-q4f32_1-MLC' },
        'reasoner-1': { tool: 'enhance_reasoning', provider: 'local', model: 'Qwen3-1.7B-q4f32_1-MLC' },
        'answer-1': { tool: 'answer', provider: 'local', model: 'Qwen3-1.7B-q4f32_1-MLC' },
      },
    };

    it('needs no endpoint or key, and takes a window, constrained calls and custom weights', () => {
      const config = parseConfig({
        ...local,
        providers: {
          local: {
            kind: 'webllm',
            contextWindow: 8192,
            constrainToolCalls: true,
            models: { 'Orchestrator-8B-q4f16_1-MLC': { weightsUrl: 'https://huggingface.co/you/Orchestrator-8B-q4f16_1-MLC' } },
          },
        },
      });
      expect(config.providers.local).toMatchObject({
        kind: 'webllm',
        contextWindow: 8192,
        constrainToolCalls: true,
        models: { 'Orchestrator-8B-q4f16_1-MLC': { quantization: 'q4f16_1' } },
      });
    });

    it('wants toolMode "prompt" for a web-llm orchestrator, as for an Anthropic one', () => {
      expect(problemsOf({ ...local, orchestrator: { provider: 'local', model: 'Qwen3-4B-q4f32_1-MLC' } })).toEqual([
        'orchestrator.toolMode: a web-llm orchestrator needs toolMode "prompt" (web-llm takes no tools for Qwen3)',
      ]);
    });

    it('refuses fields that belong to the other kind of provider', () => {
      const problems = problemsOf({
        ...local,
        providers: {
          local: { kind: 'webllm', baseUrl: 'http://localhost:8000/v1', apiKeyEnv: 'KEY' },
          vllm: { kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1', contextWindow: 4096 },
        },
      });
      expect(problems).toEqual([
        'providers.local.baseUrl: is not used by a webllm provider (its models run in the browser: no endpoint, no key)',
        'providers.local.apiKeyEnv: is not used by a webllm provider (its models run in the browser: no endpoint, no key)',
        'providers.vllm.contextWindow: is only for a provider of models in the browser (webllm, gguf)',
      ]);
    });

    it('takes a gguf provider (llama.cpp in the tab) with a window and constrained calls, not custom weights or an endpoint', () => {
      const gguf = { ...local, providers: { local: { kind: 'gguf', contextWindow: 8192, constrainToolCalls: true } } };
      expect(parseConfig(gguf).providers.local).toMatchObject({ kind: 'gguf', contextWindow: 8192, constrainToolCalls: true });
      expect(problemsOf({ ...gguf, providers: { local: { kind: 'gguf', baseUrl: 'http://localhost:8000/v1', models: {} } } })).toEqual([
        'providers.local.baseUrl: is not used by a gguf provider (its models run in the browser: no endpoint, no key)',
        'providers.local.models: is only for a webllm provider (a gguf provider runs the GGUF models loaded in Models in this browser)',
      ]);
      expect(problemsOf({ ...gguf, orchestrator: { provider: 'local', model: 'x' } })).toEqual([
        'orchestrator.toolMode: a GGUF orchestrator needs toolMode "prompt" (the tools are rendered into its prompt and its calls read from its text)',
      ]);
    });

    it('checks the window and the custom weights URL', () => {
      const problems = problemsOf({
        ...local,
        providers: { local: { kind: 'webllm', contextWindow: 100, models: { mine: { weightsUrl: 'huggingface.co/you/x' } } } },
      });
      expect(problems).toEqual([
        expect.stringMatching(/^providers\.local\.contextWindow: Too small/),
        'providers.local.models.mine.weightsUrl: must be a full http(s) URL of the converted weights',
      ]);
    });
  });
});

describe('config bounds', () => {
  const manyProviders = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { kind: 'openai-compatible', baseUrl: `http://host${i}.example/v1` }]));

  it('refuses a config with more providers, experts or prices than any real one, saying how many are allowed', () => {
    const problems = problemsOf({ ...minimal, providers: { ...minimal.providers, ...manyProviders(12_000) } });
    expect(problems).toEqual([
      `providers: 12,003 providers; a config may have at most ${CONFIG_LIMITS.providers.toLocaleString('en-US')}`,
    ]);
    const experts = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`a${i}`, { tool: 'answer', provider: 'vllm', model: 'm' }]),
    );
    expect(problemsOf({ ...minimal, experts })).toEqual([`experts: 300 experts; a config may have at most ${CONFIG_LIMITS.experts}`]);
    const models = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`m${i}`, { inputPerM: 1, outputPerM: 1 }]));
    expect(problemsOf({ ...minimal, pricing: { asOf: '2026-01-01', models } })).toEqual([
      `pricing.models: 2,000 prices; a config may have at most ${CONFIG_LIMITS.pricedModels}`,
    ]);
  });

  it('refuses "__proto__" as a name anywhere, so the Setup and the engine never disagree', () => {
    const text = JSON.stringify({ ...minimal, providers: { ...minimal.providers, x: 1 } }).replace('"x":1', '"__proto__":{"kind":"openai-compatible","baseUrl":"http://evil.example/v1"}');
    expect(() => parseConfigText(text)).toThrow(ConfigError);
    try {
      parseConfigText(text);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'providers: "__proto__" cannot be a name: JavaScript reserves it, so it would be lost. Rename it.',
      ]);
    }
    const nested = JSON.parse('{"pricing": {"asOf": "2026-01-01", "models": {"__proto__": {"inputPerM": 1, "outputPerM": 1}}}}') as object;
    expect(problemsOf({ ...minimal, ...nested })).toEqual([
      'pricing.models: "__proto__" cannot be a name: JavaScript reserves it, so it would be lost. Rename it.',
    ]);
    expect(({} as { kind?: unknown }).kind).toBeUndefined();
  });

  it('refuses a file over the size limit before parsing it, and nesting deeper than any config', () => {
    expect(() => parseConfigText(`{"name": "${'x'.repeat(CONFIG_LIMITS.fileChars)}"}`)).toThrow(
      `the file is 1,000,012 characters; a config file may be at most 1,000,000`,
    );
    let deep = '1';
    for (let i = 0; i < 200; i++) deep = `[${deep}]`;
    expect(problemsOf({ ...minimal, name: JSON.parse(deep) as unknown })).toEqual([
      `name: nested more than ${CONFIG_LIMITS.depth} levels deep; no config is`,
    ]);
  });

  it('allows a name of at most 200 characters', () => {
    const long = 'n'.repeat(201);
    expect(problemsOf({ ...minimal, providers: { ...minimal.providers, [long]: minimal.providers.vllm } })).toEqual([
      `providers: the name "${'n'.repeat(40)}…" is 201 characters; a name may be at most 200`,
    ]);
  });
});
