// A fork against the real scripted server: the kept steps call nothing and equal the parent's,
// and the run goes on from the state they recorded (the documents their search found) under the
// new preference.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEnvironment, type NodeRunEnvironment } from '../../cli/nodeEnvironment.ts';
import { loadExample, loadScenario, ORCHESTRATOR_MODEL, requestsFor, lastUserContent } from '../../e2e/fixtures/cliHarness.ts';
import { startScriptedServer, type ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { parseConfig } from './config.ts';
import type { RunEvent } from '../engine/events.ts';
import { runOrchestration } from '../engine/run.ts';
import { prepareRun } from './prepareRun.ts';

const TASK = 'What is the population of the capital of Finland?';

let server: ScriptedServer;
let node: NodeRunEnvironment;

beforeAll(async () => {
  server = await startScriptedServer({ scenario: loadScenario('cli-paper-server') });
  node = await createNodeEnvironment({});
});
afterAll(async () => {
  await node.dispose();
  await server.close();
});

function configWith(preference: string) {
  const example = loadExample('local-scripted.json') as unknown as Record<string, unknown>;
  const providers = example.providers as Record<string, Record<string, unknown>>;
  return parseConfig({
    ...example,
    providers: { ...providers, scripted: { ...providers.scripted, baseUrl: `${server.url}/v1` } },
    orchestrator: { ...(example.orchestrator as object), toolMode: 'server' },
    preference,
  });
}

async function run(preference: string, fork?: { parentRunId: string; throughStep: number; events: RunEvent[] }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const prepared = prepareRun(configWith(preference), node.environment);
  await runOrchestration({ ...prepared, task: TASK, onEvent: (event) => events.push(event), ...(fork ? { fork } : {}) });
  return events;
}

const withoutRunId = (events: RunEvent[]) => events.map(({ runId: _runId, ...rest }) => rest);
const ofSteps = (events: RunEvent[], last: number) =>
  events.filter((event) => 'step' in event && event.step !== undefined && event.step >= 1 && event.step <= last);

describe('forking a stored run', () => {
  it('keeps steps 1..N as recorded without a request, and goes on from their documents under the new preference', async () => {
    server.reset(loadScenario('cli-paper-server'));
    const parent = await run('cheapest');
    const parentId = parent[0]!.runId;
    expect(parent.at(-1)).toMatchObject({ type: 'run_finished', stopReason: 'answered' });

    server.reset(loadScenario('cli-paper-server'));
    const child = await run('best-answer', { parentRunId: parentId, throughStep: 1, events: parent });

    expect(child[0]).toMatchObject({ type: 'run_started', parent: { runId: parentId, step: 1 } });
    // Step 1 is the parent's, event for event, under the new run's id.
    expect(withoutRunId(ofSteps(child, 1))).toEqual(withoutRunId(ofSteps(parent, 1)));
    expect(ofSteps(child, 1).every((event) => event.runId === child[0]!.runId)).toBe(true);
    // Nothing was asked of the searcher; the orchestrator was asked once, for step 2, with the
    // documents step 1 found and the new preference's instruction.
    expect(requestsFor(server.requests, 'scripted/searcher')).toHaveLength(0);
    const orchestrator = requestsFor(server.requests, ORCHESTRATOR_MODEL);
    expect(orchestrator).toHaveLength(1);
    const prompt = lastUserContent(orchestrator[0]!);
    expect(prompt).toContain('Documents:');
    expect(prompt).toContain('Helsinki');
    const parentStep2Prompt = (parent.find((event) => event.type === 'model_request' && event.step === 2) as Extract<RunEvent, { type: 'model_request' }>).messages.at(-1)!.content;
    expect(prompt).not.toBe(parentStep2Prompt);
    const finished = child.at(-1);
    expect(finished).toMatchObject({ type: 'run_finished', stopReason: 'answered', answer: '558,457' });
    // The kept step's cost is in the totals, as it was charged.
    const parentStep1 = parent.find((event) => event.type === 'step_finished' && event.step === 1) as Extract<RunEvent, { type: 'step_finished' }>;
    if (finished?.type !== 'run_finished') throw new Error('no run_finished');
    expect(finished.totals.costUsd).toBeGreaterThan(parentStep1.costUsd);
    expect(child.find((event) => event.type === 'step_finished' && event.step === 2)).toMatchObject({ cumulativeUsd: finished.totals.costUsd });
  });

  it('refuses a step the parent did not finish, with the reason, and calls nothing', async () => {
    server.reset(loadScenario('cli-paper-server'));
    const parent = await run('cheapest');
    server.reset(loadScenario('cli-paper-server'));
    const child = await run('cheapest', { parentRunId: parent[0]!.runId, throughStep: 7, events: parent });
    expect(server.requests).toHaveLength(0);
    expect(child.find((event) => event.type === 'error')).toMatchObject({ code: 'fork', fatal: true, message: expect.stringContaining('did not finish step 7') });
    expect(child.at(-1)).toMatchObject({ type: 'run_finished', stopReason: 'error' });
  });
});
