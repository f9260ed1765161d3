// `orchestra eval --suite builtin:toolscale-<domain>`: ToolScale's domains as suites, against the
// real scripted server, with the scripted user. The agent replays our example tasks' golden
// actions (and, on purpose, leaves out a write or what it must say). Every verdict must be
// phase-1 grading's of the same conversation, and the golden actions' final database must be the
// one τ²-Bench's own Python reached (its hash, recorded by e2e/fixtures/toolscale/
// reference_toolscale.py): the DB criterion compares against τ²'s state, not one of ours.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import { makeTempDir, requestsFor, runCli, type ChatBody } from '../e2e/fixtures/cliHarness.ts';
import { AGENT, agentTurns, criteriaOf, phase1, rolloutRecords, writeTau2Config } from '../e2e/fixtures/tau2/evalCli.ts';
import { readTau2Domain } from './nodeTau2.ts';
import { parsePyJson } from '../workers/domains/tau2/pyJson.ts';
import type { PyValue } from '../workers/domains/tau2/pyValues.ts';
import { communicateMessage, openingLine } from '../workers/domains/tau2/scripted.ts';
import type { Action, Tau2Task } from '../workers/domains/tau2/tasks.ts';
import type { ToolScaleDomainName } from '../workers/domains/tau2/toolscale/domains.ts';

const WRONG_ENDING = 'All done. Is there anything else?';

/** τ²'s final database hash after each example task's golden actions, as its Python recorded it. */
function referenceHashes(name: ToolScaleDomainName): Map<string, string> {
  const text = readFileSync(new URL(`../e2e/fixtures/toolscale/reference/${name}.json`, import.meta.url), 'utf8');
  const tasks = (parsePyJson(text) as Map<string, PyValue>).get('tasks') as Map<string, PyValue>[];
  return new Map(tasks.map((t) => [t.get('id') as string, t.get('hash') as string]));
}

interface Rollout {
  id: string;
  /** Which golden action to leave out, if any. */
  drop?: string;
  /** Whether the last message leaves out what must be communicated. */
  silent?: boolean;
  correct: boolean;
}

interface Case {
  domain: ToolScaleDomainName;
  /** Plan order: rollout-major, in the suite's order, concurrency 1. */
  plan: Rollout[];
  passHatK: RegExp;
  criteria: RegExp;
}

const CASES: Case[] = [
  {
    domain: 'railway',
    plan: [
      { id: 'railway_book_first_class', correct: true },
      { id: 'railway_cancel_trip', correct: true },
      { id: 'railway_book_first_class', silent: true, correct: false },
      { id: 'railway_cancel_trip', drop: 'cancel_reservation', correct: false },
    ],
    // pass^1 = (1/2 + 1/2) / 2; pass^2 = 0.
    passHatK: /orchestrator\s+50\.0%\s+0\.0%/,
    criteria: /orchestrator {2}DB 3\/1\/0 {2}ENV_ASSERTION 4\/0\/0 {2}ACTION 3\/1\/0 {2}COMMUNICATE 3\/1\/0/,
  },
  {
    domain: 'movie',
    plan: [
      { id: 'movie_cancel_pending_booking', correct: true },
      { id: 'movie_move_seats', correct: true },
      { id: 'movie_cancel_pending_booking', correct: true },
      { id: 'movie_move_seats', drop: 'update_booking_seats', correct: false },
    ],
    // pass^1 = (2/2 + 1/2) / 2; pass^2 = (1 + 0) / 2.
    passHatK: /orchestrator\s+75\.0%\s+50\.0%/,
    // Leaving out the write still says what must be said.
    criteria: /orchestrator {2}DB 3\/1\/0 {2}ENV_ASSERTION 4\/0\/0 {2}ACTION 3\/1\/0 {2}COMMUNICATE 4\/0\/0/,
  },
];

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ scenario: { models: {} } });
});
afterAll(async () => {
  await server.close();
});

describe.each(CASES)('orchestra eval --suite builtin:toolscale-$domain', ({ domain: name, plan, passHatK, criteria }) => {
  const domain = readTau2Domain(name);
  const taskOf = (id: string): Tau2Task => domain.tasks.find((task) => task.id === id)!;
  const actionsOf = ({ id, drop }: Rollout): Action[] => (taskOf(id).evaluationCriteria?.actions ?? []).filter((a) => a.name !== drop);
  const endingOf = ({ id, silent }: Rollout) => (silent ? WRONG_ENDING : communicateMessage(taskOf(id)));

  it("plays our example tasks with the scripted user and grades them against τ²'s own final database", async () => {
    const ids = [...new Set(plan.map((p) => p.id))];
    // The plan follows the suite's order.
    const order = ids.map((id) => domain.tasks.findIndex((t) => t.id === id));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    server.reset({ models: { [AGENT]: plan.flatMap((rollout) => agentTurns(actionsOf(rollout), endingOf(rollout))) } });
    const dir = makeTempDir();
    const out = join(dir, 'results.jsonl');
    const config = writeTau2Config(dir, server.url, `ToolScale ${name}, scripted user`);
    const result = await runCli([
      ...['eval', '--config', config, '--suite', `builtin:toolscale-${name}`, '--user', 'scripted', '--policy', 'orchestrator'],
      ...['--rollouts', '2', '--concurrency', '1', '--out', out, ...ids.flatMap((id) => ['--task', id])],
    ]);
    expect(result.stderr).not.toMatch(/failed at its turn|error/i);
    expect(result.code).toBe(0);

    const records = rolloutRecords(out);
    expect(records.map((r) => [r.taskId, r.correct])).toEqual(plan.map((p) => [p.id, p.correct]));
    const hashes = referenceHashes(name);
    for (const [index, record] of records.entries()) {
      const rollout = plan[index]!;
      const expected = await phase1(domain, taskOf(rollout.id), actionsOf(rollout), endingOf(rollout));
      expect(criteriaOf(record.verdict), `${rollout.id} #${index}`).toEqual(criteriaOf(expected));
      // The golden state the DB criterion compares with is τ²'s; a full replay reaches it.
      expect(expected.db?.goldHash, rollout.id).toBe(hashes.get(rollout.id));
      expect(expected.db?.predictedHash === hashes.get(rollout.id), rollout.id).toBe(rollout.drop === undefined);
    }

    // The agent read the domain's policy, the user's opening line, and τ²'s tool schemas.
    const [first] = requestsFor(server.requests, AGENT);
    expect(first?.body.messages[0]?.content.startsWith(domain.policy)).toBe(true);
    expect(first?.body.messages[2]).toEqual({ role: 'user', content: openingLine(taskOf(plan[0]!.id)) });
    expect((first?.body as ChatBody | undefined)?.tools?.map((t) => t.function.name)).toEqual(domain.agentTools.map((t) => t.name));

    expect(result.stdout).toMatch(/pass\^1…pass\^2/);
    expect(result.stdout).toMatch(passHatK);
    expect(result.stdout).toMatch(criteria);
  }, 120_000);
});
