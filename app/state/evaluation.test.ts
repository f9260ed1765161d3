// The evaluation flow (evaluation.ts) on a fresh set of stores with a fake worker client, over a
// real IndexedDB implementation in memory (fake-indexeddb): reading a suite, starting, stopping
// and resuming an evaluation as the worker reports it, and importing and exporting results.

import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { testPlatform, type TestPlatform } from '../../e2e/fixtures/doubles/fakeWorkerClient.ts';
import { rolloutRecord } from '../../e2e/fixtures/rolloutRecord.ts';
import type { EvalProgress } from '../../workers/eval/runner.ts';
import type { EvalEnd, EvalFromWorker, EvalRequest, SuiteReading } from '../../workers/hosts/messages.ts';
import { deleteLastResults, readLastResults } from '../storage/evalResultsDb.ts';
import { createAppStores, type AppStores } from './appStores.ts';
import { createEvaluation, type Evaluation } from './evaluation.ts';

let platform: TestPlatform;
let stores: AppStores;
let evaluation: Evaluation;

beforeEach(async () => {
  await deleteLastResults();
  platform = testPlatform();
  stores = createAppStores(platform);
  evaluation = stores.part(createEvaluation);
});

const state = () => evaluation.store.getState();

/** The worker tells the page about an evaluation; the page hands it on once its module loaded. */
async function tell(message: EvalFromWorker): Promise<void> {
  platform.fake().worker.onEval(message);
  await stores.evaluation();
}
const policies = [
  { name: 'orchestrator', label: 'Orchestrator', model: 'o', preference: { outcome: 0.5, cost: 0.25, latency: 0.25, tools: {} } },
  { name: 'cheapest', label: 'Cheapest', model: 'c', preference: { outcome: 0.5, cost: 0.25, latency: 0.25, tools: {} } },
];
const progress = (finished: number, total = 4): EvalProgress => ({ total, skipped: 0, finished, running: 0, correct: finished, graded: finished, spentUsd: finished / 100, elapsedMs: 1000, etaMs: null });

const corpusReading: SuiteReading = { ok: true, source: 'builtin:corpus', tasks: 2, domains: [], checks: { exact: 2 }, warnings: [] };

/** Reads the built-in suite as the worker would answer. */
async function readSuite(): Promise<void> {
  evaluation.readSuiteOnce();
  const { suite } = platform.fake().callsOf('read_suite').at(-1)!;
  expect(suite).toEqual({ kind: 'builtin', name: 'corpus' });
  await platform.fake().reply('read_suite', corpusReading);
}

/** Waits for what the evaluation writes to IndexedDB in the background. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 400 && !(await done()); tries++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await done()).toBe(true);
}

/** Starts an evaluation of the suite read, as the worker accepts it; returns its request. */
async function start(): Promise<EvalRequest> {
  evaluation.startEvaluation();
  const { request } = platform.fake().callsOf('start_eval').at(-1)!;
  await platform.fake().reply('start_eval', { ok: true, source: 'builtin:corpus', taskIds: ['t1', 't2'], policies, rollouts: 1 });
  return request;
}

describe('an evaluation', () => {
  it('reads the chosen suite once, taking only the answer to the latest question', async () => {
    await readSuite();
    evaluation.readSuiteOnce();
    expect(platform.fake().callsOf('read_suite')).toHaveLength(1);
    evaluation.chooseBuiltInSuite('tau2-retail');
    evaluation.chooseBuiltInSuite('retail');
    // The answer to the question before the last comes late, and is not the chosen suite's.
    await platform.fake().reply('read_suite', { ok: false, problems: ['stale'] });
    expect(state().reading).toBeNull();
    expect(platform.fake().callsOf('read_suite').at(-1)!.suite).toEqual({ kind: 'builtin', name: 'retail' });
    const retail: SuiteReading = { ok: true, source: 'builtin:retail', tasks: 3, domains: ['retail'], checks: {}, warnings: [] };
    await platform.fake().reply('read_suite', retail);
    expect(state().reading).toEqual(retail);
  });

  it('runs a τ² suite with its simulated user and the first N tasks (the CLI\'s --user and --limit); other suites have no user', async () => {
    evaluation.chooseBuiltInSuite('tau2-retail');
    const { suite } = platform.fake().callsOf('read_suite').at(-1)!;
    expect(suite).toEqual({ kind: 'builtin', name: 'tau2-retail' });
    await platform.fake().reply('read_suite', { ok: true, source: 'builtin:tau2-retail', tasks: 114, domains: ['tau2-retail'], checks: { 'τ² criteria': 114 }, warnings: [] });
    evaluation.store.actions.setOptions({ limit: '3' });
    evaluation.startEvaluation();
    const { request } = platform.fake().callsOf('start_eval').at(-1)!;
    expect(request).toMatchObject({ suite: { kind: 'builtin', name: 'tau2-retail' }, user: 'scripted', limit: 3 });
    await platform.fake().reply('start_eval', { ok: false, problems: ['no'] });

    // An alias that is not (or no longer) an expert of the configuration is refused by name.
    evaluation.store.actions.setOptions({ user: 'gone-alias' });
    evaluation.startEvaluation();
    expect(state().notice?.lines).toEqual([expect.stringContaining('"gone-alias" is not an expert of your configuration')]);
    expect(platform.fake().callsOf('start_eval')).toHaveLength(1);

    evaluation.chooseBuiltInSuite('corpus');
    await platform.fake().reply('read_suite', corpusReading);
    evaluation.startEvaluation();
    const { request: corpus } = platform.fake().callsOf('start_eval').at(-1)!;
    expect(corpus.suite).toEqual({ kind: 'builtin', name: 'corpus' });
    expect(corpus).not.toHaveProperty('user');
  });

  it('does not start before the suite is read or with bad settings, and says why', async () => {
    evaluation.startEvaluation();
    expect(state().notice).toEqual({ kind: 'problem', lines: ['The suite is still being read.'] });
    await readSuite();
    evaluation.store.actions.setOptions({ rollouts: 0, budget: 'lots' });
    evaluation.startEvaluation();
    expect(state().notice?.lines).toEqual([expect.stringContaining('Rollouts per task'), expect.any(String)]);
    expect(platform.fake().callsOf('start_eval')).toEqual([]);
  });

  it('starts with the config and preferences set now, records each rollout, and stops and resumes', async () => {
    await readSuite();
    stores.preferences.actions.choosePreset('cheapest');
    const request = await start();
    expect(request).toMatchObject({ policies: ['orchestrator', 'strongest', 'cheapest'], rollouts: 1, concurrency: 4, budgetUsd: null, seed: '0', previous: [] });
    expect(request.config).toMatchObject({ preference: stores.preferences.getState().vector });
    expect(state()).toMatchObject({ phase: 'running', evalId: request.evalId });

    const records = [rolloutRecord('orchestrator', 't1', 1), rolloutRecord('cheapest', 't1', 1, { correct: false })];
    for (const [index, record] of records.entries()) {
      await tell({ type: 'eval_progress', evalId: request.evalId, event: { type: 'rollout_finished', record, progress: progress(index + 1) } });
    }
    // Another evaluation's messages are not this one's.
    await tell({ type: 'eval_progress', evalId: 'another', event: { type: 'rollout_finished', record: records[0]!, progress: progress(3) } });
    expect(state().results?.records).toEqual(records);
    expect(state().progress?.finished).toBe(2);

    evaluation.stopEvaluation();
    expect(platform.fake().callsOf('stop_eval')).toEqual([{ evalId: request.evalId }]);
    expect(state().phase).toBe('stopping');
    const end: EvalEnd = { progress: progress(2), crashed: 0, interrupted: true, budgetReached: false, missing: 2 };
    await tell({ type: 'eval_finished', evalId: request.evalId, end });
    expect(state()).toMatchObject({ phase: 'idle', evalId: null, notice: { kind: 'ok', lines: ['Stopped: 2 rollouts run, 2 not run (Resume runs them).'] } });
    // Kept for the next load.
    await until(async () => ((await readLastResults()) as { records?: unknown[] } | undefined)?.records?.length === 2);

    evaluation.resumeEvaluation();
    const { request: resumed } = platform.fake().callsOf('start_eval').at(-1)!;
    expect(resumed).toMatchObject({ ...request, evalId: expect.any(String), previous: records });
    expect(resumed.evalId).not.toBe(request.evalId);
    expect(state().phase).toBe('starting');
  });

  it('ends with the worker that ran it, keeping what it recorded', async () => {
    await readSuite();
    const request = await start();
    await tell({ type: 'eval_progress', evalId: request.evalId, event: { type: 'rollout_finished', record: rolloutRecord('orchestrator', 't1', 1), progress: progress(1) } });
    platform.fake().lose('the worker ran out of memory');
    await until(() => state().phase === 'idle');
    expect(state().notice).toEqual({ kind: 'problem', lines: ['The evaluation ended: the worker ran out of memory'] });
    expect(state().results?.records).toHaveLength(1);
  });

  it('a rejected or failed evaluation says why', async () => {
    await readSuite();
    evaluation.startEvaluation();
    await platform.fake().reply('start_eval', { ok: false, problems: ['No such policy.'] });
    expect(state()).toMatchObject({ phase: 'idle', notice: { kind: 'problem', lines: ['The evaluation could not start:', 'No such policy.'] } });
    const request = await start();
    await tell({ type: 'eval_failed', evalId: request.evalId, message: 'runner bug' });
    expect(state()).toMatchObject({ phase: 'idle', notice: { kind: 'problem', lines: ['runner bug'] } });
  });
});

describe('results', () => {
  it('export as the CLI writes them, import back, come back after a reload, and clear', async () => {
    await readSuite();
    const request = await start();
    const record = rolloutRecord('orchestrator', 't1', 1);
    await tell({ type: 'eval_progress', evalId: request.evalId, event: { type: 'rollout_finished', record, progress: progress(1) } });
    await tell({ type: 'eval_finished', evalId: request.evalId, end: { progress: progress(1), crashed: 0, interrupted: false, budgetReached: false, missing: 0 } });
    await evaluation.exportJson();
    await evaluation.exportCsv();
    const [json, csv] = platform.downloads;
    expect(json?.fileName).toMatch(/^orchestra-eval-.*\.json$/);
    expect(csv).toMatchObject({ fileName: expect.stringMatching(/\.csv$/), type: 'text/csv' });

    await evaluation.clearResults();
    expect(state().results).toBeNull();
    await evaluation.importResultsFile(new File([await json!.file.text()], 'report.json'));
    expect(state().results).toMatchObject({ origin: 'import', source: 'report.json' });
    expect(state().notice?.lines).toEqual(['Imported "report.json": 2 policies.']);
    await until(async () => ((await readLastResults()) as { source?: string } | undefined)?.source === 'report.json');

    // A new page (a fresh set of stores) shows what was kept.
    const again = createAppStores(testPlatform()).part(createEvaluation);
    await again.restoreResultsOnce();
    expect(again.store.getState().results).toMatchObject({ origin: 'import', source: 'report.json' });
  });

  it('refuses a file that is not results, keeping those on screen', async () => {
    await evaluation.importResultsFile(new File(['not json'], 'notes.txt'));
    expect(state().notice).toMatchObject({ kind: 'problem', lines: ['"notes.txt" was not imported:', expect.any(String)] });
    expect(state().results).toBeNull();
  });
});
