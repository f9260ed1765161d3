// Custom tools from the config file, run by the CLI in QuickJS under Node: the orchestrator calls
// one, calls it again with bad arguments and reads the validation error, then uses run_javascript
// and the calculator before it answers.

import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from './scripted/scriptedServer.ts';
import { useScriptedServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import type { Scenario } from './scripted/scenario.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { lastUserContent, makeTempDir, ORCHESTRATOR_MODEL, requestsFor, runJson, writeConfig } from '../e2e/fixtures/cliHarness.ts';

const toolCall = (name: string, args: Record<string, unknown>) =>
  `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const usage = { prompt_tokens: 500, completion_tokens: 20 };

// Responses are matched by the last user message, most specific first.
const scenario: Scenario = {
  models: {
    [ORCHESTRATOR_MODEL]: [
      { when: 'result: [2,4,6]', content: '<message>Each item costs 3.</message>', usage },
      {
        when: 'invalid arguments for unit_price',
        content: `${toolCall('run_javascript', { code: '[1, 2, 3].map((x) => x * 2)' })}\n${toolCall('calculator', { expression: '0.1 + 0.2' })}`,
        usage,
      },
      { when: '{"unitPrice":3}', content: toolCall('unit_price', { total: 'twelve' }), usage },
      { content: `<think>Use my tool.</think>\n${toolCall('unit_price', { total: 12, count: 4 })}`, usage },
    ],
  },
};

const unitPrice = {
  name: 'unit_price',
  description: 'The price of one item, given the total and how many items.',
  parameters: {
    type: 'object',
    properties: { total: { type: 'number' }, count: { type: 'integer' } },
    required: ['total', 'count'],
  },
  code: 'return { unitPrice: args.total / args.count };',
};

let server: ScriptedServer;
useScriptedServer(scenario, (started) => (server = started));

describe('orchestra run with custom tools', () => {
  it('runs a custom tool in QuickJS, turns bad arguments into an observation, and offers JavaScript and the calculator', async () => {
    const { path } = writeConfig(makeTempDir(), 'function-calling-scripted.json', server.url, (config) => {
      config.functionCalling = { tools: ['run_javascript', 'calculator'] };
      config.customTools = [unitPrice, { ...unitPrice, name: 'unused_tool', enabled: false }];
      config.pricing.codePerSecond = 0.001;
    });
    const { result, lines, summary } = await runJson(path, 'What does one item cost?');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(summary).toMatchObject({
      answer: 'Each item costs 3.',
      stopReason: 'final_message',
      turns: 4,
      toolCounts: { tools: { unit_price: 2, run_javascript: 1, calculator: 1 } },
    });

    const results = lines.filter((line): line is Extract<RunEvent, { type: 'tool_result' }> => line.type === 'tool_result');
    expect(results.map((r) => [r.name, r.ok, r.content])).toEqual([
      ['unit_price', true, '{"unitPrice":3}'],
      [
        'unit_price',
        false,
        'Error: invalid arguments for unit_price: arguments.count is required; arguments.total must be number, got string.',
      ],
      ['run_javascript', true, 'result: [2,4,6]'],
      ['calculator', true, '0.3'],
    ]);
    // Code seconds are charged to the custom tool and run_javascript; the calculator is free.
    const charges = lines.flatMap((line) => (line.type === 'usage' && line.entry.kind === 'tool' ? [line.entry] : []));
    expect(charges.map((entry) => [entry.tool, (entry.usd ?? 0) > 0, entry.basis])).toEqual([
      ['unit_price', true, 'estimated'],
      ['run_javascript', true, 'estimated'],
      ['calculator', false, 'measured'],
    ]);

    // The orchestrator was offered the enabled custom tool with its schema, and read each observation.
    const requests = requestsFor(server.requests, ORCHESTRATOR_MODEL);
    const system = requests[0]?.body.messages[0]?.content ?? '';
    expect(system).toContain('"name": "unit_price"');
    expect(system).toContain('The price of one item, given the total and how many items.');
    expect(system).not.toContain('unused_tool');
    expect(lastUserContent(requests[1]!)).toBe('<tool_response>\n{"unitPrice":3}\n</tool_response>');
    expect(lastUserContent(requests[2]!)).toContain('arguments.count is required');
  }, 120_000);
});
