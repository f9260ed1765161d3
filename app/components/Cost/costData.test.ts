import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../workers/engine/events.ts';
import { chartSeries, compareWithActual, costByTool, describeCost, labelOf, niceTicks, stepCostSeries, summarizeLedger, timeBreakdown, callsEndMs, laterBreakdown, userCostSplit } from './costData.ts';

const entry = (fields: Partial<LedgerEntry> & Pick<LedgerEntry, 'step' | 'kind'>): LedgerEntry => ({
  usd: 0,
  basis: 'measured',
  source: 'pricing',
  latencyMs: 0,
  ...fields,
});

// A paper-protocol run: orchestrator turn, search expert + corpus search, orchestrator turn,
// answer expert whose price is unknown, code priced at a rate.
const ledger: LedgerEntry[] = [
  entry({ step: 1, kind: 'orchestrator', model: 'orch', usd: 0.0002, latencyMs: 300, usage: { promptTokens: 1000, completionTokens: 20 } }),
  entry({
    step: 1,
    kind: 'expert',
    alias: 'search-1',
    model: 'searcher',
    usd: 0.001,
    counterfactualUsd: 0.004,
    latencyMs: 500,
    usage: { promptTokens: 600, completionTokens: 10, cachedPromptTokens: 100 },
  }),
  entry({ step: 1, kind: 'search', usd: 0, latencyMs: 40 }),
  entry({ step: 2, kind: 'orchestrator', model: 'orch', usd: 0.0003, latencyMs: 250, usage: { promptTokens: 1500, completionTokens: 30 } }),
  entry({ step: 2, kind: 'code', usd: 0.00005, basis: 'estimated', source: 'rate', latencyMs: 900 }),
  entry({
    step: 3,
    kind: 'expert',
    alias: 'answer-2',
    model: 'mystery',
    usd: null,
    counterfactualUsd: 0.02,
    latencyMs: 700,
    usage: { promptTokens: 2000, completionTokens: 9, reasoningTokens: 4 },
  }),
];

describe('stepCostSeries', () => {
  it('sums each step and runs a cumulative total, keeping unknown prices out of the sums', () => {
    const series = stepCostSeries(ledger);
    expect(series.map((point) => point.step)).toEqual([1, 2, 3]);
    expect(series[0]?.usd).toBeCloseTo(0.0012, 12);
    expect(series[1]?.usd).toBeCloseTo(0.00035, 12);
    expect(series[2]).toMatchObject({ usd: 0, unknownEntries: 1, cumulativeUnknownEntries: 1, estimated: false });
    expect(series[0]?.cumulativeUsd).toBeCloseTo(0.0012, 12);
    expect(series[1]?.cumulativeUsd).toBeCloseTo(0.00155, 12);
    expect(series[2]?.cumulativeUsd).toBeCloseTo(0.00155, 12);
    expect(series.map((point) => point.estimated)).toEqual([false, true, false]);
  });

  it('orders steps by number whatever order entries arrive in, and is empty for no entries', () => {
    const shuffled = [ledger[3], ledger[0], ledger[5]].filter((e): e is LedgerEntry => e !== undefined);
    expect(stepCostSeries(shuffled).map((point) => point.step)).toEqual([1, 2, 3]);
    expect(stepCostSeries([])).toEqual([]);
  });
});

describe('costByTool', () => {
  it('groups by alias, else tool, else kind, costliest first and unknown last', () => {
    const rows = costByTool([...ledger, entry({ step: 4, kind: 'tool', tool: 'get_weather', usd: 0.0001, latencyMs: 10 })]);
    expect(rows.map((row) => row.label)).toEqual(['search-1', 'orchestrator', 'get_weather', 'code', 'search', 'answer-2']);
    const orchestrator = rows.find((row) => row.label === 'orchestrator');
    expect(orchestrator).toMatchObject({ kind: 'orchestrator', entries: 2, latencyMs: 550, unknownEntries: 0, estimated: false });
    expect(orchestrator?.usd).toBeCloseTo(0.0005, 12);
    expect(rows.find((row) => row.label === 'answer-2')).toMatchObject({ usd: null, unknownEntries: 1 });
    expect(rows.find((row) => row.label === 'code')).toMatchObject({ estimated: true });
  });

  it('labels entries the way the chart and table show them', () => {
    expect(labelOf(entry({ step: 1, kind: 'expert', alias: 'answer-1', tool: 'answer' }))).toBe('answer-1');
    expect(labelOf(entry({ step: 1, kind: 'tool', tool: 'run_python' }))).toBe('run_python');
    expect(labelOf(entry({ step: 1, kind: 'search' }))).toBe('search');
  });
});

describe('summarizeLedger', () => {
  it('totals known cost, unknown entries, estimates and tokens', () => {
    const summary = summarizeLedger(ledger);
    expect(summary.knownUsd).toBeCloseTo(0.00155, 12);
    expect(summary).toMatchObject({ entries: 6, unknownEntries: 1, hasEstimates: true });
    expect(summary.tokens).toEqual({ prompt: 5100, completion: 69, cachedPrompt: 100, reasoning: 4, estimated: false });
  });

  it('prices the counterfactual as the engine does: experts at the strongest model, the rest as it was', () => {
    const knownOnly = ledger.slice(0, 5);
    expect(summarizeLedger(knownOnly).counterfactualUsd).toBeCloseTo(0.0002 + 0.004 + 0 + 0.0003 + 0.00005, 12);
    // The unknown-price expert still has a counterfactual price.
    expect(summarizeLedger(ledger).counterfactualUsd).toBeCloseTo(0.0002 + 0.004 + 0 + 0.0003 + 0.00005 + 0.02, 12);
    // An expert call the strongest model could not price makes the whole figure unknown.
    expect(summarizeLedger([...ledger, entry({ step: 4, kind: 'expert', usd: 0.1, counterfactualUsd: null })]).counterfactualUsd).toBeNull();
    // So does any other entry with an unknown price.
    expect(summarizeLedger([entry({ step: 1, kind: 'orchestrator', usd: null })]).counterfactualUsd).toBeNull();
  });

  it('marks tokens we counted ourselves as estimated', () => {
    const estimated = entry({ step: 1, kind: 'orchestrator', basis: 'estimated', usage: { promptTokens: 10, completionTokens: 2 } });
    expect(summarizeLedger([estimated]).tokens.estimated).toBe(true);
  });
});

describe('userCostSplit', () => {
  it('keeps a τ² simulated user\'s cost apart from the agent\'s, unknown prices counted, not summed', () => {
    const withUser = [
      ...ledger,
      entry({ step: 1, kind: 'user', model: 'user-model', usd: 0.00225 }),
      entry({ step: 2, kind: 'user', model: 'user-model', usd: 0.00225 }),
      entry({ step: 3, kind: 'user', model: 'user-model', usd: null }),
    ];
    const split = userCostSplit(withUser);
    expect(split).toEqual({ agentUsd: expect.closeTo(0.00155, 12), agentUnknown: 1, userUsd: expect.closeTo(0.0045, 12), userUnknown: 1 });
    expect(split!.agentUsd + split!.userUsd).toBeCloseTo(summarizeLedger(withUser).knownUsd, 12);
  });
  it('is absent for a run with no user turn charged', () => {
    expect(userCostSplit(ledger)).toBeNull();
  });
});

describe('describeCost', () => {
  it('never shows an unknown price as $0', () => {
    expect(describeCost(0.0123, 0)).toBe('$0.0123');
    expect(describeCost(null, 2)).toBe('unknown');
    expect(describeCost(0, 1)).toBe('unknown');
    expect(describeCost(0.0123, 1)).toBe('$0.0123 + unknown');
    expect(describeCost(0, 0)).toBe('$0');
  });

  it('marks a figure that includes estimates with ≈, as the trace and the status line do', () => {
    expect(describeCost(0.0123, 0, true)).toBe('≈$0.0123');
    expect(describeCost(0.0123, 1, true)).toBe('≈$0.0123 + unknown');
    expect(describeCost(0, 1, true)).toBe('unknown');
  });
});

describe('compareWithActual', () => {
  it('says how the counterfactual compares with the real cost', () => {
    expect(compareWithActual(0.04, 0.01)).toBe('4.0× this run');
    expect(compareWithActual(0.5, 0.01)).toBe('50× this run');
    expect(compareWithActual(0.01, 0.01)).toBe('same as this run');
    expect(compareWithActual(0.005, 0.01)).toBe('50% less than this run');
    expect(compareWithActual(0.01, 0)).toBe('');
  });
});

describe('chartSeries', () => {
  const point = (step: number, usd: number, cumulativeUsd: number) => ({
    step,
    usd,
    cumulativeUsd,
    unknownEntries: 0,
    cumulativeUnknownEntries: 0,
    estimated: false,
  });

  it('keeps one bar per step for short runs', () => {
    expect(chartSeries([point(1, 0.1, 0.1), point(2, 0.2, 0.3)])).toEqual([
      { label: '1', first: 1, last: 1, usd: 0.1, cumulativeUsd: 0.1 },
      { label: '2', first: 2, last: 2, usd: 0.2, cumulativeUsd: 0.3 },
    ]);
  });

  it('groups a long run into at most maxBars bins that keep its total', () => {
    let cumulative = 0;
    const points = Array.from({ length: 500 }, (_, i) => {
      cumulative += 0.001 * (i + 1);
      return point(i + 1, 0.001 * (i + 1), cumulative);
    });
    const bins = chartSeries(points, 60);
    expect(bins.length).toBeLessThanOrEqual(60);
    expect(bins[0]?.label).toBe('1–9');
    expect(bins.at(-1)?.label).toBe('496–500');
    expect(bins.reduce((sum, bin) => sum + bin.usd, 0)).toBeCloseTo(cumulative, 9);
    expect(bins.at(-1)?.cumulativeUsd).toBe(cumulative);
  });
});

describe('where the time went', () => {
  it('sums to the wall time: each call its own time, a sandbox start-up on its own line, the rest between calls', () => {
    // A paper run of 12 s: orchestrator 0–1 s, coder 1–2 s, Python waits 7.5 s for Pyodide then
    // runs 0.5 s (2–10 s), orchestrator 10.5–11.5 s.
    const timed: LedgerEntry[] = [
      entry({ step: 1, kind: 'orchestrator', latencyMs: 1000, endMs: 1000 }),
      entry({ step: 1, kind: 'expert', alias: 'reasoner-1', latencyMs: 1000, endMs: 2000 }),
      entry({ step: 1, kind: 'code', latencyMs: 8000, endMs: 10_000, startup: { sandbox: 'Python', ms: 7500 } }),
      entry({ step: 2, kind: 'orchestrator', latencyMs: 1000, endMs: 11_500 }),
    ];
    const time = timeBreakdown(timed, 12_000);
    expect(time.byLabel).toEqual({ orchestrator: 2000, 'reasoner-1': 1000, code: 500 });
    expect(time.startups).toEqual([{ label: 'Python start-up', ms: 7500, count: 1 }]);
    expect(time.betweenMs).toBe(1000);
    const sum = Object.values(time.byLabel).reduce((a, b) => a + b, 0) + time.startups.reduce((a, s) => a + s.ms, 0) + time.betweenMs;
    expect(sum).toBe(12_000);
  });

  it('lets calls that ran at once share the time they overlapped, so nothing is counted twice', () => {
    // Function calling: two tools run side by side from 1 s; one takes 2 s, the other 1 s.
    const concurrent: LedgerEntry[] = [
      entry({ step: 1, kind: 'orchestrator', latencyMs: 1000, endMs: 1000 }),
      entry({ step: 1, kind: 'tool', tool: 'search_corpus', latencyMs: 1000, endMs: 2000 }),
      entry({ step: 1, kind: 'tool', tool: 'run_python', latencyMs: 2000, endMs: 3000 }),
    ];
    const time = timeBreakdown(concurrent, 3000);
    // 1–2 s is shared half and half; 2–3 s is run_python's alone.
    expect(time.byLabel).toEqual({ orchestrator: 1000, search_corpus: 500, run_python: 1500 });
    expect(time.betweenMs).toBe(0);
  });

  it('places entries without a time stamp end to end, and never counts past the wall time', () => {
    const unstamped: LedgerEntry[] = [
      entry({ step: 1, kind: 'orchestrator', latencyMs: 600 }),
      entry({ step: 1, kind: 'search', latencyMs: 600 }),
    ];
    expect(timeBreakdown(unstamped, 1000)).toEqual({ byLabel: { orchestrator: 600, search: 400 }, startups: [], betweenMs: 0, wallMs: 1000 });
    expect(timeBreakdown([], 500)).toEqual({ byLabel: {}, startups: [], betweenMs: 500, wallMs: 500 });
  });
});

describe('where the time went, as the clock ticks', () => {
  // Overlapping, unstamped and start-up entries, not in the order they ended.
  const ledger: LedgerEntry[] = [
    entry({ step: 1, kind: 'orchestrator', latencyMs: 1000, endMs: 1000 }),
    entry({ step: 1, kind: 'tool', tool: 'run_python', latencyMs: 3000, endMs: 4000, startup: { sandbox: 'Python', ms: 1500 } }),
    entry({ step: 1, kind: 'tool', tool: 'search_corpus', latencyMs: 1000, endMs: 2000 }),
    entry({ step: 2, kind: 'orchestrator', latencyMs: 500 }),
  ];

  it('gives the same figures from the calls\' end as a count at each later wall time', () => {
    expect(callsEndMs(ledger)).toBe(4000);
    const atEnd = timeBreakdown(ledger, callsEndMs(ledger));
    for (const wallMs of [4000, 4001, 6000, 60_000]) expect(laterBreakdown(atEnd, wallMs)).toEqual(timeBreakdown(ledger, wallMs));
  });

  it('leaves a wall time before the calls\' end to a full count, which cuts calls short', () => {
    expect(laterBreakdown(timeBreakdown(ledger, callsEndMs(ledger)), 3999)).toBeNull();
    expect(callsEndMs([])).toBe(0);
    expect(laterBreakdown(timeBreakdown([], 0), 500)).toEqual(timeBreakdown([], 500));
  });
});

describe('chart ticks', () => {
  it('are round numbers from 0, evenly spaced, reaching at least the largest value', () => {
    // The uneven $0, 0.00085, 0.0017, 0.0034 for a run that cost $0.0031.
    expect(niceTicks(0.0031)).toEqual([0, 0.001, 0.002, 0.003, 0.004]);
    expect(niceTicks(0.0017)).toEqual([0, 0.0005, 0.001, 0.0015, 0.002]);
    expect(niceTicks(4.2)).toEqual([0, 2, 4, 6]);
    expect(niceTicks(0.95)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0)).toEqual([0, 1]);
    for (const max of [0.0000123, 0.00042, 0.017, 0.5, 3, 77, 1234]) {
      const ticks = niceTicks(max);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks.length).toBeLessThanOrEqual(6);
      const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
      // Each step is 1, 2 or 5 (or 2.5) times a power of ten, and the ticks are evenly spaced.
      const mantissa = step / 10 ** Math.floor(Math.log10(step));
      expect([1, 2, 2.5, 5].some((m) => Math.abs(mantissa - m) < 1e-9)).toBe(true);
      ticks.forEach((tick, i) => expect(tick).toBeCloseTo(i * step, 12));
    }
  });
});
