import { closedPort } from '../../e2e/fixtures/closedPort.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { parsePolicy } from '../eval/policies.ts';
import { parseConfig } from './config.ts';
import { checkEndpoints, usesOf } from './endpointCheck.ts';
import { effectivePricing } from './prepareRun.ts';
import type { RunFactory } from '../eval/ports.ts';

/** What usesOf needs of the host's factory: the prices (the alone policies pick by price). */
const RUNS = { pricing: (config) => effectivePricing(config) } as Pick<RunFactory, 'pricing'> as RunFactory;


let server: ScriptedServer;
let closed: string;
beforeAll(async () => {
  server = await startScriptedServer({ scenario: { models: {} } });
  closed = `http://127.0.0.1:${await closedPort()}/v1`;
});
afterAll(() => server.close());

const config = (answerUrl: string) =>
  parseConfig({
    protocol: 'paper',
    providers: {
      here: { kind: 'openai-compatible', baseUrl: `${server.url}/v1` },
      there: { kind: 'openai-compatible', baseUrl: answerUrl },
      demo: { kind: 'demo' },
    },
    orchestrator: { provider: 'here', model: 'orchestrator', toolMode: 'prompt' },
    experts: {
      'search-1': { tool: 'search', provider: 'demo', model: 'scripted-small' },
      'reasoner-1': { tool: 'enhance_reasoning', provider: 'demo', model: 'scripted-small' },
      'answer-1': { tool: 'answer', provider: 'there', model: 'gpt-5' },
      'answer-2': { tool: 'answer', provider: 'here', model: 'gpt-5-mini' },
    },
  });

describe('the endpoints an evaluation needs, checked before its first rollout', () => {
  it('names who each policy calls: the orchestrator and its experts, or the one expert alone', () => {
    const c = config(closed);
    const who = (policy: string) => usesOf(c, [parsePolicy(policy)], RUNS, false).map((use) => `${use.who}@${use.provider}`);
    expect(who('orchestrator')).toEqual(['the orchestrator@here', 'alias search-1@demo', 'alias reasoner-1@demo', 'alias answer-1@there', 'alias answer-2@here']);
    expect(who('strongest')).toEqual(['alias answer-1 (strongest alone)@there']);
    expect(who('cheapest')).toEqual(['alias answer-2 (cheapest alone)@here']);
  });

  it('says which endpoint does not answer, and who calls it; the demo and a live server pass', async () => {
    server.requests.length = 0;
    const c = config(closed);
    const problems = await checkEndpoints(c, usesOf(c, [parsePolicy('orchestrator')], RUNS, false), {}, new AbortController().signal);
    expect(problems[0]).toBe(
      `The endpoint ${closed} (provider “there”), which alias answer-1 calls, could not be reached from this page (nothing answers there, or the server does not allow this page’s address: CORS).`,
    );
    expect(problems).toHaveLength(2);
    expect(problems[1]).toContain('Try the demo');
    // The live one was asked once, for its models, and nothing else.
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models']);
  });

  it('finds nothing to say when every endpoint answers, and needs none for the strongest alone on a live one', async () => {
    const c = config(`${server.url}/v1`);
    expect(await checkEndpoints(c, usesOf(c, [parsePolicy('orchestrator'), parsePolicy('random')], RUNS, false), {}, new AbortController().signal)).toEqual([]);
  });
});
