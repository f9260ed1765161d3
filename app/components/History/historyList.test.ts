import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../workers/history/runLog.ts';
import { filterRuns } from './historyList.ts';

const run = (id: string, overrides: Partial<RunSummary>): RunSummary => ({
  id,
  task: 'task',
  startedAt: '2026-11-01T00:00:00.000Z',
  protocol: 'paper',
  orchestratorModel: 'nvidia/Nemotron-Orchestrator-8B',
  preference: null,
  preset: null,
  status: 'finished',
  stopReason: 'answered',
  answer: null,
  costUsd: 0,
  latencyMs: 0,
  steps: 1,
  events: 3,
  ...overrides,
});

// Newest first, as the store keeps them.
const runs = [
  run('c', { task: 'Population of Helsinki?', answer: '558,457', costUsd: 0.002, latencyMs: 3000, preset: 'cheapest' }),
  run('b', { task: 'Capital of Norway?', name: 'Norway demo', costUsd: 0.01, latencyMs: 1000 }),
  run('a', { task: 'Population of Oslo?', costUsd: 0.005, latencyMs: 9000, protocol: 'function-calling' }),
];

describe('filterRuns', () => {
  it('keeps runs holding every word, in any case, across name, task, answer, model, protocol and preset', () => {
    expect(filterRuns(runs, 'population', 'newest').map((r) => r.id)).toEqual(['c', 'a']);
    expect(filterRuns(runs, 'POPULATION oslo', 'newest').map((r) => r.id)).toEqual(['a']);
    expect(filterRuns(runs, 'demo', 'newest').map((r) => r.id)).toEqual(['b']);
    expect(filterRuns(runs, '558,457', 'newest').map((r) => r.id)).toEqual(['c']);
    expect(filterRuns(runs, 'function-calling', 'newest').map((r) => r.id)).toEqual(['a']);
    expect(filterRuns(runs, 'cheapest', 'newest').map((r) => r.id)).toEqual(['c']);
    expect(filterRuns(runs, '   ', 'newest')).toHaveLength(3);
  });
  it('sorts without changing the list it was given', () => {
    expect(filterRuns(runs, '', 'oldest').map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(filterRuns(runs, '', 'dearest').map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(filterRuns(runs, '', 'cheapest').map((r) => r.id)).toEqual(['c', 'a', 'b']);
    expect(filterRuns(runs, '', 'longest').map((r) => r.id)).toEqual(['a', 'c', 'b']);
    expect(runs.map((r) => r.id)).toEqual(['c', 'b', 'a']);
  });
});
