// A rollout must not depend on what ran before or beside it. The scripted demo's orchestrator
// keeps its run's state (the searches it made), as a model made for one run may: a suite of one
// question asked many times, run many at once, must answer every copy as the question alone
// answers, under every policy, in the evaluation loop and in the real CLI process.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, makeTempDir, ROOT, runCli } from '../e2e/fixtures/cliHarness.ts';
import { createDemoModel } from '../workers/backends/demo/demoModels.ts';
import { demoKind } from '../workers/backends/demo/kind.ts';
import { createPolicies, parsePolicy } from '../workers/eval/policies.ts';
import type { RolloutRecord } from '../workers/eval/results.ts';
import { runEvaluation } from '../workers/eval/runner.ts';
import type { SuiteTask } from '../workers/eval/suite.ts';
import { parseConfig } from '../workers/hosts/config.ts';
import { runFactory, type RunEnvironment } from '../workers/hosts/prepareRun.ts';
import { createNodeEnvironment, type NodeRunEnvironment } from './nodeEnvironment.ts';

const QUESTION = 'What is the capital of the largest country by area that borders Greece?';
const ANSWER = 'Ankara';
const DEMO_PATH = join(ROOT, 'cli/examples/demo.json');
const DEMO_CONFIG = parseConfig(JSON.parse(readFileSync(DEMO_PATH, 'utf8')));
/** Every kind of policy: the orchestrator (balanced, and best-answer, which runs Python), seeded
 * random routes, each expert alone. */
const POLICIES = ['orchestrator', 'orchestrator@best-answer', 'random', 'strongest'];

const copies = (count: number): SuiteTask[] =>
  Array.from({ length: count }, (_, index) => ({ id: `greece-${index + 1}`, task: QUESTION, answer: ANSWER, check: { kind: 'exact', answer: ANSWER }, line: index + 1 }));

let node: NodeRunEnvironment;
let environment: RunEnvironment;

beforeAll(async () => {
  node = await createNodeEnvironment({});
  // The scripts without their pauses; everything else as the CLI has it (corpus, Python).
  const demo = { kind: demoKind, create: ({ model }: { model: string }) => ({ model: createDemoModel(model, { replyMs: 0 }) }) };
  environment = { ...node.environment, backends: new Map([...node.environment.backends, ['demo', demo]]) };
});
afterAll(async () => {
  await node.dispose();
});

/** A fresh evaluation of `tasks`: new policies, nothing shared with any other call. */
async function evaluate(tasks: SuiteTask[], concurrency: number): Promise<RolloutRecord[]> {
  const policies = createPolicies(POLICIES.map((name) => parsePolicy(name)), { config: DEMO_CONFIG, runs: runFactory(environment), domains: new Map(), seed: '0' });
  const outcome = await runEvaluation({
    tasks,
    policies,
    rollouts: 1,
    concurrency,
    budgetUsd: null,
    grading: { javascript: node.environment.javascript!, domains: new Map() },
    previous: [],
    signal: new AbortController().signal,
    onRecord: () => {},
  });
  return outcome.records;
}

/** What a rollout did, all but its id and its timing (and so its cost, which charges Python's
 * measured seconds: the tokens it is priced from are here). */
function behaviour(record: RolloutRecord) {
  return {
    answer: record.answer,
    stopReason: record.stopReason,
    correct: record.correct,
    turns: record.turns,
    toolCounts: record.toolCounts,
    modelCalls: record.modelCalls,
    promptTokens: record.promptTokens,
    completionTokens: record.completionTokens,
  };
}

describe('every rollout as if it ran alone', () => {
  // The random policy is seeded by the task's id: each copy is compared with itself run alone.
  const suite = copies(8);
  const alone = new Map<string, ReturnType<typeof behaviour>>();

  beforeAll(async () => {
    for (const task of suite) {
      for (const record of await evaluate([task], 1)) alone.set(`${record.policy}/${record.taskId}`, behaviour(record));
    }
    // Every code run (best-answer runs Python) boots an interpreter of its own: seconds each, far
    // more on a loaded machine.
  }, 600_000);

  it('answers the question alone under the orchestrator (random routes and an expert without documents may not)', () => {
    expect(alone.size).toBe(suite.length * POLICIES.length);
    for (const [key, run] of alone) {
      if (key.startsWith('orchestrator')) expect(run, key).toMatchObject({ answer: ANSWER, correct: true, stopReason: 'answered' });
    }
    // The orchestrator searches before answering (the route main's leak cut short).
    expect(alone.get('orchestrator/greece-1')?.turns).toBeGreaterThan(1);
  });

  it.each([1, 4])('answers each copy as it answers alone, %i at a time', async (concurrency) => {
    const records = await evaluate(suite, concurrency);
    expect(records).toHaveLength(suite.length * POLICIES.length);
    const differing = records.filter((record) => JSON.stringify(behaviour(record)) !== JSON.stringify(alone.get(`${record.policy}/${record.taskId}`)));
    expect(differing.map((record) => `${record.policy}/${record.taskId}: ${record.answer} in ${record.turns} turn(s)`)).toEqual([]);
  }, 600_000);
});

describe('the CLI with the demo configuration', () => {
  const dir = makeTempDir();

  it('`orchestra eval`: twelve copies at once, each answered as the question alone', async () => {
    const suite = join(dir, 'greece-12.jsonl');
    writeFileSync(suite, copies(12).map(({ id, task, answer }) => JSON.stringify({ id, task, answer })).join('\n'));
    const out = join(dir, 'greece-12-results.jsonl');
    const result = await runCli(['eval', '--config', DEMO_PATH, '--suite', suite, '--out', out, '--concurrency', '12', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const records = jsonLines<RolloutRecord | { type: string }>(readFileSync(out, 'utf8')).filter((line): line is RolloutRecord => line.type === 'rollout');
    expect(records).toHaveLength(12);
    const first = behaviour(records[0]!);
    expect(first).toMatchObject({ answer: ANSWER, correct: true, stopReason: 'answered' });
    expect(first.turns).toBeGreaterThan(1);
    for (const record of records) expect(behaviour(record), record.taskId).toEqual(first);
  }, 60_000);

  it('`orchestra run --tasks`: eight copies at once, each answered', async () => {
    const tasks = join(dir, 'greece-8.jsonl');
    writeFileSync(tasks, copies(8).map(({ id, task, answer }) => JSON.stringify({ id, task, answer })).join('\n'));
    const out = join(dir, 'greece-8-runs.jsonl');
    const result = await runCli(['run', '--config', DEMO_PATH, '--tasks', tasks, '--out', out, '--concurrency', '8']);
    expect(result.code, result.stderr).toBe(0);
    const runs = jsonLines<{ id: string; answer: string | null; turns: number; costUsd: number; toolCounts: unknown }>(readFileSync(out, 'utf8'));
    expect(runs).toHaveLength(8);
    const { turns, costUsd, toolCounts } = runs[0]!;
    expect(turns).toBeGreaterThan(1);
    for (const run of runs) expect({ answer: run.answer, turns: run.turns, costUsd: run.costUsd, toolCounts: run.toolCounts }, run.id).toEqual({ answer: ANSWER, turns, costUsd, toolCounts });
  }, 60_000);
});
