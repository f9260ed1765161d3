import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../workers/engine/events.ts';
import { costFigure, entriesCost, formatArguments, formatSpeeds, formatTokens, reasoningGist, secondsLeft, splitThinking, sumTokens } from './summary.ts';

const entry = (fields: Partial<LedgerEntry>): LedgerEntry => ({
  step: 1,
  kind: 'expert',
  usd: 0.001,
  basis: 'measured',
  source: 'pricing',
  latencyMs: 100,
  ...fields,
});

describe('sumTokens / formatTokens', () => {
  it('adds the usage of every entry that has one', () => {
    const tokens = sumTokens([
      entry({ usage: { promptTokens: 1210, completionTokens: 35 } }),
      entry({ usage: { promptTokens: 640, completionTokens: 12, cachedPromptTokens: 600, reasoningTokens: 5 } }),
      entry({ kind: 'search' }),
    ]);
    expect(tokens).toEqual({ prompt: 1850, completion: 47, cached: 600, reasoning: 5, withUsage: 2 });
    expect(formatTokens(tokens)).toBe('1,850 in (600 cached) · 47 out (5 reasoning)');
  });

  it('says nothing when no entry had usage', () => {
    expect(formatTokens(sumTokens([entry({ kind: 'code' })]))).toBe('');
  });
});

describe('costFigure / entriesCost', () => {
  it('marks estimates and never shows an unknown price as $0', () => {
    expect(costFigure(0.0123, { estimated: false, unknown: false }).text).toBe('$0.0123');
    expect(costFigure(0.0123, { estimated: true, unknown: false }).text).toBe('≈$0.0123');
    expect(costFigure(0.0123, { estimated: false, unknown: true }).text).toBe('$0.0123 + unknown');
    expect(costFigure(0, { estimated: false, unknown: true })).toEqual({ text: 'unknown', estimated: false, unknown: true });
  });

  it('sums known entries and flags estimated and unknown ones', () => {
    expect(entriesCost([])).toBeNull();
    expect(entriesCost([entry({ usd: 0.0002 }), entry({ usd: 0.0003 })])?.text).toBe('$0.0005');
    const mixed = entriesCost([entry({ usd: 0.0002 }), entry({ usd: 0.0001, basis: 'estimated' }), entry({ usd: null })]);
    expect(mixed).toEqual({ text: '≈$0.0003 + unknown', estimated: true, unknown: true });
    expect(entriesCost([entry({ usd: null })])?.text).toBe('unknown');
  });
});

describe('formatArguments', () => {
  it('keeps short arguments on one line and indents long ones', () => {
    expect(formatArguments({ model: 'search-1' })).toEqual({ text: '{"model":"search-1"}', multiline: false });
    expect(formatArguments({})).toEqual({ text: '{}', multiline: false });
    const long = formatArguments({ code: 'print(1)\n'.repeat(10), timeout: 5 });
    expect(long.multiline).toBe(true);
    expect(long.text).toBe(JSON.stringify({ code: 'print(1)\n'.repeat(10), timeout: 5 }, null, 2));
  });
});

describe('splitThinking', () => {
  it('separates a closed thinking block from what follows', () => {
    expect(splitThinking('<think>Need the capital.</think>\n<tool_call>\n{"name": "search"')).toEqual({
      reasoning: 'Need the capital.',
      rest: '<tool_call>\n{"name": "search"',
    });
  });

  it('treats an unclosed block as reasoning still being written', () => {
    expect(splitThinking('<think>Need the cap')).toEqual({ reasoning: 'Need the cap', rest: '' });
  });

  it('reads text before a lone </think> as reasoning (the template opened the block)', () => {
    expect(splitThinking('Need it.</think>answer')).toEqual({ reasoning: 'Need it.', rest: 'answer' });
  });

  it('leaves text without thinking alone', () => {
    expect(splitThinking('<message>Hi</message>')).toEqual({ reasoning: '', rest: '<message>Hi</message>' });
  });
});

describe('secondsLeft', () => {
  it('rounds up and stops at zero', () => {
    expect(secondsLeft(10_000, 7_100)).toBe(3);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });
});

describe('formatSpeeds', () => {
  it('shows what a local engine prefilled and how fast it ran, and nothing for a remote one', () => {
    const local = entry({ kind: 'orchestrator', usage: { promptTokens: 64, completionTokens: 30, prefillTokensPerSecond: 951.4, decodeTokensPerSecond: 42.46 } });
    expect(formatSpeeds([local])).toBe('prefill 64 tokens at 951 tok/s · decode 42.5 tok/s');
    expect(formatSpeeds([entry({ usage: { promptTokens: 900, completionTokens: 20 } })])).toBe('');
    expect(formatSpeeds([])).toBe('');
  });
});

describe('reasoningGist', () => {
  it('takes the reasoning’s last sentence, where the turn lands on its choice', () => {
    expect(reasoningGist('Balanced: correctness 50%.\nI still need the area of Greece.  I search with search-3, the cheapest at $0.40 per M.')).toBe(
      'I search with search-3, the cheapest at $0.40 per M.',
    );
  });

  it('keeps a single sentence on one line, clipped', () => {
    expect(reasoningGist('  Look it\n up  ')).toBe('Look it up');
    const long = reasoningGist(`I ${'really '.repeat(40)}should search.`);
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long.endsWith('…')).toBe(true);
    expect(reasoningGist('')).toBe('');
  });
});
