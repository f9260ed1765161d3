import { describe, expect, it } from 'vitest';
import type { RunView } from '../../state/runView.ts';
import { compareRuns, routeOf, scoredMs, statesAnswer, thinkingMs } from './compareRuns.ts';

function run(costUsd: number, latencyMs: number, aliases: Record<string, number>, route: Array<[string, string]> = []): RunView {
  const calls = Object.fromEntries(route.map(([tool, alias], i) => [`c${i}`, { callId: `c${i}`, step: i + 1, name: tool, alias, arguments: {}, offered: [], childCallIds: [], reasoning: '', content: '', costs: [], retries: [], errors: [] }]));
  return {
    steps: route.map((_, i) => ({ step: i + 1, callIds: [`c${i}`] })),
    calls,
    totalUsd: costUsd,
    elapsedMs: latencyMs,
    totals: { costUsd, latencyMs, toolCounts: { tools: {}, aliases } },
  } as unknown as RunView;
}

const balanced = { outcome: 0.5, cost: 0.25, latency: 0.25, tools: {} };

describe('compareRuns', () => {
  it('scores the cheaper, faster route higher when both are right, and says why', () => {
    const you = run(0.004, 30_000, { 'search-1': 1, 'answer-1': 1 });
    const orchestrator = run(0.0005, 12_000, { 'search-2': 1, 'answer-2': 1 });
    const { rewards, terms } = compareRuns({ run: you, correct: true }, { run: orchestrator, correct: true }, balanced);
    expect(rewards).toEqual([0, 0.5]);
    expect(terms).toEqual([
      'Being right counted 0.5 of the reward; you were level (right each), so it told you apart in nothing.',
      'Cost counted 0.25 of the reward; you were the dearer of the two ($0.004 against $0.0005), so it gave the orchestrator 0.25 and you 0.',
      'Time counted 0.25 of the reward; you were the slower (30 s against 12 s), so it gave the orchestrator 0.25 and you 0.',
    ]);
  });

  it('scores a person on the tools’ and models’ time only, their thinking time shown apart (issue 24, item 6)', () => {
    // 30 s in all, of which 25 s the person choosing: 5 s of tools and models, faster than the orchestrator's 12 s.
    const you = { ...run(0.0005, 30_000, {}), ledger: [{ kind: 'orchestrator', model: 'you', latencyMs: 25_000 }, { kind: 'expert', model: 'gpt-5-mini', latencyMs: 4_000 }] } as unknown as RunView;
    const orchestrator = run(0.0005, 12_000, {});
    expect(thinkingMs(you)).toBe(25_000);
    expect(scoredMs(you)).toBe(5_000);
    const { rewards, terms } = compareRuns({ run: you, correct: true }, { run: orchestrator, correct: true }, balanced);
    expect(rewards).toEqual([0.25, 0]);
    expect(terms).toContain('Time counted 0.25 of the reward; the orchestrator was the slower (12 s against 5 s), so it gave you 0.25 and the orchestrator 0.');
    expect(terms).toContain('Your thinking time (25 s) is shown apart and not scored: your time above is the tools’ and models’ only (5 s).');
  });

  it('a wrong answer scores 0 whatever it cost', () => {
    const { rewards, terms } = compareRuns({ run: run(0.0001, 1000, {}), correct: false }, { run: run(0.01, 9000, {}), correct: true }, balanced);
    expect(rewards).toEqual([0, 0.5]);
    expect(terms[0]).toBe('Being right counted 0.5 of the reward; the orchestrator was right and the other wrong, so it gave the orchestrator 0.5 and you 0.');
    expect(terms.at(-1)).toBe('A wrong answer scores 0 whatever it cost: you get 0.');
  });

  it('a tool to avoid scores fewer calls higher', () => {
    const preference = { outcome: 0.5, cost: 0, latency: 0, tools: { 'search-1': -1 } };
    const { rewards, terms } = compareRuns(
      { run: run(0.001, 1000, { 'search-1': 0 }), correct: true },
      { run: run(0.001, 1000, { 'search-1': 2 }), correct: true },
      preference,
    );
    expect(rewards).toEqual([1, 0]);
    expect(terms.at(-1)).toBe('Calls to search-1 counted 1 of the reward; you made fewer (0 calls against 2 calls), so it gave you 1 and the orchestrator 0.');
  });
});

describe('routeOf and statesAnswer', () => {
  it('lists the route as tool and alias per step', () => {
    expect(routeOf(run(0, 0, {}, [['search', 'search-2'], ['answer', 'answer-1']]))).toEqual([
      { step: 1, tool: 'search', alias: 'search-2' },
      { step: 2, tool: 'answer', alias: 'answer-1' },
    ]);
  });

  it('finds the reference in an answer, case and punctuation aside, but not inside another word', () => {
    expect(statesAnswer('It is Helsinki.', 'helsinki')).toBe(true);
    expect(statesAnswer('About 558.5 thousand', '558.5')).toBe(true);
    expect(statesAnswer('Helsinkiläinen', 'Helsinki')).toBe(false);
    expect(statesAnswer(null, 'Helsinki')).toBe(false);
  });
});
