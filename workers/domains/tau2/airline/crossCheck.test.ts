// τ²'s airline tools, ported, against τ²-Bench's own Python on the same database: every call of
// e2e/fixtures/tau2/airline/calls.json, made in order in one environment, must return the text τ²
// returned (byte for byte, errors included) and leave the database with τ²'s hash; every shipped
// task's golden actions must leave τ²'s hash too, each raising what τ² raised (nothing: the
// generated database is made so that they run). The expected values were recorded by
// e2e/fixtures/tau2/airline/reference_airline.py from the vendored Python, on the database
// generate_db.py writes (τ²'s own db.json is not in any copy this project can read).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTau2Domain } from '../domains.ts';
import { parsePyJson } from '../pyJson.ts';
import { recordedCallProblems, type Recorded } from '../../../../e2e/fixtures/tau2/recordedCalls.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../e2e/fixtures/tau2/airline');

const reference = parsePyJson(readFileSync(path.join(FIXTURES, 'reference.json'), 'utf8')) as Recorded;
const dbText = readFileSync(path.join(FIXTURES, 'db.json'), 'utf8');
const read = (file: string) => (file === 'db.json' ? dbText : readFileSync(path.join(import.meta.dirname, file), 'utf8'));
const airline = loadTau2Domain('airline', read);

describe("τ²'s airline, ported", () => {
  it("answers every recorded call with τ²'s text and leaves τ²'s database hash after each", async () => {
    const env = airline.newEnvironment();
    expect(await env.dbHash()).toBe(reference.get('initial_hash'));
    const calls = reference.get('calls') as Recorded[];
    expect(await recordedCallProblems(env, calls)).toEqual([]);
    // Every tool is called, and every one that can fail is seen failing.
    const called = new Set(calls.map((c) => c.get('name')));
    expect([...called].sort()).toEqual(env.tools.toolNames().sort());
    const failed = new Set(calls.filter((c) => c.get('error') === true).map((c) => c.get('name')));
    for (const name of env.tools.toolNames()) if (!['list_all_airports', 'transfer_to_human_agents', 'search_direct_flight', 'search_onestop_flight'].includes(name)) expect(failed, name).toContain(name);
  });

  it("offers the agent τ²'s tool schemas, one per tool of the toolkit, in its order", () => {
    expect(airline.agentTools.map((t) => t.name)).toEqual(airline.newEnvironment().tools.toolNames());
  });

  it("runs every shipped task's golden actions to τ²'s hash, raising what τ² raised", async () => {
    const recorded = new Map((reference.get('tasks') as Recorded[]).map((t) => [t.get('id') as string, t]));
    expect(airline.tasks).toHaveLength(50);
    const problems: string[] = [];
    for (const task of airline.tasks) {
      const env = airline.newEnvironment();
      const errors: string[] = [];
      for (const action of task.evaluationCriteria?.actions ?? []) {
        const message = env.getResponse({ id: action.name, name: action.name, arguments: action.arguments, requestor: action.requestor });
        if (message.error) errors.push(`${action.name}: ${message.content?.replace(/^Error: /, '')}`);
      }
      const expected = recorded.get(task.id);
      if ((await env.dbHash()) !== expected?.get('hash')) problems.push(`task ${task.id}: the hash differs from τ²'s`);
      if (JSON.stringify(errors) !== JSON.stringify(expected?.get('errors'))) problems.push(`task ${task.id}: errors ${JSON.stringify(errors)}, τ² ${JSON.stringify(expected?.get('errors'))}`);
    }
    expect(problems).toEqual([]);
    expect([...recorded.values()].every((t) => (t.get('errors') as unknown[]).length === 0)).toBe(true);
  });

  it('keeps every write out of the parsed database: a fresh environment starts from the same hash', async () => {
    const env = airline.newEnvironment();
    env.getResponse({ id: '1', name: 'cancel_reservation', arguments: new Map([['reservation_id', airline.tasks.find((t) => t.id === '14')!.evaluationCriteria!.actions![0]!.arguments.get('reservation_id')!]]), requestor: 'assistant' });
    expect(await env.dbHash()).not.toBe(reference.get('initial_hash'));
    expect(await airline.newEnvironment().dbHash()).toBe(reference.get('initial_hash'));
  });
});

describe('an airline database that is not τ²’s', () => {
  const load = (db: string) => () => loadTau2Domain('airline', (file) => (file === 'db.json' ? db : read(file)));
  it('is refused naming the file and the field, in pydantic’s words', () => {
    expect(load('{"flights": {}, "users": {}')).toThrow(/^airline\/db\.json: Expecting ',' delimiter/);
    expect(load('{"flights": {}, "users": {}, "reservations": {}, "orders": {}}')).toThrow(/^airline\/db\.json: 1 validation error for FlightDB\norders\n {2}Extra inputs are not permitted/);
    expect(load('{"flights": {}, "users": {}}')).toThrow(/^airline\/db\.json: 1 validation error for FlightDB\nreservations\n {2}Field required/);
    expect(load(dbText.replace('"total_baggages":', '"total_baggages":"many","x":'))).toThrow(/^airline\/db\.json: 1 validation error for FlightDB\nreservations\.[A-Z0-9]{6}\.total_baggages\n {2}Input should be a valid integer, unable to parse string as an integer/);
    expect(load('[]')).toThrow(/^airline\/db\.json: 1 validation error for FlightDB/);
  });
});
