// `orchestra eval --suite builtin:tau2-airline --airline-db FILE`: τ²'s airline on the user's
// database (here the generated one of the tests, e2e/fixtures/tau2/airline/db.json), the agent
// replaying two tasks' golden actions against the real scripted server, graded as phase-1 grading
// (evaluate.ts) grades the same conversation. Without --airline-db, or with a file that is not
// τ²'s schema, the suite is refused before anything is called.

import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from './scripted/scriptedServer.ts';
import { useScriptedServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import type { Scenario } from './scripted/scenario.ts';
import { makeTempDir, runCli } from '../e2e/fixtures/cliHarness.ts';
import { AGENT, agentTurns, criteriaOf, phase1, rolloutRecords, USAGE, USER, writeTau2Config } from '../e2e/fixtures/tau2/evalCli.ts';
import { readTau2Domain } from './nodeTau2.ts';
import { communicateMessage, openingLine } from '../workers/domains/tau2/scripted.ts';

const DB = resolve(import.meta.dirname, '../e2e/fixtures/tau2/airline/db.json');
const airline = readTau2Domain('airline', { airlineDb: DB });
const taskOf = (id: string) => airline.tasks.find((task) => task.id === id)!;
const actionsOf = (id: string) => taskOf(id).evaluationCriteria?.actions ?? [];
// Task 14: cancel a reservation and book a round trip for three (DB, and "327", "1000", "44" to
// say); task 12: searches, a calculation and a change of bags.
const TASKS = ['12', '14'];

function scenario(): Scenario {
  return {
    models: {
      [AGENT]: TASKS.flatMap((id) => agentTurns(actionsOf(id), communicateMessage(taskOf(id)))),
      [USER]: TASKS.flatMap((id) => [
        { content: openingLine(taskOf(id)), usage: USAGE },
        { content: 'Thank you, that is all. ###STOP###', usage: USAGE },
      ]),
    },
  };
}

let server: ScriptedServer;
useScriptedServer(scenario(), (started) => (server = started));

const evalArgs = (config: string, out: string, more: string[]) => [
  ...['eval', '--config', config, '--suite', 'builtin:tau2-airline', '--user', 'user-sim', '--policy', 'orchestrator'],
  ...['--concurrency', '1', '--out', out, ...TASKS.flatMap((id) => ['--task', id]), ...more],
];

describe('orchestra eval --suite builtin:tau2-airline', () => {
  it("plays the tasks on the user's database and grades them as τ² does", async () => {
    server.reset(scenario());
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url, 'τ² airline against the scripted server');
    const out = join(dir, 'results.jsonl');
    const result = await runCli(evalArgs(config, out, ['--airline-db', DB]));
    expect(result.stderr).not.toMatch(/failed at its turn/);
    expect(result.code).toBe(0);
    const records = rolloutRecords(out);
    expect(records.map((r) => [r.taskId, r.correct])).toEqual([
      ['12', true],
      ['14', true],
    ]);
    for (const record of records) {
      const expected = await phase1(airline, taskOf(record.taskId), actionsOf(record.taskId), communicateMessage(taskOf(record.taskId)));
      expect(expected.reward).toBe(1);
      expect(criteriaOf(record.verdict)).toEqual(criteriaOf(expected));
    }
    expect(result.stdout).toMatch(/DB 2\/0\/0/);
  }, 120_000);

  it('is refused before any request without the database, or with one that is not τ²’s', async () => {
    server.reset(scenario());
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url, 'τ² airline against the scripted server');
    const none = await runCli(evalArgs(config, join(dir, 'a.jsonl'), []));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("τ²-Bench's airline needs its database, which the playground does not ship: --airline-db");
    const bad = join(dir, 'not-tau2.json');
    writeFileSync(bad, '{"flights": {}, "users": {}, "bookings": {}}');
    const wrong = await runCli(evalArgs(config, join(dir, 'b.jsonl'), ['--airline-db', bad]));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`${bad}: 2 validation errors for FlightDB`);
    expect(wrong.stderr).toMatch(/bookings\n {2}Extra inputs are not permitted/);
    const elsewhere = await runCli(['eval', '--config', config, '--suite', 'builtin:tau2-retail', '--user', 'scripted', '--out', join(dir, 'c.jsonl'), '--airline-db', DB]);
    expect(elsewhere.stderr).toContain('--airline-db is for builtin:tau2-airline');
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('reads --airline-db as a regular file: a FIFO or a link to /proc/self/environ is refused, nothing read or sent', async () => {
    server.reset(scenario());
    const dir = makeTempDir();
    const config = writeTau2Config(dir, server.url, 'τ² airline against the scripted server');
    const fifo = join(dir, 'db.fifo');
    execFileSync('mkfifo', [fifo]);
    const piped = await runCli(evalArgs(config, join(dir, 'a.jsonl'), ['--airline-db', fifo]));
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain(`Cannot read the airline database "${fifo}": it is a FIFO`);
    const link = join(dir, 'db.json');
    symlinkSync('/proc/self/environ', link);
    const environ = await runCli(evalArgs(config, join(dir, 'b.jsonl'), ['--airline-db', link]));
    expect(environ.code).toBe(2);
    expect(environ.stderr).toContain(`Cannot read the airline database "${link}"`);
    expect(environ.stderr).toContain('not a plain file');
    expect(server.requests).toHaveLength(0);
  }, 60_000);
});
