// A suite across machines, end to end: the real CLI processes and the real scripted HTTP server.
// The suite run whole and as three parts (`--shard i/3`) then `eval merge`d prints the same report:
// the table, the --report JSON and the CSV.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import type { Scenario } from './scripted/scenario.ts';
import { corpusEvalScenario, EVAL_TASKS, evalSuiteJsonl } from '../e2e/fixtures/evalScenario.ts';
import { jsonLines, makeTempDir, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';
import type { EvalHeader, EvalPlan, EvalReport, RolloutRecord } from '../workers/eval/results.ts';
import { shardOfTask } from '../workers/eval/shard.ts';

const dir = makeTempDir();
const suitePath = join(dir, 'corpus-20.jsonl');
const PARTS = 3;

/** The corpus scenario, plus what the random router's tools answer: its routes differ from rollout
 * to rollout (seeded by policy, task and rollout), so pass^k differs from pass^1. */
const scenario = (): Scenario => {
  const base = corpusEvalScenario();
  return {
    models: {
      ...base.models,
      'scripted/searcher': [{ repeat: true, content: '<query>capital city population</query>', usage: { prompt_tokens: 200, completion_tokens: 8 } }],
      // No code, so no Python runs: a run is charged by the second, which no seed can fix.
      'scripted/coder': [{ repeat: true, content: '```python```', usage: { prompt_tokens: 150, completion_tokens: 7 } }],
    },
  };
};

let server: ScriptedServer;
let config: string;

beforeAll(async () => {
  server = await startScriptedServer({ scenario: scenario() });
  writeFileSync(suitePath, evalSuiteJsonl());
  config = writeConfig(dir, 'local-scripted.json', server.url, (c) => {
    c.limits = { maxTurns: 6 };
  }).path;
});
afterAll(async () => {
  await server.close();
});

const file = (name: string) => join(dir, name);
const read = (name: string) => readFileSync(file(name), 'utf8');
const evalArgs = (out: string, ...more: string[]) => [
  'eval', '--config', config, '--suite', suitePath, '--out', file(out),
  '--policy', 'orchestrator', '--policy', 'cheapest', '--policy', 'random', '--seed', 's1', '--rollouts', '3', '--concurrency', '4',
  ...more,
];
/** The outputs of a report: --report and --csv files named after `name`. */
const outputs = (name: string) => ['--report', file(`${name}-report.json`), '--csv', file(`${name}.csv`)];
const report = (name: string) => JSON.parse(read(`${name}-report.json`)) as EvalReport;

/** What the wall clock decides (each rollout's latency, and the group rewards that weigh it) cannot
 * repeat between two runs; everything else must. */
function withoutClock(r: EvalReport) {
  return {
    ...r,
    policies: r.policies.map(({ latencyMs: _latency, ...rest }) => rest),
    groups: r.groups.map(({ reward: _reward, ...rest }) => rest),
  };
}
/** The latency column (formatSeconds: `0.5 s`, `0.95 s`, `12 s`, `1,234.5 s`) and the padding after it. */
const tableWithoutLatency = (table: string) => table.replace(/ [\d,]+(?:\.\d{1,2})? s +/g, ' (clock) ');

describe('orchestra eval --shard i/n, then eval merge', () => {
  it('prints the report one machine prints for the whole suite', async () => {
    server.reset(scenario());
    const whole = await runCli(evalArgs('whole.jsonl', ...outputs('whole')));
    expect(whole.code).toBe(0);

    const parts: { stdout: string; stderr: string }[] = [];
    for (let index = 0; index < PARTS; index++) {
      const part = await runCli(evalArgs(`part-${index}.jsonl`, '--shard', `${index}/${PARTS}`));
      expect(part.code).toBe(0);
      parts.push(part);
    }
    // Disjoint parts that together are the suite, each task where its id puts it.
    const taskSets = Array.from({ length: PARTS }, (_, index) => {
      const records = jsonLines<RolloutRecord>(read(`part-${index}.jsonl`)).filter((line) => line.type === 'rollout');
      expect(parts[index]?.stderr).toContain(`Part ${index}/${PARTS} of the suite: ${new Set(records.map((r) => r.taskId)).size} of its 20 tasks.`);
      return new Set(records.map((r) => r.taskId));
    });
    for (const [index, tasks] of taskSets.entries()) for (const id of tasks) expect(shardOfTask(id, PARTS)).toBe(index);
    expect(taskSets.flatMap((tasks) => [...tasks]).sort()).toEqual(EVAL_TASKS.map((task) => task.id).sort());
    const partHeader = jsonLines<EvalHeader>(read('part-1.jsonl'))[0];
    expect(partHeader).toMatchObject({ shard: { index: 1, count: PARTS }, taskIds: EVAL_TASKS.map((task) => task.id) });

    const merged = await runCli(['eval', 'merge', ...[2, 0, 1].map((index) => file(`part-${index}.jsonl`)), '--out', file('all.jsonl'), ...outputs('merged')]);
    expect(merged.code).toBe(0);
    expect(merged.stderr).toContain(`Merged 3 results files (parts 0/3, 1/3, 2/3) into ${file('all.jsonl')}: 180 of 180 planned rollouts.`);

    // The same rollouts came out the same (the random router's routes included): the same report,
    // the clock's figures aside.
    expect(report('merged').policies.map((p) => p.passHatK)).toEqual(report('whole').policies.map((p) => p.passHatK));
    const random = report('whole').policies.find((p) => p.name === 'random')!;
    expect(random.passHatK).toHaveLength(3);
    expect(random.passHatK![2]).toBeLessThan(random.passHatK![0]!);
    expect(withoutClock(report('merged'))).toEqual(withoutClock(report('whole')));
    expect(tableWithoutLatency(merged.stdout)).toBe(tableWithoutLatency(whole.stdout));
    expect(merged.stdout).toContain('pass^1…pass^3');

    // To the last digit: one machine reading the merged file prints what merge printed, and asks nothing.
    const asked = server.requests.length;
    const oneMachine = await runCli(evalArgs('all.jsonl', ...outputs('one-machine')));
    expect(oneMachine.code).toBe(0);
    expect(oneMachine.stderr).toContain('180 rollouts, 180 already in the results file: skipping them.');
    expect(server.requests).toHaveLength(asked);
    expect(oneMachine.stdout).toBe(merged.stdout);
    expect(read('one-machine-report.json')).toBe(read('merged-report.json'));
    expect(read('one-machine.csv')).toBe(read('merged.csv'));

    // And the whole run's own records, cut into the three parts by task id and merged, give its
    // report byte for byte (latencies and group rewards included): merge adds no rounding.
    const [header, plan, ...records] = jsonLines<unknown>(read('whole.jsonl')) as [EvalHeader, EvalPlan, ...RolloutRecord[]];
    for (let index = 0; index < PARTS; index++) {
      const own = records.filter((r) => shardOfTask(r.taskId, PARTS) === index);
      writeFileSync(file(`cut-${index}.jsonl`), [{ ...header, shard: { index, count: PARTS } }, plan, ...own].map((line) => `${JSON.stringify(line)}\n`).join(''));
    }
    const cut = await runCli(['eval', 'merge', ...[0, 1, 2].map((index) => file(`cut-${index}.jsonl`)), '--out', file('cut-all.jsonl'), ...outputs('cut')]);
    expect(cut.code).toBe(0);
    expect(cut.stdout).toBe(whole.stdout);
    expect(read('cut-report.json')).toBe(read('whole-report.json'));
    expect(read('cut.csv')).toBe(read('whole.csv'));
  }, 300_000);

  it('refuses what one machine would not have written, naming both files', async () => {
    const part = (index: number) => file(`part-${index}.jsonl`);
    const copy = file('part-0-copy.jsonl');
    writeFileSync(copy, read('part-0.jsonl'));
    const twice = await runCli(['eval', 'merge', part(0), copy, part(1), '--out', file('twice.jsonl')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(new RegExp(`"${part(0)}" and "${copy}" both hold \\S+ · \\S+ #\\d, .* more: a rollout must be in one file only`));

    // A part run under another configuration.
    server.reset(scenario());
    const { path: other } = writeConfig(dir, 'local-scripted.json', server.url, (c) => {
      c.limits = { maxTurns: 5 };
    });
    const changed = await runCli([...evalArgs('part-1-other.jsonl', '--shard', '1/3').map((arg) => (arg === config ? other : arg))]);
    expect(changed.code).toBe(0);
    const mixed = await runCli(['eval', 'merge', part(0), file('part-1-other.jsonl'), '--out', file('mixed.jsonl')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(new RegExp(`"${part(0)}" and "${file('part-1-other.jsonl')}" hold results of different evaluations: the configuration \\(hash \\w+ in "${part(0)}", \\w+ in "${file('part-1-other.jsonl')}"\\) differs\\.`));

    // A missing part is named; the report covers the others, and the exit code says it is incomplete.
    const partial = await runCli(['eval', 'merge', part(0), part(2), '--out', file('partial.jsonl'), '--json']);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain('Missing: part 1/3; the report covers the parts given.');
    const summary = jsonLines<EvalReport>(partial.stdout).at(-1)!;
    const expectedRollouts = EVAL_TASKS.filter((task) => shardOfTask(task.id, PARTS) !== 1).length * 3;
    expect(summary.policies.map((p) => p.rollouts)).toEqual([expectedRollouts, expectedRollouts, expectedRollouts]);

    // A part's file resumes only as that part.
    const asked = server.requests.length;
    const wrongPart = await runCli(evalArgs('part-0.jsonl', '--shard', '1/3'));
    expect(wrongPart.code).toBe(2);
    expect(wrongPart.stderr).toContain(`Cannot resume into "${part(0)}": it holds part 0/3 of the suite, and this is part 1/3 of the suite.`);
    const samePart = await runCli(evalArgs('part-0.jsonl', '--shard', '0/3'));
    expect(samePart.code).toBe(0);
    expect(samePart.stderr).toMatch(/(\d+) rollouts, \1 already in the results file: skipping them\./);
    expect(server.requests).toHaveLength(asked);

    // Parts are counted from 0, as Kubernetes counts JOB_COMPLETION_INDEX.
    const past = await runCli(evalArgs('nowhere.jsonl', '--shard', '3/3'));
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--shard 3/3: parts are counted from 0, so the parts of 3 are 0/3 … 2/3 (as Kubernetes counts JOB_COMPLETION_INDEX).');
  }, 300_000);
});
