import { afterAll, describe, expect, it } from 'vitest';
import type { CustomToolConfig } from '../../workers/engine/config.ts';
import type { ToolOutput } from '../../workers/engine/types.ts';
import { createNodeCalculatorRunner } from '../calculator/nodeCalculatorRunner.ts';
import type { ToolHost } from '../../workers/engine/toolKind.ts';
import { createFunctionCallingTools } from '../functionTools.ts';
import { createNodeJavaScriptRunner } from '../javascript/nodeJavaScriptRunner.ts';
import type { PythonRunner } from '../../workers/engine/ports.ts';
import type { Retriever } from '../../workers/engine/ports.ts';
import { createCustomTool } from './customTool.ts';

// The real QuickJS core, run in-process as the CLI runs it.
const runner = createNodeJavaScriptRunner();
const signal = new AbortController().signal;

function tool(code: string, options: { timeoutMs?: number; usdPerSecond?: number } = {}) {
  const definition: CustomToolConfig = {
    name: 'unit_price',
    description: 'Price of one item.',
    parameters: { type: 'object', properties: { total: { type: 'number' }, count: { type: 'integer' } }, required: ['total', 'count'] },
    code,
    enabled: true,
  };
  return createCustomTool(definition, runner, { timeoutMs: options.timeoutMs ?? 2_000, usdPerSecond: options.usdPerSecond ?? 0 });
}

describe('a custom tool', () => {
  it('offers its own name, description and schema', () => {
    const unitPrice = tool('return 1;');
    expect(unitPrice).toMatchObject({ name: 'unit_price', description: 'Price of one item.', parameters: { required: ['total', 'count'] } });
  });

  it('runs its code with the arguments as `args` and returns the JSON value, charged per second of code', async () => {
    const output = await tool('console.log("dividing", args.total, "by", args.count);\nreturn { unitPrice: args.total / args.count };', {
      usdPerSecond: 0.01,
    }).run({ total: 12, count: 4 }, { signal });
    expect(output).toMatchObject({
      content: '{"unitPrice":3}',
      isError: false,
      costBasis: 'estimated',
      detail: { tool: 'custom', value: { unitPrice: 3 }, logs: 'dividing 12 by 4\n', error: null, timedOut: false },
    });
    const { durationMs } = output.detail as { durationMs: number };
    expect(durationMs).toBeGreaterThan(0);
    expect(output.costUsd).toBeCloseTo((durationMs / 1000) * 0.01, 12);
  });

  it('hands a string result over as text, and is free when code costs nothing', async () => {
    const output = await tool('return `${args.count} items`;').run({ total: 1, count: 2 }, { signal });
    expect(output).toMatchObject({ content: '2 items', isError: false, costUsd: 0 });
    expect(output.costBasis).toBeUndefined();
  });

  it('turns a thrown error into an observation with its line and console output', async () => {
    const output = await tool('console.log("about to fail");\nif (args.count === 0) throw new RangeError("count must not be 0");\nreturn 1;').run(
      { total: 1, count: 0 },
      { signal },
    );
    expect(output.isError).toBe(true);
    expect(output.content).toMatch(/^Error: the tool unit_price failed: RangeError: count must not be 0\n\s+at .*code\.js:2/);
    expect(output.content).toMatch(/console output:\nabout to fail$/);
  });

  it('refuses a result JSON cannot carry, and says when there is none', async () => {
    const cases: Array<[string, RegExp]> = [
      ['return () => 1;', /result is a function; only JSON data/],
      ['return 10n ** 30n;', /BigInt/],
      ['return NaN;', /NaN, which JSON cannot represent/],
      ['const o = {}; o.self = o; return o;', /circular reference/],
      ['let x = args.total;', /returned no value; its code must end with `return <JSON value>`/],
    ];
    for (const [code, message] of cases) {
      const output: ToolOutput = await tool(code).run({ total: 1, count: 1 }, { signal });
      expect(output.isError, code).toBe(true);
      expect(output.content, code).toMatch(/^Error: the tool unit_price /);
      expect(output.content, code).toMatch(message);
    }
  });

  it('is stopped at its deadline', async () => {
    const output = await tool('while (true) {}', { timeoutMs: 200 }).run({ total: 1, count: 1 }, { signal });
    expect(output).toMatchObject({ isError: true, content: 'Error: the tool unit_price failed: Stopped: the code ran longer than 0.2 s.' });
  });

  it('reaches nothing of the host: no network, storage, workers or timers', async () => {
    const output = await tool(
      'return ["fetch", "XMLHttpRequest", "WebSocket", "importScripts", "localStorage", "indexedDB", "process", "require", "setTimeout", "Worker"].map((name) => [name, typeof globalThis[name]]);',
    ).run({ total: 1, count: 1 }, { signal });
    expect(JSON.parse(output.content)).toEqual(
      ['fetch', 'XMLHttpRequest', 'WebSocket', 'importScripts', 'localStorage', 'indexedDB', 'process', 'require', 'setTimeout', 'Worker'].map(
        (name) => [name, 'undefined'],
      ),
    );
  });
});

describe('createFunctionCallingTools', () => {
  const unused = (what: string) => () => Promise.reject(new Error(`${what} is not used in this test`));
  const calculator = createNodeCalculatorRunner();
  afterAll(() => calculator.dispose());
  const deps: ToolHost = {
    retriever: { search: unused('search') } as Retriever,
    python: { run: unused('python'), dispose: unused('python') } as unknown as PythonRunner,
    javascript: runner,
    calculator,
    searchLimit: 3,
    codeTimeoutMs: 2_000,
    codeUsdPerSecond: 0,
  };
  const custom = (name: string, enabled: boolean): CustomToolConfig => ({
    name,
    description: 'd',
    parameters: { type: 'object', properties: {} },
    code: 'return 1;',
    enabled,
  });

  it('builds the named built-ins, then the enabled custom tools', async () => {
    const tools = createFunctionCallingTools(['calculator', 'run_javascript'], deps, [custom('on', true), custom('off', false)]);
    expect(tools.map((t) => t.name)).toEqual(['calculator', 'run_javascript', 'on']);
    const [calculator, javascript] = tools;
    expect((await calculator!.run({ expression: '0.1 + 0.2' }, { signal })).content).toBe('0.3');
    expect((await javascript!.run({ code: '6 * 7' }, { signal })).content).toBe('result: 42');
  }, 60_000);

  it('says clearly when JavaScript is wanted where no sandbox runs', () => {
    const { javascript: _javascript, ...withoutJavaScript } = deps;
    expect(() => createFunctionCallingTools(['run_javascript'], withoutJavaScript)).toThrow(
      'The tool "run_javascript" needs the JavaScript sandbox (QuickJS), which this environment does not provide.',
    );
    expect(() => createFunctionCallingTools([], withoutJavaScript, [custom('mine', true)])).toThrow(/custom tool "mine" needs the JavaScript sandbox/);
    expect(createFunctionCallingTools([], withoutJavaScript, [custom('mine', false)])).toEqual([]);
  });

  it('says clearly when the calculator is wanted where no calculator sandbox runs', () => {
    const { calculator: _calculator, ...withoutCalculator } = deps;
    expect(() => createFunctionCallingTools(['calculator'], withoutCalculator)).toThrow(
      'The tool "calculator" needs the calculator sandbox (mathjs in a worker), which this environment does not provide.',
    );
  });
});
