// A tool is one folder and one registry line: the test-only tool in testing/ is listed here beside
// the real ones, and a config names it, the host's parts make it, and it runs, as any tool does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEnvironment, type NodeRunEnvironment } from '../cli/nodeEnvironment.ts';
import { createConfigSchema, parseConfigWith } from '../workers/engine/config.ts';
import type { ToolHost } from '../workers/engine/toolKind.ts';
import { parseConfig } from '../workers/hosts/config.ts';
import { BACKEND_KINDS } from '../workers/backends/registry.ts';
import { createFunctionCallingTools } from './functionTools.ts';
import { TOOL_KINDS, TOOL_NAMES, toolKind } from './registry.ts';
import { uppercaseTool } from './testing/tool.ts';
import { configProblems } from '../e2e/fixtures/configProblems.ts';

const KINDS = [...TOOL_KINDS, uppercaseTool];
const schema = createConfigSchema({ providerKinds: BACKEND_KINDS, tools: KINDS.map((kind) => kind.name) });
const signal = new AbortController().signal;

const config = (fields: Record<string, unknown>) => ({
  providers: { p: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } },
  orchestrator: { provider: 'p', model: 'orch' },
  protocol: 'function-calling',
  experts: {},
  ...fields,
});

const problems = configProblems;

let node: NodeRunEnvironment;
let host: ToolHost;
beforeAll(async () => {
  node = await createNodeEnvironment({});
  const { retriever, python, javascript, calculator } = node.environment;
  host = { retriever, python, javascript, calculator, searchLimit: 2, codeTimeoutMs: 5_000, codeUsdPerSecond: 0 };
});
afterAll(async () => {
  await node.dispose();
});

describe('the tool registry', () => {
  it('lists every tool once, in the order a config offers them, as the config schema names them', () => {
    expect(TOOL_NAMES).toEqual(['search_corpus', 'run_python', 'run_javascript', 'calculator']);
    // toolNames.ts, read by hosts that load no tool, lists the registry's tools in its order.
    expect(TOOL_KINDS.map((kind) => kind.name)).toEqual(TOOL_NAMES);
    expect(toolKind('calculator')?.needs).toEqual(['calculator']);
    expect(toolKind('uppercase')).toBeUndefined();
  });

  it('makes every tool that runs in the CLI from the CLI\'s own environment', async () => {
    const inCli = TOOL_KINDS.filter((kind) => kind.runsIn !== 'browser').map((kind) => kind.name);
    const tools = createFunctionCallingTools(inCli, host);
    expect(tools.map((tool) => tool.name)).toEqual(inCli);
    const search = tools.find((tool) => tool.name === 'search_corpus')!;
    expect((await search.run({ query: 'capital of France' }, { signal })).content).toMatch(/^Doc 1 \(/);
  });

  it('takes a tool added as a folder and a line: a config offers it, the host\'s parts make it, it runs', async () => {
    const offered = config({ functionCalling: { tools: ['search_corpus', 'uppercase'] } });
    expect(problems(() => parseConfig(offered))[0]).toMatch(/^functionCalling\.tools\.1: /);
    expect(parseConfigWith(schema, offered).functionCalling.tools).toEqual(['search_corpus', 'uppercase']);
    const taken = config({ customTools: [{ name: 'uppercase', description: 'd', parameters: { type: 'object', properties: {} }, code: 'return 1;' }] });
    expect(problems(() => parseConfigWith(schema, taken))).toEqual(['customTools.0.name: "uppercase" is a built-in tool\'s name; choose another']);

    const [tool] = createFunctionCallingTools(['uppercase'], host, [], KINDS);
    expect((await tool!.run({ text: 'Polly wants a cracker' }, { signal })).content).toBe('POLLY WANTS A CRACKER');

    const { javascript: _javascript, ...withoutJavaScript } = host;
    expect(() => createFunctionCallingTools(['uppercase'], withoutJavaScript, [], KINDS)).toThrow(
      'The tool "uppercase" needs the JavaScript sandbox (QuickJS), which this environment does not provide.',
    );
    // Without its registry line, no host can make it.
    expect(() => createFunctionCallingTools(['uppercase'], host)).toThrow('No built-in tool is named "uppercase".');
  }, 60_000);
});
