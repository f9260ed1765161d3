// The config's `customTools` and the built-in tool names of the function-calling protocol.

import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOOL_NAMES } from '../../tools/registry.ts';
import { parseConfig } from '../hosts/config.ts';
import { configProblems } from '../../e2e/fixtures/configProblems.ts';

const base = {
  protocol: 'function-calling',
  providers: { vllm: { kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' } },
  orchestrator: { provider: 'vllm', model: 'orchestrator' },
  experts: {},
};

const unitPrice = {
  name: 'unit_price',
  description: 'Price of one item.',
  parameters: { type: 'object', properties: { total: { type: 'number' }, count: { type: 'integer' } }, required: ['total', 'count'] },
  code: 'return args.total / args.count;',
};

const problemsOf = (value: unknown): string[] => configProblems(() => parseConfig(value));

describe('functionCalling.tools', () => {
  it('offers the JavaScript sandbox and the calculator next to search and Python', () => {
    const config = parseConfig({ ...base, functionCalling: { tools: ['search_corpus', 'run_python', 'run_javascript', 'calculator'] } });
    expect(config.functionCalling.tools).toEqual(['search_corpus', 'run_python', 'run_javascript', 'calculator']);
    expect(parseConfig(base).functionCalling.tools).toEqual(['search_corpus', 'run_python']);
  });

  it('refuses a tool it does not know', () => {
    expect(problemsOf({ ...base, functionCalling: { tools: ['run_ruby'] } })).toEqual([
      expect.stringMatching(/^functionCalling\.tools\.0: .*"run_javascript"/),
    ]);
  });
});

describe('customTools', () => {
  it('defaults to none, and reads a tool with enabled defaulting to true', () => {
    expect(parseConfig(base).customTools).toEqual([]);
    expect(parseConfig({ ...base, customTools: [unitPrice] }).customTools).toEqual([{ ...unitPrice, enabled: true }]);
    expect(parseConfig({ ...base, customTools: [{ ...unitPrice, enabled: false }] }).customTools[0]?.enabled).toBe(false);
  });

  it('says what is wrong with each field', () => {
    expect(
      problemsOf({
        ...base,
        customTools: [{ name: 'unit price', description: ' ', parameters: { type: 'object', properties: { total: { type: 'num' } } }, code: '  ' }],
      }),
    ).toEqual([
      'customTools.0.name: must be 1 to 64 letters, digits, "_" or "-", starting with a letter or "_"',
      'customTools.0.description: must say what the tool does: the orchestrator reads it to decide when to call the tool',
      'customTools.0.parameters.properties.total.type: "num" is not a JSON type (use "string", "number", "integer", "boolean", "object", "array", "null")',
      'customTools.0.code: must be the JavaScript that implements the tool',
    ]);
    expect(problemsOf({ ...base, customTools: [{ ...unitPrice, parameters: { type: 'array' } }] })).toEqual([
      'customTools.0.parameters.type: must be "object": a tool takes its arguments by name',
      'customTools.0.parameters.properties: is missing: list each argument, e.g. {"city": {"type": "string"}}',
    ]);
    expect(problemsOf({ ...base, customTools: [{ ...unitPrice, run: 'x' }] })).toEqual([expect.stringMatching(/^customTools\.0: .*"run"/)]);
  });

  it('keeps custom tool names apart from the built-in tools and from each other', () => {
    expect(BUILT_IN_TOOL_NAMES).toEqual(expect.arrayContaining(['search_corpus', 'run_python', 'run_javascript', 'calculator', 'call_expert']));
    expect(
      problemsOf({ ...base, customTools: [{ ...unitPrice, name: 'calculator' }, unitPrice, unitPrice, { ...unitPrice, name: 'call_expert' }] }),
    ).toEqual([
      'customTools.0.name: "calculator" is a built-in tool\'s name; choose another',
      'customTools.2.name: "unit_price" names two custom tools; each needs its own name',
      'customTools.3.name: "call_expert" is a built-in tool\'s name; choose another',
    ]);
  });
});
