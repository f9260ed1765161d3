// The session flow (session.ts) on a fresh set of stores with a fake worker client: what pressing
// Run, Stop and the rest sends to the worker, how the worker's events fold into the run store
// (once per frame), and that keys are held in the worker's memory unless the user opts in.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testPlatform, type TestPlatform } from '../../e2e/fixtures/doubles/fakeWorkerClient.ts';
import { syntheticRun } from '../../e2e/fixtures/syntheticRun.ts';
import type { RunEvent } from '../../workers/engine/events.ts';
import { createAppStores, type AppStores } from './appStores.ts';

let platform: TestPlatform;
let stores: AppStores;

beforeEach(async () => {
  vi.useFakeTimers();
  platform = testPlatform();
  stores = createAppStores(platform);
  // The checks load just after the first screen; here, before the first Run.
  await stores.checks.load();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Starts a run of `task` and returns the id the page gave it. */
function start(task = 'What is the population of the capital of Finland?'): string {
  expect(stores.session.startRun(task)).toBe('started');
  return platform.fake().callsOf('start').at(-1)!.runId;
}

/** The worker's events of a finished run with `steps` steps, as the engine emits them. */
const runOf = (runId: string, steps = 3): RunEvent[] => syntheticRun(runId, 1, steps);

/** The events up to (without) the run's end: a run still going. */
const unfinished = (runId: string): RunEvent[] => runOf(runId).filter((event) => event.type !== 'run_finished');

describe('starting a run', () => {
  it('sends the config with the current preferences and the trimmed task, and shows the run starting', () => {
    stores.preferences.actions.choosePreset('cheapest');
    const runId = start('  What is the capital of Finland?  ');
    const { config, task, manual } = platform.fake().callsOf('start')[0]!;
    expect(task).toBe('What is the capital of Finland?');
    expect(manual).toBeUndefined();
    expect(config).toMatchObject({ name: stores.setup.getState().draft.name, preference: stores.preferences.getState().vector, preferenceInstruction: true });
    expect(stores.run.getState()).toMatchObject({ phase: 'starting', pendingRunId: runId, run: null, rejection: null });
  });

  it('refuses an empty task, a second run while one goes on, and an invalid config, sending nothing', () => {
    expect(stores.session.startRun('   ')).toBe('empty_task');
    const runId = start();
    expect(stores.session.startRun('another')).toBe('busy');
    expect(platform.fake().callsOf('start')).toHaveLength(1);
    platform.fake().worker.onEvents(runOf(runId));
    vi.advanceTimersByTime(16);
    stores.setup.actions.setDraft({ ...stores.setup.getState().draft, orchestrator: { provider: 'nowhere', model: 'x' } });
    expect(stores.session.startRun('again')).toBe('invalid_config');
    expect(platform.fake().callsOf('start')).toHaveLength(1);
    // The last run stays on screen with why the new one was refused.
    expect(stores.run.getState().run?.runId).toBe(runId);
    expect(stores.run.getState().rejection).toEqual([expect.stringContaining('nowhere')]);
  });

  it('takes the orchestrator’s turns by hand in the paper protocol only', () => {
    stores.setup.actions.setDraft({ ...stores.setup.getState().draft, protocol: 'function-calling' });
    expect(stores.session.startRun('a task', { manual: true })).toBe('invalid_config');
    expect(stores.run.getState().rejection).toEqual([expect.stringContaining('paper protocol only')]);
  });

  it('names the domain a typed task plays in, and none when "None" is chosen', () => {
    expect(stores.session.startRun('Cancel my order #W5918442', { domain: 'toolscale-bank' })).toBe('started');
    const { runId, task, manual, fork, domain } = platform.fake().callsOf('start')[0]!;
    expect([task, manual, fork, domain]).toEqual(['Cancel my order #W5918442', undefined, undefined, 'toolscale-bank']);
    platform.fake().worker.onEvents(runOf(runId));
    vi.advanceTimersByTime(16);
    stores.session.startRun('a task', { domain: '' });
    expect(platform.fake().callsOf('start')[1]!.domain).toBeUndefined();
  });

  it('refuses to take the orchestrator’s turns by hand in a domain, sending nothing', () => {
    expect(stores.session.startRun('a task', { manual: true, domain: 'tau2-retail' })).toBe('invalid_config');
    expect(platform.fake().callsOf('start')).toHaveLength(0);
    expect(stores.run.getState().rejection).toEqual([expect.stringContaining('without a domain only')]);
  });
});

describe('the event fold', () => {
  it('folds the worker’s batches into the run at the next frame, one render for a burst', () => {
    const runId = start();
    const events = unfinished(runId);
    const renders = vi.fn();
    stores.run.subscribe(renders);
    platform.fake().worker.onEvents(events.slice(0, 5));
    platform.fake().worker.onEvents(events.slice(5, 12));
    platform.fake().worker.onEvents(events.slice(12));
    expect(stores.run.getState().run).toBeNull();
    vi.advanceTimersByTime(16);
    expect(renders).toHaveBeenCalledTimes(1);
    expect(stores.run.getState()).toMatchObject({ phase: 'running', run: { runId, status: 'running' } });
    expect(stores.run.getState().run?.steps).toHaveLength(3);
  });

  it('finishes the run with its answer and totals, and leaves other runs’ events alone', () => {
    const runId = start();
    platform.fake().worker.onEvents([...runOf('someone-else', 1), ...runOf(runId)]);
    vi.advanceTimersByTime(16);
    const { run, phase } = stores.run.getState();
    expect(phase).toBe('idle');
    expect(run).toMatchObject({ runId, status: 'finished', stopReason: 'answered', answer: '558,457' });
    expect(run?.totals?.turns).toBe(3);
  });

  it('folds a backlog over several frames within its time budget, and all of it when the run must end', () => {
    // A clock that moves 3 ms each time it is read: the 4 ms budget allows one slice of events
    // (16) a frame, and a second only if the clock is read once between them.
    let clock = 0;
    const slow = testPlatform();
    const slowStores = createAppStores({ ...slow, now: () => (clock += 3) });
    stores = slowStores;
    platform = slow;
    return stores.checks.load().then(() => {
      const runId = start();
      const events = syntheticRun(runId, 1, 12).filter((event) => event.type !== 'run_finished');
      expect(events.length).toBeGreaterThan(3 * 16);
      const renders = vi.fn();
      stores.run.subscribe(renders);
      platform.fake().worker.onEvents(events);
      const stepsShown = () => stores.run.getState().run?.steps.length ?? 0;
      vi.advanceTimersByTime(16);
      expect(renders).toHaveBeenCalledTimes(1);
      const afterOneFrame = stepsShown();
      expect(afterOneFrame).toBeGreaterThan(0);
      expect(afterOneFrame).toBeLessThan(12);
      vi.advanceTimersByTime(16);
      expect(renders).toHaveBeenCalledTimes(2);
      expect(stepsShown()).toBeGreaterThan(afterOneFrame);
      // A run-ending message folds the rest at once, in order, before it ends the run.
      stores.session.workerLost('gone');
      expect(stepsShown()).toBe(12);
      expect(stores.run.getState()).toMatchObject({ phase: 'idle', run: { status: 'finished', stopReason: 'error' } });
      // Nothing is folded twice by the frames still scheduled.
      vi.advanceTimersByTime(1000);
      expect(stepsShown()).toBe(12);
    });
  });

  it('catches a hidden tab up by the timer when no frame comes', () => {
    const runId = start();
    platform.fake().worker.onEvents(unfinished(runId));
    // No frame: the platform's frames come on a 16 ms timer, so stop every timer but the fallback.
    vi.advanceTimersByTime(200);
    expect(stores.run.getState().run?.steps).toHaveLength(3);
  });
});

describe('stopping a run', () => {
  it('asks the worker to stop, and says how long the stop took when the run ends', () => {
    const runId = start();
    platform.fake().worker.onEvents(unfinished(runId));
    vi.advanceTimersByTime(16);
    stores.session.stopRun();
    expect(platform.fake().callsOf('stop')).toEqual([{ runId }]);
    expect(stores.run.getState().phase).toBe('stopping');
    vi.advanceTimersByTime(120);
    const aborted = { ...runOf(runId).at(-1)!, stopReason: 'aborted' } as RunEvent;
    platform.fake().worker.onEvents([aborted]);
    vi.advanceTimersByTime(16);
    expect(stores.run.getState()).toMatchObject({ phase: 'idle', run: { status: 'finished', stopReason: 'aborted' } });
    expect(stores.run.getState().lastStopMs).toBeGreaterThanOrEqual(120);
    expect(platform.fake().restarts).toEqual([]);
  });

  it('ends the worker under a run that does not stop in time', () => {
    const runId = start();
    platform.fake().worker.onEvents(unfinished(runId));
    vi.advanceTimersByTime(16);
    stores.session.stopRun();
    vi.advanceTimersByTime(2999);
    expect(platform.fake().restarts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(platform.fake().restarts).toEqual(['A run did not stop in time, so its worker was ended.']);
    expect(stores.run.getState()).toMatchObject({ phase: 'idle', run: { status: 'finished', stopReason: 'aborted' } });
    // Run works again.
    expect(stores.session.startRun('again')).toBe('started');
  });

  it('is not sent when nothing runs', () => {
    stores.session.stopRun();
    expect(platform.fake().calls).toEqual([]);
  });
});

describe('what the worker reports', () => {
  it('a run it refused, a run that broke, and its own loss each end the run with a reason', async () => {
    start();
    await platform.fake().reply('start', { ok: false, problems: ['The config is out of bounds.'] });
    expect(stores.run.getState()).toMatchObject({ phase: 'idle', rejection: ['The config is out of bounds.'] });

    let runId = start();
    platform.fake().worker.onEvents(unfinished(runId));
    platform.fake().worker.onRunFailed(runId, 'engine bug');
    // Events that arrived before the failure are folded first.
    expect(stores.run.getState()).toMatchObject({ phase: 'idle', run: { status: 'finished', stopReason: 'error', fatalError: { code: 'engine', message: 'engine bug' } } });
    expect(stores.run.getState().run?.steps).toHaveLength(3);

    runId = start();
    platform.fake().lose('out of memory');
    expect(stores.run.getState()).toMatchObject({ phase: 'idle', pendingRunId: runId, crash: 'out of memory' });
  });

  it('a manual run’s turn waits for the person’s choice, which goes to the worker', () => {
    stores.session.startRun('a task', { manual: true });
    const { runId, manual } = platform.fake().callsOf('start')[0]!;
    expect(manual).toBe(true);
    const turn = { turnId: 'turn-1', step: 1, tools: [], offered: [] } as never;
    platform.fake().worker.onHumanTurn(runId, turn);
    expect(stores.run.getState().humanTurn).toBe(turn);
    const choice = { kind: 'answer', text: '42' } as never;
    stores.session.chooseTurn(choice);
    expect(platform.fake().callsOf('human_choice')).toEqual([{ runId, turnId: 'turn-1', choice }]);
    expect(stores.run.getState().humanTurn).toBeNull();
  });
});

describe('keys', () => {
  it('are handed to the worker bound to the provider’s origin and kept nowhere else unless asked', () => {
    expect(stores.session.setProviderKey('openai', ' sk-secret ', false)).toBeNull();
    expect(platform.fake().callsOf('set_key')).toEqual([{ provider: 'openai', key: 'sk-secret', origin: 'https://api.openai.com' }]);
    for (let index = 0; index < platform.local.length; index++) {
      expect(platform.local.getItem(platform.local.key(index)!)).not.toContain('sk-secret');
    }
    expect(stores.session.exportConfigText()).not.toContain('sk-secret');
    expect(stores.setup.getState().rememberedProviders).toEqual([]);
  });

  it('are remembered on this device only by choice, and go to a new worker when the old one is lost', async () => {
    stores.session.setProviderKey('openai', 'sk-kept', true);
    expect(JSON.parse(platform.local.getItem('orchestra-playground:key:openai')!)).toEqual({ key: 'sk-kept', origin: 'https://api.openai.com' });
    expect(stores.setup.getState().rememberedProviders).toEqual(['openai']);
    // The worker's reply says which keys it holds.
    await vi.waitFor(() => expect(stores.setup.getState().heldKeys).toEqual([{ provider: 'openai', origin: 'https://api.openai.com' }]));
    platform.fake().lose('crashed');
    expect(stores.setup.getState().heldKeys).toEqual([]);
    expect(platform.fake().callsOf('set_key').at(-1)).toEqual({ provider: 'openai', key: 'sk-kept', origin: 'https://api.openai.com' });
    // Forgetting it removes the stored copy.
    stores.session.setProviderKey('openai', 'sk-kept', false);
    expect(platform.local.getItem('orchestra-playground:key:openai')).toBeNull();
  });

  it('are refused for a provider without a full base URL, and move with the origin when agreed', () => {
    stores.setup.actions.setDraft({ ...stores.setup.getState().draft, providers: { ...stores.setup.getState().draft.providers, bare: { kind: 'openai-compatible' } } });
    expect(stores.session.setProviderKey('bare', 'sk-1', false)).toContain('full base URL');
    expect(platform.fake().callsOf('set_key')).toEqual([]);
    stores.session.setProviderKey('openai', 'sk-2', true);
    stores.session.bindKeyToOrigin('openai', 'https://api.openai.com', 'https://proxy.example');
    expect(platform.fake().callsOf('bind_key')).toEqual([{ provider: 'openai', from: 'https://api.openai.com', to: 'https://proxy.example' }]);
    expect(JSON.parse(platform.local.getItem('orchestra-playground:key:openai')!)).toEqual({ key: 'sk-2', origin: 'https://proxy.example' });
  });
});

describe('the config file', () => {
  it('imports a config, its preference and custom tools, and exports what a run would use', async () => {
    const draft = { ...JSON.parse(stores.session.exportConfigText()), name: 'imported', preference: 'cheapest' };
    const outcome = await stores.session.importConfigText(JSON.stringify(draft), 'mine.json');
    expect(outcome).toEqual({ ok: true });
    expect(stores.setup.getState().source).toEqual({ kind: 'imported', fileName: 'mine.json' });
    expect(stores.preferences.getState().preset).toBe('cheapest');
    expect(JSON.parse(stores.session.exportConfigText())).toMatchObject({ name: 'imported', preference: stores.preferences.getState().vector });
    const broken = await stores.session.importConfigText('{"protocol": "nope"}', 'bad.json');
    expect(broken.ok).toBe(false);
    expect(stores.setup.getState().draft.name).toBe('imported');
  });
});
