// A policy kind is one folder and one registry line: the test-only kind in testing/ is listed here
// beside the real ones, and an evaluation runs under it like under any other.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEnvironment, type NodeRunEnvironment } from '../../../cli/nodeEnvironment.ts';
import { parseConfig } from '../../hosts/config.ts';
import { runFactory } from '../../hosts/prepareRun.ts';
import { createPolicies, parsePolicy } from '../policies.ts';
import { PolicyError } from '../policy.ts';
import type { RolloutRecord } from '../results.ts';
import { runEvaluation } from '../runner.ts';
import { parseSuite } from '../suite.ts';
import { POLICY_KINDS } from './registry.ts';
import { sameAnswerPolicy } from './testing/sameAnswer.ts';

const KINDS = [...POLICY_KINDS, sameAnswerPolicy];

let node: NodeRunEnvironment;
beforeAll(async () => {
  node = await createNodeEnvironment({});
});
afterAll(async () => {
  await node.dispose();
});

const config = () =>
  parseConfig({
    providers: { p: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } },
    orchestrator: { provider: 'p', model: 'orch' },
    experts: {
      searcher: { tool: 'search', provider: 'p', model: 'm' },
      reasoner: { tool: 'enhance_reasoning', provider: 'p', model: 'm' },
      answerer: { tool: 'answer', provider: 'p', model: 'm' },
    },
  });

describe('the policy registry', () => {
  it('lists every kind once, and each reads only its own names', () => {
    const kinds = POLICY_KINDS.map((kind) => kind.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds).toEqual(['orchestrator', 'strongest', 'cheapest', 'random', 'qwen3']);
    for (const kind of POLICY_KINDS) expect(KINDS.filter((other) => other.parse(kind.kind === 'qwen3' ? 'qwen3=p/m' : kind.kind))).toEqual([kind]);
  });

  it('takes a kind added as a folder and a line: its names, its forms, its runs', async () => {
    expect(() => parsePolicy('same-answer=Paris')).toThrow(PolicyError);
    expect(parsePolicy('same-answer=Paris', KINDS)).toEqual({ name: 'same-answer=Paris', kind: 'same-answer', model: 'Paris' });
    expect(() => parsePolicy('smartest', KINDS)).toThrow(/Policies: orchestrator, .*qwen3=<provider>\/<model>, same-answer=<answer>\./);

    const suite = parseSuite('{"id":"fr","task":"Capital of France?","answer":"Paris"}\n{"id":"de","task":"Capital of Germany?","answer":"Berlin"}\n', { source: 'capitals.jsonl', requireCheck: true });
    const policies = createPolicies([parsePolicy('same-answer=Paris', KINDS)], { config: config(), runs: runFactory(node.environment), domains: new Map(), seed: '0' }, KINDS);
    const records: RolloutRecord[] = [];
    const outcome = await runEvaluation({
      tasks: suite.tasks,
      policies,
      rollouts: 1,
      concurrency: 1,
      budgetUsd: null,
      grading: { domains: new Map() },
      previous: [],
      signal: new AbortController().signal,
      onRecord: (record) => records.push(record),
    });
    expect(outcome.crashed).toBe(0);
    expect(records.map((record) => [record.taskId, record.answer, record.correct])).toEqual([
      ['fr', 'Paris', true],
      ['de', 'Paris', false],
    ]);
  });
});
