// The function-calling protocol end to end: search_corpus over the local corpus, then call_expert.

import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from './scripted/scriptedServer.ts';
import { useScriptedServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import {
  lastUserContent,
  loadScenario,
  makeTempDir,
  ORCHESTRATOR_MODEL,
  requestsFor,
  runJson,
  scenarioTokenCost,
  writeConfig,
} from '../e2e/fixtures/cliHarness.ts';

let server: ScriptedServer;
const scenario = loadScenario('cli-function-calling');

useScriptedServer(scenario, (started) => (server = started));

describe('orchestra run (function-calling protocol)', () => {
  it('searches the corpus, hands the turn to an expert, and ends on its message', async () => {
    const { path, config } = writeConfig(makeTempDir(), 'function-calling-scripted.json', server.url);
    const { result, lines, summary } = await runJson(path, 'How many people live in the capital of Finland?');
    expect(result.code).toBe(0);
    expect(summary).toMatchObject({
      answer: "Finland's capital, Helsinki, has a population of 558,457.",
      stopReason: 'final_message',
      turns: 2,
      toolCounts: { tools: { search_corpus: 1, call_expert: 1 }, aliases: { 'expert-1': 1 } },
      unknownCostEntries: 0,
    });
    expect(summary.costUsd).toBeCloseTo(scenarioTokenCost(scenario, config), 12);

    const toolCalls = lines.filter((line): line is Extract<RunEvent, { type: 'tool_call' }> => line.type === 'tool_call');
    expect(toolCalls.map((call) => [call.name, call.arguments, call.alias ?? null, call.model ?? null])).toEqual([
      ['search_corpus', { query: 'capital of Finland population' }, null, null],
      ['call_expert', { expert: 'expert-1' }, 'expert-1', 'scripted/answerer'],
    ]);

    // The search result went back to the orchestrator as a <tool_response>, and the expert saw it too.
    const [first, second] = requestsFor(server.requests, ORCHESTRATOR_MODEL);
    expect(first?.body.messages[0]?.content).toContain('You answer questions about countries and cities.');
    const observation = lastUserContent(second!);
    expect(observation).toMatch(/^<tool_response>\n/);
    expect(observation).toContain('Helsinki is a city in Finland (Northern Europe). Its population is 558,457.');
    const [expertRequest] = requestsFor(server.requests, 'scripted/answerer');
    expect(JSON.stringify(expertRequest?.body.messages)).toContain('Its population is 558,457.');
  }, 60_000);
});
