// The fold against a real run: the engine drives the scripted server through the paper demo
// (search → code → answer), and the folded view must agree with the engine's own figures.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEnvironment, type NodeRunEnvironment } from '../../cli/nodeEnvironment.ts';
import { loadScenario } from '../../e2e/fixtures/cliHarness.ts';
import localScripted from '../../cli/examples/local-scripted.json' with { type: 'json' };
import { startScriptedServer, type ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { parseConfig } from '../../workers/hosts/config.ts';
import type { RunEvent } from '../../workers/engine/events.ts';
import { runOrchestration } from '../../workers/engine/run.ts';
import { prepareRun } from '../../workers/hosts/prepareRun.ts';
import { callsOfStep, foldEvents, type RunView } from './runView.ts';

let server: ScriptedServer;
let node: NodeRunEnvironment;
let events: RunEvent[];

beforeAll(async () => {
  server = await startScriptedServer({ scenario: loadScenario('cli-paper-prompt') });
  node = await createNodeEnvironment({});
  const config = parseConfig({
    ...localScripted,
    providers: { scripted: { ...localScripted.providers.scripted, baseUrl: `${server.url}/v1` } },
  });
  const prepared = prepareRun(config, node.environment);
  events = [];
  await runOrchestration({ ...prepared, task: 'What is the population of the capital of Finland?', onEvent: (e) => events.push(e) });
}, 60_000);

afterAll(async () => {
  await node?.dispose();
  await server?.close();
});

function finalView(batches: RunEvent[][]): RunView {
  let view: RunView | null = null;
  for (const batch of batches) view = foldEvents(view, batch);
  if (!view) throw new Error('no view');
  return view;
}

describe('foldEvents', () => {
  it('agrees with the engine on steps, calls, costs and the answer', () => {
    const view = finalView([events]);
    const finished = events.find((e) => e.type === 'run_finished');
    if (finished?.type !== 'run_finished') throw new Error('the run did not finish');

    expect(view.status).toBe('finished');
    expect(view.stopReason).toBe('answered');
    expect(view.answer).toBe(finished.answer);
    expect(view.steps.map((step) => step.step)).toEqual([1, 2, 3]);
    expect(view.steps.every((step) => step.status === 'done')).toBe(true);

    // Each step's cost is the engine's, and the steps add up to the run's total.
    const stepCosts = events.filter((e) => e.type === 'step_finished');
    expect(view.steps.map((step) => step.costUsd)).toEqual(stepCosts.map((e) => e.costUsd));
    expect(view.steps.reduce((sum, step) => sum + step.costUsd, 0)).toBeCloseTo(finished.totals.costUsd, 12);
    expect(view.totalUsd).toBe(finished.totals.costUsd);
    expect(view.ledger).toHaveLength(events.filter((e) => e.type === 'usage').length);

    // search-1, reasoner-1 (with its code run), answer-1: one call per step, each with its result.
    const calls = view.steps.flatMap((step) => callsOfStep(view, step));
    expect(calls.map((call) => [call.name, call.alias])).toEqual([
      ['search', 'search-1'],
      ['enhance_reasoning', 'reasoner-1'],
      ['answer', 'answer-1'],
    ]);
    expect(calls.every((call) => call.result?.ok)).toBe(true);
    const code = calls[1]!;
    expect(code.result?.content).toContain('Helsinki population in thousands: 558.5');
    // The expert's tokens and the code's seconds are charged to the call, not the orchestrator.
    expect(code.costs.map((entry) => entry.kind).sort()).toEqual(['code', 'expert']);

    // What the model saw, and what it said, per turn.
    for (const step of view.steps) {
      expect(step.request?.renderedPrompt).toContain('<|im_start|>system');
      expect(step.output?.raw).toContain('<tool_call>');
      expect(step.reasoning.length + step.content.length).toBeGreaterThan(0);
    }
  });

  it('gives the same view however the stream is cut into batches', () => {
    const whole = finalView([events]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: events.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const batches = [0, ...points].map((start, i) => events.slice(start, points[i] ?? events.length));
        expect(finalView(batches)).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it('ignores events of another run and starts afresh on a new run_started', () => {
    const view = finalView([events]);
    const stray = events.map((e) => ({ ...e, runId: 'another-run' }));
    expect(foldEvents(view, stray.slice(1))).toBe(view);
    const restarted = foldEvents(view, stray.slice(0, 1));
    expect(restarted?.runId).toBe('another-run');
    expect(restarted?.steps).toEqual([]);
  });
});
