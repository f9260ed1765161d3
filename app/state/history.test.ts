// The history flow (history.ts) on a fresh set of stores with a fake worker client, over a real
// IndexedDB implementation in memory (fake-indexeddb; Node has none): runs the session records as
// they stream are listed, opened, replayed, run again, compared, exported and imported.

import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { testPlatform, type TestPlatform } from '../../e2e/fixtures/doubles/fakeWorkerClient.ts';
import { syntheticRun } from '../../e2e/fixtures/syntheticRun.ts';
import type { RunEvent } from '../../workers/engine/events.ts';
import { parseConfig } from '../../workers/hosts/config.ts';
import { readRunFile } from '../../workers/history/runFile.ts';
import { appendRunEvents, deleteStoredRuns, listStoredRuns, readStoredEvents, readStoredSummary } from '../../workers/hosts/history/runHistoryDb.ts';
import { createAppStores, type AppStores } from './appStores.ts';
import { createHistory, type History } from './history.ts';

let platform: TestPlatform;
let stores: AppStores;
let history: History;

beforeEach(async () => {
  await deleteStoredRuns((await listStoredRuns()).map((run) => run.id));
  platform = testPlatform();
  stores = createAppStores(platform);
  history = stores.part(createHistory);
  await stores.checks.load();
});

/** Waits until `done` holds (the recorder writes to IndexedDB in the background). */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 400 && !(await done()); tries++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await done()).toBe(true);
}

/** Runs a task through the session, the fake worker streaming `events` (the engine's shapes). */
async function recordRun(task: string, steps = 3, finished = true, domain?: string): Promise<{ runId: string; events: RunEvent[] }> {
  expect(stores.session.startRun(task)).toBe('started');
  const { runId } = platform.fake().callsOf('start').at(-1)!;
  // The worker prepared it; its events follow.
  await platform.fake().reply('start', { ok: true });
  const events = syntheticRun(runId, 1, steps)
    .map((event) => (event.type === 'run_started' ? { ...event, task, ...(domain ? { domain } : {}) } : event))
    .filter((event) => finished || event.type !== 'run_finished');
  platform.fake().worker.onEvents(events.slice(0, 4));
  platform.fake().worker.onEvents(events.slice(4));
  stores.session.flushEvents();
  // Every batch is written, with the summary it updates.
  await until(async () => (await readStoredSummary(runId))?.steps === steps && stores.history.getState().recording.includes(runId) !== finished);
  return { runId, events };
}

describe('the history of this browser', () => {
  it('keeps each run as it streams, lists it, and opens it as it was recorded', async () => {
    const { runId } = await recordRun('first task');
    history.loadHistory();
    await until(() => stores.history.getState().runs?.length === 1);
    expect(stores.history.getState().runs![0]).toMatchObject({ id: runId, task: 'first task', status: 'finished', steps: 3 });
    await history.openStoredRun(runId);
    expect(stores.run.getState().stored).toMatchObject({ mode: 'view', summary: { id: runId }, interruptedAtStep: null });
    expect(stores.run.getState().run).toMatchObject({ runId, status: 'finished', answer: '558,457' });
    history.closeStoredRun();
    expect(stores.run.getState()).toMatchObject({ run: null, stored: null });
  });

  it('keeps only runs whose start this tab saw (a batch of an unknown run is not its own)', async () => {
    platform.fake().worker.onEvents(syntheticRun('not-this-tabs', 1, 2).slice(1));
    const { runId } = await recordRun('this tab’s');
    expect((await listStoredRuns()).map((run) => run.id)).toEqual([runId]);
    // Nor is it counted as being recorded here (which would hide it being cut off).
    expect(stores.history.getState().recording).not.toContain('not-this-tabs');
  });

  it('shows a run cut off by a lost worker as interrupted at its last recorded step', async () => {
    const { runId } = await recordRun('cut off', 3, false);
    platform.fake().worker.onWorkerLost('the tab crashed');
    await until(() => !stores.history.getState().recording.includes(runId));
    await history.openStoredRun(runId);
    expect(stores.run.getState().stored?.interruptedAtStep).toBe(3);
    expect(stores.run.getState().run?.fatalError?.message).toContain('Interrupted at step 3');
  });

  it('does not open a stored run over a live one', async () => {
    const { runId } = await recordRun('kept');
    stores.session.startRun('live');
    await history.openStoredRun(runId);
    expect(stores.run.getState()).toMatchObject({ phase: 'starting', stored: null });
  });

  it('replays a stored run onto the run on screen, calling nothing', async () => {
    const { runId, events } = await recordRun('replayed');
    const calls = platform.fake().calls.length;
    await history.replayStoredRun(runId);
    expect(stores.run.getState().stored).toMatchObject({ mode: 'replay', summary: { id: runId } });
    expect(history.replay.store.getState()).toMatchObject({ runId, total: events.length, steps: 3 });
    history.replay.setSpeed('instant');
    await until(() => history.replay.store.getState().cursor === events.length);
    expect(stores.run.getState().run).toMatchObject({ status: 'finished', answer: '558,457' });
    expect(platform.fake().calls).toHaveLength(calls);
  });

  it('runs a stored run again: from the start, or going on after a step with the steps before kept', async () => {
    const { runId, events } = await recordRun('again');
    expect(await history.runAgain(runId, 0)).toBe('started');
    expect(platform.fake().callsOf('start').at(-1)).toEqual({ runId: expect.any(String), config: expect.any(Object), task: 'again' });
    await platform.fake().reply('start', { ok: false, problems: ['no'] });
    expect(await history.runAgain(runId, 2)).toBe('started');
    const { task, fork } = platform.fake().callsOf('start').at(-1)!;
    expect(task).toBe('again');
    expect(fork).toEqual({ parentRunId: runId, throughStep: 2, events });
    expect(await history.runAgain(runId, 2)).toBe('busy');
  });

  it('runs a run that played in a domain again in the same domain, from the start or after a step', async () => {
    const { runId, events } = await recordRun('in retail', 3, true, 'tau2-retail');
    expect(await readStoredSummary(runId)).toMatchObject({ domain: 'tau2-retail' });
    expect(await history.runAgain(runId, 0)).toBe('started');
    expect(platform.fake().callsOf('start').at(-1)).toEqual({ runId: expect.any(String), config: expect.any(Object), task: 'in retail', domain: 'tau2-retail' });
    await platform.fake().reply('start', { ok: false, problems: ['no'] });
    expect(await history.runAgain(runId, 2)).toBe('started');
    expect(platform.fake().callsOf('start').at(-1)).toEqual({ runId: expect.any(String), config: expect.any(Object), task: 'in retail', fork: { parentRunId: runId, throughStep: 2, events }, domain: 'tau2-retail' });
  });

  it('refuses to run again a run whose domain this playground does not have, naming it', async () => {
    // As a run file from elsewhere may hold: a domain by a name the Domain list does not offer.
    const { runId } = await recordRun('in airline', 3, true, 'tau2-airline');
    const starts = platform.fake().callsOf('start').length;
    for (const step of [0, 2]) {
      const outcome = await history.runAgain(runId, step);
      expect(outcome).toEqual({ refused: expect.stringContaining('played in the domain "tau2-airline"') });
      expect(outcome).toEqual({ refused: expect.stringContaining('cannot run again without that domain') });
    }
    expect(platform.fake().callsOf('start')).toHaveLength(starts);
    expect(stores.run.getState().phase).toBe('idle');
  });

  it('compares two to four stored runs side by side', async () => {
    const a = await recordRun('a');
    const b = await recordRun('b', 2);
    await history.compareStoredRuns([a.runId]);
    expect(stores.history.getState().notice).toEqual({ kind: 'problem', lines: ['Select two to 4 runs to compare.'] });
    await history.compareStoredRuns([a.runId, b.runId]);
    expect(stores.compare.getState().compared?.map((run) => [run.summary.id, run.view.steps.length])).toEqual([
      [a.runId, 3],
      [b.runId, 2],
    ]);
    history.closeComparison();
    expect(stores.compare.getState().compared).toBeNull();
  });

  it('exports runs to a run file without keys, and imports it back', async () => {
    stores.session.setProviderKey('openai', 'test-key-never-exported', false);
    const { runId, events } = await recordRun('exported');
    history.loadHistory();
    await until(() => stores.history.getState().runs?.length === 1);
    await history.exportRuns([runId]);
    const [download] = platform.downloads;
    expect(download?.fileName).toMatch(/^orchestra-run-.*\.json$/);
    const text = await download!.file.text();
    expect(text).not.toContain('test-key-never-exported');
    const read = readRunFile(text, parseConfig);
    expect(read.ok && read.runs.map((run) => run.events)).toEqual([events]);

    await history.deleteRuns([runId]);
    expect(stores.history.getState().runs).toEqual([]);
    await history.importRunFile(new File([text], 'mine.json'));
    expect(stores.history.getState().notice).toMatchObject({ kind: 'ok', lines: [expect.stringContaining('Imported 1 run from "mine.json"')] });
    expect(stores.history.getState().runs?.map((run) => run.task)).toEqual(['exported']);
  });

  it('never replaces a kept run on import: the same run is recognised, a forged one with its id comes in as a copy', async () => {
    const { runId } = await recordRun('mine');
    history.loadHistory();
    await until(() => stores.history.getState().runs?.length === 1);
    await history.exportRuns([runId]);
    const text = await platform.downloads[0]!.file.text();
    await history.importRunFile(new File([text], 'same.json'));
    expect(stores.history.getState().notice?.lines[0]).toBe('"same.json" holds a run that is already in your history: nothing was added.');
    const forged = text.replace('"task":"mine"', '"task":"forged"');
    expect(forged).not.toBe(text);
    await history.importRunFile(new File([forged], 'forged.json'));
    expect(stores.history.getState().notice?.lines[0]).toContain('as a copy');
    const kept = await listStoredRuns();
    expect(kept.map((run) => run.task).sort()).toEqual(['forged', 'mine']);
    expect((await readStoredSummary(runId))?.task).toBe('mine');
  });

  it('does not write an export that still holds a key the worker holds (a run recorded before redaction)', async () => {
    const { runId } = await recordRun('leaky');
    // A run kept before keys were redacted from runs: its answer holds the key.
    const key = 'test-key-held-by-the-worker';
    stores.session.setProviderKey('openai', key, false);
    const text = (await readStoredEvents(runId)).map((event) => (event.type === 'run_finished' ? { ...event, answer: `echo ${key}` } : event));
    await appendRunEvents(runId, 1_000, text.slice(-1), (await readStoredSummary(runId))!);
    await history.exportRuns([runId]);
    expect(platform.downloads).toEqual([]);
    expect(stores.history.getState().notice).toEqual({ kind: 'problem', lines: [expect.stringMatching(/^The export was not written: it holds the API key of "openai"/)] });
  });

  it('refuses a file that is not a run file, keeping the history as it was', async () => {
    await history.importRunFile(new File(['{"not": "a run file"}'], 'other.json'));
    expect(stores.history.getState().notice).toMatchObject({ kind: 'problem', lines: ['"other.json" was not imported:', expect.stringContaining('this is not a run file'), expect.any(String)] });
    expect(await listStoredRuns()).toEqual([]);
  });
});
