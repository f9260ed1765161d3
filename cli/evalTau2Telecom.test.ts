// `orchestra eval --suite builtin:tau2-telecom`: telecom's user has tools of its own (the phone,
// `user_db`), so the simulated user acts on the device when the agent asks. Against the real
// scripted server: the agent replays τ²'s golden actions (and, on purpose, skips a user action);
// the user is the scripted one (`--user scripted`) or a model that calls its phone tools. Every
// verdict must be τ²-Bench's own on the same conversation (e2e/fixtures/tau2/reference-verdicts.json,
// recorded from τ²'s evaluator) and phase-1 grading's, criterion by criterion.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import type { Scenario, ScriptedResponse } from './scripted/scenario.ts';
import { makeTempDir, requestsFor, runCli, type ChatBody } from '../e2e/fixtures/cliHarness.ts';
import { AGENT, agentTurns, criteriaOf, phase1, rolloutRecords, USAGE, USER, writeTau2Config } from '../e2e/fixtures/tau2/evalCli.ts';
import { readTau2Domain, readTau2Guidelines } from './nodeTau2.ts';
import { communicateMessage, openingLine } from '../workers/domains/tau2/scripted.ts';
import type { Action, Tau2Task } from '../workers/domains/tau2/tasks.ts';

const telecom = readTau2Domain('telecom');
const taskOf = (id: string): Tau2Task => telecom.tasks.find((task) => task.id === id)!;
const golden = (id: string): Action[] => [...(taskOf(id).evaluationCriteria?.actions ?? [])];
/** The golden actions less the user's first (τ²'s reference case "skipped-user-action"). */
const skipped = (id: string): Action[] => {
  const actions = golden(id);
  return actions.filter((_, i) => i !== actions.findIndex((a) => a.requestor === 'user'));
};

// The user turns mobile data on (its phone), the agent adds 2 GB (its database).
const DATA = '[mobile_data_issue]data_mode_off|data_usage_exceeded[PERSONA:None]';
// Two user actions on the phone, none by the agent.
const AIRPLANE = '[mobile_data_issue]airplane_mode_on|data_mode_off[PERSONA:None]';

interface Reference {
  id: string;
  reward: number;
  breakdown: Record<string, number>;
  db_match: boolean;
  env_assertions: boolean[];
  actions: boolean[];
}
const REFERENCE = new Map(
  (JSON.parse(readFileSync(new URL('../e2e/fixtures/tau2/reference-verdicts.json', import.meta.url), 'utf8')) as Reference[]).map((r) => [r.id, r]),
);
const reference = (id: string, variant: string) => REFERENCE.get(`telecom/${id}/${variant}`)!;

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ scenario: { models: {} } });
});
afterAll(async () => {
  await server.close();
});

const evalArgs = (config: string, out: string, user: string, rollouts: number, tasks: string[]) => [
  ...['eval', '--config', config, '--suite', 'builtin:tau2-telecom', '--user', user, '--policy', 'orchestrator'],
  ...['--rollouts', String(rollouts), '--concurrency', '1', '--out', out, ...tasks.flatMap((id) => ['--task', id])],
];

describe('orchestra eval --suite builtin:tau2-telecom', () => {
  it('has the scripted user act on its phone when asked, and grades as τ²-Bench does', async () => {
    // Plan order (rollout-major, suite order, concurrency 1); DATA's second rollout never asks the
    // user to turn data on.
    const plan = [
      { id: DATA, variant: 'golden', actions: golden(DATA) },
      { id: AIRPLANE, variant: 'golden', actions: golden(AIRPLANE) },
      { id: DATA, variant: 'skipped-user-action', actions: skipped(DATA) },
      { id: AIRPLANE, variant: 'golden', actions: golden(AIRPLANE) },
    ];
    // Suite order is the tasks' order in tasks.json.
    expect(telecom.tasks.findIndex((t) => t.id === DATA)).toBeLessThan(telecom.tasks.findIndex((t) => t.id === AIRPLANE));
    expect(skipped(DATA).map((a) => a.name)).toEqual(['refuel_data']);
    server.reset({ models: { [AGENT]: plan.flatMap((p) => agentTurns(p.actions, communicateMessage(taskOf(p.id)))) } });
    const dir = makeTempDir();
    const out = join(dir, 'results.jsonl');
    const result = await runCli(evalArgs(writeTau2Config(dir, server.url, 'τ² telecom, scripted user'), out, 'scripted', 2, [DATA, AIRPLANE]));
    expect(result.stderr).not.toMatch(/failed at its turn/);
    expect(result.code).toBe(0);

    const records = rolloutRecords(out);
    expect(records.map((r) => [r.taskId, r.rollout, r.correct])).toEqual([
      [DATA, 1, true],
      [AIRPLANE, 1, true],
      [DATA, 2, false],
      [AIRPLANE, 2, true],
    ]);
    for (const [index, record] of records.entries()) {
      const { id, variant, actions } = plan[index]!;
      // τ²-Bench's own evaluator on the same conversation: its reward and each counted criterion.
      const theirs = reference(id, variant);
      expect(record.correct, `${id} ${variant}`).toBe(theirs.reward === 1);
      const counted = Object.fromEntries((record.verdict.criteria ?? []).filter((c) => c.counted).map((c) => [c.criterion, c.reward]));
      expect(counted, `${id} ${variant}`).toEqual(theirs.breakdown);
      // And the criteria τ² works out without counting them.
      const reward = (criterion: string) => record.verdict.criteria?.find((c) => c.criterion === criterion)?.reward;
      expect([reward('DB'), reward('ENV_ASSERTION'), reward('ACTION')], `${id} ${variant}`).toEqual(
        [theirs.db_match, theirs.env_assertions.every(Boolean), theirs.actions.every(Boolean)].map(Number),
      );
      expect(criteriaOf(record.verdict)).toEqual(criteriaOf(await phase1(telecom, taskOf(id), actions, communicateMessage(taskOf(id)))));
      // The scripted user costs nothing.
      expect(record.userCostUsd ?? 0).toBe(0);
    }
    // The agent's first request: telecom's policy (with the tech support manual; ToolOrchestra's
    // line follows it), its tools.
    const [first] = requestsFor(server.requests, AGENT);
    expect(first?.body.messages[0]?.content.startsWith(telecom.policy)).toBe(true);
    expect(first?.body.messages[2]).toEqual({ role: 'user', content: openingLine(taskOf(DATA)) });
    expect((first?.body as ChatBody | undefined)?.tools?.map((t) => t.function.name)).toEqual(telecom.agentTools.map((t) => t.name));

    // pass^1 = (1/2 + 2/2) / 2, pass^2 = (0 + 1) / 2.
    expect(result.stdout).toMatch(/orchestrator\s+75\.0%\s+50\.0%/);
    expect(result.stdout).toMatch(/orchestrator {2}DB 2\/2\/0 {2}ENV_ASSERTION 3\/1\/0 {2}ACTION 3\/1\/0 {2}COMMUNICATE 4\/0\/0/);
  }, 180_000);

  it("gives a user model its phone's tools and τ²'s guidelines for them; its calls change the device", async () => {
    const task = taskOf(DATA);
    // The user model: the opening line, then (asked to) turns data on with its own tool, says so,
    // and stops when the agent is done.
    const user: ScriptedResponse[] = [
      { content: openingLine(task), usage: USAGE },
      { content: '', toolCalls: [{ name: 'toggle_data', arguments: '{}' }], usage: USAGE },
      { content: 'I turned mobile data on.', usage: USAGE },
      { content: 'Thank you, that is all. ###STOP###', usage: USAGE },
    ];
    const agent = agentTurns(golden(DATA), communicateMessage(task));
    agent[0] = { content: 'Please turn on mobile data in your settings.', usage: USAGE };
    const scenario: Scenario = { models: { [AGENT]: agent, [USER]: user } };
    server.reset(scenario);
    const dir = makeTempDir();
    const out = join(dir, 'results.jsonl');
    const result = await runCli(evalArgs(writeTau2Config(dir, server.url, 'τ² telecom, a user model'), out, 'user-sim', 1, [DATA]));
    expect(result.stderr).not.toMatch(/failed at its turn/);
    expect(result.code).toBe(0);

    const [record] = rolloutRecords(out);
    expect(record).toMatchObject({ taskId: DATA, correct: true, stopReason: 'final_message' });
    expect(Object.fromEntries(record!.verdict.criteria!.filter((c) => c.counted).map((c) => [c.criterion, c.reward]))).toEqual(reference(DATA, 'golden').breakdown);
    // Four user turns priced apart: 4 × (1000 × 1.25 + 100 × 10) / 1e6.
    expect(record!.userCostUsd).toBeCloseTo(0.009, 12);

    const requests = requestsFor(server.requests, USER);
    expect(requests).toHaveLength(4);
    const body = requests[0]!.body as ChatBody;
    expect(body.messages[0]?.content).toContain(readTau2Guidelines().tools.slice(0, 200));
    expect(body.tools?.map((t) => t.function.name)).toEqual(telecom.userTools!.map((t) => t.name));
    expect(body.tools?.map((t) => t.function.name)).toContain('toggle_data');
    // After its call, the user model read the device's answer as a tool message.
    const afterCall = requests[2]!.body.messages;
    expect(afterCall.at(-1)?.role).toBe('tool');
  }, 120_000);
});
