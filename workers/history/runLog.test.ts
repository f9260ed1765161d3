// A run's log: its summary, its migration and its result, from real runs of the engine against
// the scripted server.

import { describe, expect, it } from 'vitest';
import { FINLAND_TASK, useSampleRuns } from '../../e2e/fixtures/recordedRun.ts';
import { RUN_LOG_SCHEMA_VERSION, type RunEvent } from '../engine/events.ts';
import { PREFERENCE_PRESETS } from '../engine/preferences.ts';
import { migrateRunLog, presetOf, resultOf, stepStarts, summarize } from './runLog.ts';

const sample = useSampleRuns();

const indexOf = (events: RunEvent[], type: RunEvent['type'], nth = 0) =>
  events.map((event, index) => (event.type === type ? index : -1)).filter((index) => index >= 0)[nth] ?? -1;

describe('summarize', () => {
  it('gives a finished run its task, steps, cost, answer and status', () => {
    const { events, result } = sample.answered;
    const start = events[0] as Extract<RunEvent, { type: 'run_started' }>;
    expect(summarize(null, events)).toEqual({
      id: result.runId,
      task: FINLAND_TASK,
      startedAt: start.startedAt,
      protocol: 'paper',
      orchestratorModel: 'nvidia/Nemotron-Orchestrator-8B',
      preference: PREFERENCE_PRESETS.balanced,
      preset: 'balanced',
      status: 'finished',
      stopReason: 'answered',
      answer: '558,457',
      costUsd: result.totals.costUsd,
      latencyMs: result.totals.latencyMs,
      steps: 2,
      events: events.length,
    });
    expect(result.totals.costUsd).toBeGreaterThan(0);
  });

  it('names the domain a run played in, and none for a run in none', () => {
    const [start, ...rest] = sample.answered.events as [Extract<RunEvent, { type: 'run_started' }>, ...RunEvent[]];
    expect(summarize(null, [{ ...start, domain: 'tau2-telecom' }, ...rest])).toMatchObject({ domain: 'tau2-telecom' });
    expect(summarize(null, sample.answered.events)).not.toHaveProperty('domain');
  });

  it('folds batch by batch to the same summary as all at once', () => {
    const { events } = sample.answered;
    let summary = null;
    for (let i = 0; i < events.length; i += 5) summary = summarize(summary, events.slice(i, i + 5));
    expect(summary).toEqual(summarize(null, events));
  });

  it('leaves a log cut off mid-run running, at the step it reached, with the cost spent so far', () => {
    const { events } = sample.answered;
    // Cut after step 2 began and its orchestrator turn was charged, before the run finished.
    const secondStep = indexOf(events, 'step_started', 1);
    const cut = events.findIndex((event, index) => index > secondStep && event.type === 'usage') + 1;
    const lastUsage = events[cut - 1] as Extract<RunEvent, { type: 'usage' }>;
    const summary = summarize(null, events.slice(0, cut));
    expect(summary).toMatchObject({ status: 'running', stopReason: null, answer: null, steps: 2, events: cut, costUsd: lastUsage.totalUsd });
    expect(summary?.latencyMs).toBe(lastUsage.t);
    expect(summary?.costUsd).toBeLessThan(sample.answered.result.totals.costUsd);
  });

  it('gives a run stopped by an error its stop reason and no answer; a custom vector no preset', () => {
    const summary = summarize(null, sample.failed.events);
    expect(summary).toMatchObject({ status: 'finished', stopReason: 'error', answer: null, steps: 1, preset: null });
    expect(summary?.preference).toEqual({ outcome: 1, cost: 0, latency: 0, tools: { 'answer-1': 0.5 } });
  });

  it('ignores events of another run, and has nothing to say before run_started', () => {
    expect(summarize(null, sample.answered.events.slice(1))).toBeNull();
    const mixed = summarize(null, [...sample.answered.events.slice(0, 3), ...sample.failed.events.slice(1)]);
    expect(mixed).toMatchObject({ id: sample.answered.result.runId, status: 'running', events: 3, steps: 1 });
  });
});

describe('presetOf', () => {
  it('names the preset a vector equals, and none for per-tool weights or other numbers', () => {
    expect(presetOf(PREFERENCE_PRESETS.cheapest)).toBe('cheapest');
    expect(presetOf({ ...PREFERENCE_PRESETS.cheapest, tools: { 'search-1': 1 } })).toBeNull();
    expect(presetOf({ outcome: 0.3, cost: 0.3, latency: 0.4, tools: {} })).toBeNull();
    expect(presetOf(null)).toBeNull();
  });
});

describe('migrateRunLog', () => {
  it('keeps a current log as it is', () => {
    expect(migrateRunLog(sample.answered.events)).toEqual({ ok: true, events: sample.answered.events });
  });

  it('brings a version-0 log (run_started without version, config or preference) to the current version', () => {
    const [start, ...rest] = sample.answered.events;
    const { schemaVersion, config, preference, ...old } = start as Extract<RunEvent, { type: 'run_started' }>;
    expect([schemaVersion, config, preference].every((field) => field !== undefined)).toBe(true);
    const migrated = migrateRunLog([old as RunEvent, ...rest]);
    expect(migrated).toEqual({ ok: true, events: [{ ...old, schemaVersion: RUN_LOG_SCHEMA_VERSION, config: null, preference: null }, ...rest] });
  });

  it('refuses a newer log whole, and one that does not start with run_started or has no version number', () => {
    const [start, ...rest] = sample.answered.events;
    expect(migrateRunLog([{ ...start!, schemaVersion: RUN_LOG_SCHEMA_VERSION + 1 } as RunEvent, ...rest])).toEqual({
      ok: false,
      problem: `it was recorded by a newer version of the playground (run log version ${RUN_LOG_SCHEMA_VERSION + 1}; this one reads up to ${RUN_LOG_SCHEMA_VERSION}): update the playground to open it`,
    });
    expect(migrateRunLog(rest)).toEqual({ ok: false, problem: 'it does not begin with the run’s start (run_started)' });
    expect(migrateRunLog([{ ...start!, schemaVersion: 0.5 } as RunEvent, ...rest])).toEqual({
      ok: false,
      problem: 'its schemaVersion (0.5) is not a version number',
    });
  });
});

describe('resultOf and stepStarts', () => {
  it('reads back what the run returned, and nothing from a log that never finished', () => {
    expect(resultOf(sample.answered.events)).toEqual(sample.answered.result);
    expect(resultOf(sample.failed.events)).toEqual(sample.failed.result);
    expect(resultOf(sample.answered.events.slice(0, -1))).toBeNull();
  });

  it('finds each step where it begins', () => {
    const { events } = sample.answered;
    expect(stepStarts(events)).toEqual([
      [indexOf(events, 'step_started', 0), 1],
      [indexOf(events, 'step_started', 1), 2],
    ]);
  });
});
