// `orchestra eval --suite builtin:tau2-retail`: the orchestrator (the function-calling protocol)
// talks with a simulated user in τ² conversations, against the real scripted server. The agent
// replays τ²'s golden actions (and, on purpose, a wrong ending); the user model states its reason
// and stops. Every verdict must be what phase-1 grading (evaluate.ts, cross-checked against τ²'s
// own evaluator) says of the same conversation played by the scripted agent and user.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from './scripted/scriptedServer.ts';
import { useScriptedServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import type { Scenario, ScriptedResponse } from './scripted/scenario.ts';
import { makeTempDir, requestsFor, runCli } from '../e2e/fixtures/cliHarness.ts';
import { AGENT, agentTurns, criteriaOf, phase1, rolloutRecords, USAGE, USER, writeTau2Config as writeConfig } from '../e2e/fixtures/tau2/evalCli.ts';
import { readTau2Domain } from './nodeTau2.ts';
import { communicateMessage, openingLine } from '../workers/domains/tau2/scripted.ts';
import type { Tau2Task } from '../workers/domains/tau2/tasks.ts';

const WRONG_ENDING = 'All done. Is there anything else?';

const retail = readTau2Domain('retail');
const taskOf = (id: string): Tau2Task => retail.tasks.find((task) => task.id === id)!;
const actionsOf = (id: string) => taskOf(id).evaluationCriteria?.actions ?? [];
// Task 5: a return (DB and COMMUNICATE, nothing to communicate); task 2: a return whose reply
// must say "10".
const TASKS = ['5', '2'];

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
      [AGENT]: plan.flatMap(({ id, ending }) => agentTurns(actionsOf(id), ending(taskOf(id)))),
      [USER]: plan.flatMap(({ id }) => userTurns(taskOf(id))),
    },
  };
}

const writeTau2Config = (dir: string, url: string) => writeConfig(dir, url, 'τ² retail against the scripted server');

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

    const records = rolloutRecords(out);
    expect(records.map((r) => [r.taskId, r.rollout, r.correct])).toEqual([
      ['2', 1, true],
      ['5', 1, true],
      ['2', 2, false],
      ['5', 2, true],
    ]);
    for (const [index, record] of records.entries()) {
      const plan = PLAN[index]!;
      const expected = await phase1(retail, taskOf(plan.id), actionsOf(plan.id), plan.ending(taskOf(plan.id)));
      expect(criteriaOf(record.verdict)).toEqual(criteriaOf(expected));
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
    const records = rolloutRecords(out);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ taskId: '5', stopReason: 'error', correct: false });
    expect(records[0]?.error).toMatch(/The simulated user \(user-model\) failed at its turn 1 of task 5: .*user model down/);

    // Served once, the fault is gone: the same command runs the rollout again and it passes.
    const second = await runCli(evalArgs(config, out, 1, ['5']));
    expect(second.stderr).toMatch(/1 .*again|again/i);
    const after = rolloutRecords(out);
    expect(after.map((r) => [r.stopReason, r.correct])).toEqual([
      ['error', false],
      ['final_message', true],
    ]);
    expect(second.code).toBe(0);
  }, 120_000);

  // Issue 31, item 7: a user turn of 60,000 calls was stored and drawn whole; a user that never
  // stops, with 900,000-character turns, grew the agent's prompt past 26 MB in 30 turns.
  it('ends a rollout whose simulated user’s turn is too long or makes too many calls, or whose conversation outgrows any model, saying which', async () => {
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url);
    const rolloutOf = async (user: ScriptedResponse[], agent: ScriptedResponse[] = [{ content: 'Could you tell me more?', usage: USAGE, repeat: true }]) => {
      server.reset({ models: { [AGENT]: agent, [USER]: user } });
      const out = join(dir, `results-${Math.random()}.jsonl`);
      const result = await runCli(evalArgs(config, out, 1, ['5']));
      expect(result.code).toBe(1);
      const [record] = rolloutRecords(out);
      expect(record).toMatchObject({ taskId: '5', stopReason: 'error', correct: false });
      return record!.error!;
    };
    const calls = (count: number) => Array.from({ length: count }, (_, i) => ({ name: 'check_status_bar', arguments: {}, id: `u${i}` }));
    expect(await rolloutOf([{ content: '', toolCalls: calls(17), usage: USAGE }])).toMatch(/failed at its turn 1 of task 5: its turn makes 17 tool calls; a user's turn may make 16/);
    expect(await rolloutOf([{ content: '', toolCalls: calls(60_000), usage: USAGE }])).toMatch(/failed at its turn 1 of task 5: .*more than 128 tool calls in one reply/);
    expect(await rolloutOf([{ content: 'x'.repeat(900_000), usage: USAGE }])).toMatch(/failed at its turn 1 of task 5: its turn is 900,000 characters long; a user's turn may be 50,000/);
    // Turns under the cap, but no ###STOP###: the conversation ends when a call would send more
    // than 1,000,000 characters of it, long before τ²'s 200 steps.
    const error = await rolloutOf([{ content: `I want ${'more '.repeat(9_000)}`, usage: USAGE, repeat: true }]);
    expect(error).toMatch(/The conversation is [\d,]+ characters long, more than the 1,000,000 \(about 250,000 tokens\) the playground sends "(agent|user)-model" in one call/);
    expect(requestsFor(server.requests, AGENT).length).toBeLessThan(30);
  }, 240_000);

  it('refuses a τ² suite without a user, naming the aliases it could use', async () => {
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url);
    const missing = await runCli(['eval', '--config', config, '--suite', 'builtin:tau2-retail', '--out', join(dir, 'x.jsonl')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/needs a simulated user: --user <alias> .*user-sim.* or --user scripted/);
  }, 60_000);
});
