// `orchestra eval --suite builtin:tau2-retail`: the orchestrator (the function-calling protocol)
// talks with a simulated user in τ² conversations, against the real scripted server. The agent
// replays τ²'s golden actions (and, on purpose, a wrong ending); the user model states its reason
// and stops. Every verdict must be what phase-1 grading (evaluate.ts, cross-checked against τ²'s
// own evaluator) says of the same conversation played by the scripted agent and user.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from './scripted/scriptedServer.ts';
import { useScriptedServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import type { Scenario, ScriptedResponse } from './scripted/scenario.ts';
import { jsonLines, makeTempDir, requestsFor, runCli } from '../e2e/fixtures/cliHarness.ts';
import { readTau2Domain } from './nodeTau2.ts';
import { evaluateConversation } from '../workers/domains/tau2/evaluate.ts';
import { communicateMessage, openingLine, playScripted, ScriptedAgent, ScriptedUser } from '../workers/domains/tau2/scripted.ts';
import { pyJsonDumps } from '../workers/domains/tau2/pyJson.ts';
import type { Tau2Task } from '../workers/domains/tau2/tasks.ts';
import type { RolloutRecord } from '../workers/eval/results.ts';

const AGENT = 'agent-model';
const USER = 'user-model';
const USAGE = { prompt_tokens: 1000, completion_tokens: 100 };
const WRONG_ENDING = 'All done. Is there anything else?';

const retail = readTau2Domain('retail');
const taskOf = (id: string): Tau2Task => retail.tasks.find((task) => task.id === id)!;
// Task 5: a return (DB and COMMUNICATE, nothing to communicate); task 2: a return whose reply
// must say "10".
const TASKS = ['5', '2'];

/** The agent's responses for one conversation: each golden call, then its last message. */
function agentTurns(task: Tau2Task, ending: string): ScriptedResponse[] {
  const calls = (task.evaluationCriteria?.actions ?? []).map(
    (action): ScriptedResponse => ({ content: '', toolCalls: [{ name: action.name, arguments: pyJsonDumps(action.arguments) }], usage: USAGE }),
  );
  return [...calls, { content: ending, usage: USAGE }];
}

const userTurns = (task: Tau2Task): ScriptedResponse[] => [
  { content: openingLine(task), usage: USAGE },
  { content: 'Thank you, that is all. ###STOP###', usage: USAGE },
];

/** Plan order (rollout-major, suite order, concurrency 1): rollout 1 of 2 and 5, then rollout 2
 * of each; the second rollout of task 2 leaves out what the agent must communicate. */
const PLAN: Array<{ id: string; ending: (task: Tau2Task) => string }> = [
  { id: '2', ending: communicateMessage },
  { id: '5', ending: communicateMessage },
  { id: '2', ending: () => WRONG_ENDING },
  { id: '5', ending: communicateMessage },
];

/** The scripted agent's and user's turns, served in order: the rollouts must run in `plan`'s order. */
function scenario(plan: typeof PLAN = PLAN): Scenario {
  return {
    models: {
      [AGENT]: plan.flatMap(({ id, ending }) => agentTurns(taskOf(id), ending(taskOf(id)))),
      [USER]: plan.flatMap(({ id }) => userTurns(taskOf(id))),
    },
  };
}

function writeTau2Config(dir: string, url: string): string {
  const config = {
    name: 'τ² retail against the scripted server',
    protocol: 'function-calling',
    providers: { scripted: { kind: 'openai-compatible', baseUrl: `${url}/v1`, maxRetries: 0, timeoutSeconds: 30 } },
    orchestrator: { provider: 'scripted', model: AGENT, toolMode: 'server' },
    experts: {
      'user-sim': { tool: 'answer', provider: 'scripted', model: USER, description: 'plays the customer.', latencySeconds: 5 },
    },
    functionCalling: { system: 'unused: a τ² suite brings its policy', tools: [] },
    pricing: {
      asOf: '2025-11-26',
      source: 'made-up prices for the test',
      models: { [AGENT]: { inputPerM: 0.2, outputPerM: 0.2 }, [USER]: { inputPerM: 1.25, outputPerM: 10 } },
    },
    preference: 'balanced',
    limits: { maxTurns: 10 },
  };
  const path = join(dir, 'tau2.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** What phase-1 grading says of the conversation the scripted agent and user play. */
async function phase1(id: string, ending: string) {
  const task = taskOf(id);
  const actions = task.evaluationCriteria?.actions ?? [];
  const conversation = playScripted(task, retail.newEnvironment(), new ScriptedAgent(actions, ending), new ScriptedUser(task, []));
  return evaluateConversation(task, conversation.messages, conversation.termination!, { newEnvironment: () => retail.newEnvironment() });
}

let server: ScriptedServer;
useScriptedServer(scenario(), (started) => (server = started));

const evalArgs = (config: string, out: string, rollouts: number, tasks: string[]) => [
  ...['eval', '--config', config, '--suite', 'builtin:tau2-retail', '--user', 'user-sim', '--policy', 'orchestrator'],
  ...['--rollouts', String(rollouts), '--concurrency', '1', '--out', out, ...tasks.flatMap((id) => ['--task', id])],
];

describe('orchestra eval --suite builtin:tau2-retail', () => {
  it('plays each task with the simulated user, grades as τ² does, and prints pass^k and the criteria', async () => {
    server.reset(scenario());
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url);
    const out = join(dir, 'results.jsonl');
    const result = await runCli(evalArgs(config, out, 2, TASKS));
    expect(result.stderr).not.toMatch(/failed at its turn/);
    expect(result.code).toBe(0);

    const records = jsonLines<RolloutRecord | { type: string }>(readFileSync(out, 'utf8')).filter((line): line is RolloutRecord => line.type === 'rollout');
    expect(records.map((r) => [r.taskId, r.rollout, r.correct])).toEqual([
      ['2', 1, true],
      ['5', 1, true],
      ['2', 2, false],
      ['5', 2, true],
    ]);
    for (const [index, record] of records.entries()) {
      const plan = PLAN[index]!;
      const expected = await phase1(plan.id, plan.ending(taskOf(plan.id)));
      expect(record.verdict.criteria?.map((c) => [c.criterion, c.counted, c.reward])).toEqual(expected.criteria.map((c) => [c.criterion, c.counted, c.reward]));
      expect(record.correct).toBe(expected.reward === 1);
      // The user's two turns are priced apart: 2 × (1000 × 1.25 + 100 × 10) / 1e6.
      expect(record.userCostUsd).toBeCloseTo(0.0045, 12);
      expect(record.runCostUsd).toBeGreaterThan(record.userCostUsd!);
    }
    expect(TASKS.every((id) => records.some((r) => r.taskId === id))).toBe(true);

    // The user model read τ²'s guidelines and the scenario, and the agent's messages as "user".
    const [firstUser] = requestsFor(server.requests, USER);
    expect(firstUser?.body.messages[0]?.content).toContain('<scenario>');
    expect(firstUser?.body.messages.at(-1)).toEqual({ role: 'user', content: 'Hi! How can I help you today?' });
    // The agent saw the retail policy, τ²'s greeting and the user's opening line.
    const [firstAgent] = requestsFor(server.requests, AGENT);
    expect(firstAgent?.body.messages[1]).toEqual({ role: 'assistant', content: 'Hi! How can I help you today?' });
    expect(firstAgent?.body.messages[2]).toEqual({ role: 'user', content: openingLine(taskOf('2')) });

    expect(result.stdout).toMatch(/pass\^1…pass\^2/);
    expect(result.stdout).toMatch(/orchestrator\s+75\.0%\s+50\.0%/);
    expect(result.stdout).toMatch(/τ² criteria \(passed \/ failed \/ not graded, over rollouts\)/);
    expect(result.stdout).toMatch(/DB 4\/0\/0/);
    expect(result.stdout).toMatch(/COMMUNICATE 3\/1\/0/);
  }, 120_000);

  it('makes a user model that fails an error of that rollout, and runs it again on resume', async () => {
    // Only task 5 runs here: its turns alone (the user's first reply is served twice: once failing).
    const failing = scenario([{ id: '5', ending: communicateMessage }]);
    // The first rollout's user fails at its first turn: HTTP 500 (maxRetries 0).
    failing.models[USER]![0] = { ...failing.models[USER]![0]!, fault: { kind: 'status', status: 500, message: 'user model down' } };
    server.reset(failing);
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url);
    const out = join(dir, 'results.jsonl');
    const first = await runCli(evalArgs(config, out, 1, ['5']));
    expect(first.code).toBe(1);
    const records = jsonLines<RolloutRecord | { type: string }>(readFileSync(out, 'utf8')).filter((line): line is RolloutRecord => line.type === 'rollout');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ taskId: '5', stopReason: 'error', correct: false });
    expect(records[0]?.error).toMatch(/The simulated user \(user-model\) failed at its turn 1 of task 5: .*user model down/);

    // Served once, the fault is gone: the same command runs the rollout again and it passes.
    const second = await runCli(evalArgs(config, out, 1, ['5']));
    expect(second.stderr).toMatch(/1 .*again|again/i);
    const after = jsonLines<RolloutRecord | { type: string }>(readFileSync(out, 'utf8')).filter((line): line is RolloutRecord => line.type === 'rollout');
    expect(after.map((r) => [r.stopReason, r.correct])).toEqual([
      ['error', false],
      ['final_message', true],
    ]);
    expect(second.code).toBe(0);
  }, 120_000);

  it('refuses a τ² suite without a user, naming the aliases it could use', async () => {
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url);
    const missing = await runCli(['eval', '--config', config, '--suite', 'builtin:tau2-retail', '--out', join(dir, 'x.jsonl')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/needs a simulated user: --user <alias> .*user-sim.* or --user scripted/);
  }, 60_000);
});
