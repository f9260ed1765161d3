// The paper protocol end to end: the real CLI process against the real scripted server, with the
// local corpus behind `search` and Pyodide behind `enhance_reasoning`.

import { describe, expect, it } from 'vitest';
import { useCliServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import { formatUsd } from '../workers/engine/format.ts';
import { PAPER_SYSTEM_PROMPT } from '../workers/engine/protocols/paper.ts';
import {
  lastUserContent,
  ORCHESTRATOR_MODEL,
  playScenario,
  requestsFor,
  runCli,
  runJson,
  scenarioTokenCost,
} from '../e2e/fixtures/cliHarness.ts';

const TASK = 'What is the population of the capital of Finland?';

const cli = useCliServer('cli-paper-prompt');

describe('orchestra run (paper protocol)', () => {
  it('runs search → enhance_reasoning (real Python) → answer with <tool_call> text, and prices every token', async () => {
    const { scenario, path, config } = playScenario(cli.server, cli.dir, 'cli-paper-prompt');
    expect(config.orchestrator.toolMode).toBe('prompt');

    const { result, summary, events } = await runJson(path, TASK);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(events[0]?.type).toBe('run_started');
    expect(summary).toMatchObject({
      type: 'summary',
      answer: '558,457',
      stopReason: 'answered',
      turns: 3,
      unknownCostEntries: 0,
      toolCounts: {
        tools: { search: 1, enhance_reasoning: 1, answer: 1 },
        aliases: { 'search-1': 1, 'reasoner-1': 1, 'answer-1': 1 },
      },
    });
    expect(summary.runId).toBe(events[0]?.runId);

    // Prompt mode: no `tools` on the wire; the tools are rendered into the system prompt.
    const orchestratorRequests = requestsFor(cli.server.requests, ORCHESTRATOR_MODEL);
    expect(orchestratorRequests).toHaveLength(3);
    expect(orchestratorRequests[0]?.body.tools).toBeUndefined();
    expect(orchestratorRequests[0]?.body.messages[0]?.content).toContain('<tools>');

    // The code really ran in Pyodide: its stdout (computed, not in the scenario) reached the
    // orchestrator's third prompt, after the documents the search found.
    const third = lastUserContent(orchestratorRequests[2]!);
    expect(JSON.stringify(scenario)).not.toContain('558.5');
    expect(third).toContain('```output\nHelsinki population in thousands: 558.5\n');
    expect(third).toMatch(/^Problem: What is the population of the capital of Finland\?/);
    expect(third).toMatch(/Documents:\nDoc 1: [^]*Doc \d: Helsinki is a city in Finland \(Northern Europe\)\. Its population is 558,457\./);

    // Cost: every scripted usage at the config's prices, plus the code run at the per-second rate.
    const codeEntries = events.flatMap((event) => (event.type === 'usage' && event.entry.kind === 'code' ? [event.entry] : []));
    expect(codeEntries).toHaveLength(1);
    // Charged for the code's own run time: Pyodide's start-up is in the latency, apart, and free.
    const codeSeconds = (codeEntries[0]!.latencyMs - (codeEntries[0]!.startup?.ms ?? 0)) / 1000;
    const expected = scenarioTokenCost(scenario, config) + config.pricing.codePerSecond! * codeSeconds;
    expect(summary.costUsd).toBeCloseTo(expected, 12);
    expect(summary.hasEstimates).toBe(true);
  }, 90_000);

  it('runs with server-parsed tool_calls (vLLM hermes), sending `tools` and the paper two-message prompt', async () => {
    const { scenario, path, config } = playScenario(cli.server, cli.dir, 'cli-paper-server', (c) => {
      c.orchestrator.toolMode = 'server';
    });

    const { result, summary } = await runJson(path, TASK);
    expect(result.code).toBe(0);
    expect(summary).toMatchObject({
      answer: '558,457',
      stopReason: 'answered',
      turns: 2,
      toolCounts: { tools: { search: 1, answer: 1 }, aliases: { 'search-1': 1, 'answer-2': 1 } },
    });
    const expected = scenarioTokenCost(scenario, config);
    expect(summary.costUsd).toBeCloseTo(expected, 12);
    expect(summary.hasEstimates).toBe(false);

    const orchestratorRequests = requestsFor(cli.server.requests, ORCHESTRATOR_MODEL);
    expect(orchestratorRequests).toHaveLength(2);
    for (const request of orchestratorRequests) {
      expect(request.body.tools?.map((tool) => tool.function.name)).toEqual(['enhance_reasoning', 'answer', 'search']);
      expect(request.body.messages).toHaveLength(2);
      expect(request.body.messages[0]).toEqual({ role: 'system', content: PAPER_SYSTEM_PROMPT });
      expect(request.body.messages[1]?.role).toBe('user');
      expect(request.body.messages[1]?.content).toMatch(/^Problem: What is the population of the capital of Finland\?/);
      expect(request.body.messages[1]?.content).toMatch(/\n\nChoose an appropriate tool\.'$/);
    }
    expect(lastUserContent(orchestratorRequests[1]!)).toMatch(/Documents:\nDoc 1: [^]*Doc \d: Helsinki is a city in Finland \(Northern Europe\)\. Its population is 558,457\./);

    // The same run as a readable trace (not a terminal: no colour codes).
    cli.server.reset(scenario);
    const human = await runCli(['run', '--config', path, '--task', TASK]);
    expect(human.code).toBe(0);
    const text = human.stdout;
    expect(text).not.toContain('\u001b[');
    expect(text).toContain('── Step 1 ──');
    expect(text).toContain('→ search search-1 → scripted/searcher {"model":"search-1"}');
    expect(text).toContain('✓ Query: capital of Finland population');
    expect(text).toContain('→ answer answer-2 → scripted/answerer-mini');
    expect(text).toMatch(/step \$[\d.]+ · total \$[\d.]+/);
    expect(text).toMatch(/Answer\s+558,457/);
    expect(text).toMatch(/Stop reason\s+answered/);
    expect(text).toMatch(new RegExp(`Cost\\s+\\${formatUsd(expected)}\\n`));
    expect(text).toMatch(/Tools\s+search ×1, answer ×1 \(search-1 ×1, answer-2 ×1\)/);
  }, 90_000);
});
