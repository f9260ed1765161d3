import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../workers/engine/events.ts';
import { chartSeries, compareWithActual, costByTool, describeCost, labelOf, stepCostSeries, summarizeLedger } from './costData.ts';

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

describe('describeCost', () => {
  it('never shows an unknown price as $0', () => {
    expect(describeCost(0.0123, 0)).toBe('$0.0123');
    expect(describeCost(null, 2)).toBe('unknown');
    expect(describeCost(0, 1)).toBe('unknown');
    expect(describeCost(0.0123, 1)).toBe('$0.0123 + unknown');
    expect(describeCost(0, 0)).toBe('$0');
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
      { label: '1', usd: 0.1, cumulativeUsd: 0.1 },
      { label: '2', usd: 0.2, cumulativeUsd: 0.3 },
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
