// The config's `search` section end to end through the CLI: search_corpus over the local corpus
// merged with a Wikipedia-like server, each document naming its source, a failing Wikipedia
// reported in the observation while the corpus still answers, and "documents" refused outside
// the browser.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import { startWikipediaServer, type WikipediaServer } from '../e2e/fixtures/wikipediaServer.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { lastUserContent, loadScenario, makeTempDir, ORCHESTRATOR_MODEL, requestsFor, runCli, runJson, scenarioTokenCost, writeConfig } from '../e2e/fixtures/cliHarness.ts';

const TASK = 'How many people live in the capital of Finland?';
const scenario = loadScenario('cli-function-calling');
let server: ScriptedServer;
let wiki: WikipediaServer;

beforeAll(async () => {
  server = await startScriptedServer({ scenario });
  wiki = await startWikipediaServer({
    pages: [{ pageid: 42, title: 'Helsinki', text: 'Helsinki is the capital and most populous city of Finland.' }],
  });
});
afterAll(async () => {
  await Promise.all([server.close(), wiki.close()]);
});

function searchConfig(search: Record<string, unknown>) {
  return writeConfig(makeTempDir(), 'function-calling-scripted.json', server.url, (config) => {
    config.search = search;
  });
}

type ToolResult = Extract<RunEvent, { type: 'tool_result' }>;

describe('orchestra run with search sources', () => {
  it('merges the local corpus and Wikipedia by rank, each document naming its source, at $0 a search', async () => {
    server.reset();
    const { path, config } = searchConfig({ sources: ['local', 'wikipedia'], wikipediaBaseUrl: wiki.url, perSourceLimit: 2 });
    const { result, lines, summary } = await runJson(path, TASK);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const search = lines.find((line): line is ToolResult => line.type === 'tool_result' && line.name === 'search_corpus');
    const documents = (search?.detail as { documents: Array<{ id: string; source: string }> }).documents;
    expect(documents.map((doc) => doc.source)).toEqual(['local', 'wikipedia', 'local']);
    expect(documents[1]?.id).toBe('wikipedia-42');
    expect(wiki.requests.map((request) => request.call)).toEqual(['search', 'extracts']);

    const [, second] = requestsFor(server.requests, ORCHESTRATOR_MODEL);
    const observation = lastUserContent(second!);
    expect(observation).toContain('Doc 2 (Helsinki, from Wikipedia): Helsinki is the capital and most populous city of Finland.');
    expect(observation).toMatch(/Doc 1 \([^)]*, from Local corpus\)/);
    const [first] = requestsFor(server.requests, ORCHESTRATOR_MODEL);
    expect(JSON.stringify(first?.body)).toContain('Search a local encyclopedia of countries and cities and English Wikipedia.');
    // The searches cost nothing: the run costs exactly its model tokens.
    expect(summary.unknownCostEntries).toBe(0);
    expect(summary.costUsd).toBeCloseTo(scenarioTokenCost(scenario, config), 12);
  }, 90_000);

  it('tells the orchestrator Wikipedia failed while the corpus still answers', async () => {
    server.reset();
    wiki.setFault({ kind: 'status', status: 500 }, 'search');
    try {
      const { path } = searchConfig({ sources: ['local', 'wikipedia'], wikipediaBaseUrl: wiki.url });
      const { result, lines } = await runJson(path, TASK);
      expect(result.code).toBe(0);
      const search = lines.find((line): line is ToolResult => line.type === 'tool_result' && line.name === 'search_corpus');
      expect(search?.ok).toBe(true);
      expect(search?.content).toMatch(/Wikipedia was not searched: Wikipedia \(127\.0\.0\.1:\d+\) answered the search with HTTP 500/);
      expect(search?.content).toContain('Its population is 558,457.');
    } finally {
      wiki.setFault(null);
    }
  }, 90_000);

  it('refuses "documents", which exist only in the browser, before calling anything', async () => {
    server.reset();
    const { path } = searchConfig({ sources: ['documents'] });
    const result = await runCli(['run', '--config', path, '--task', TASK]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('search.sources names "documents", the documents added in the playground, and they exist only in the browser');
    expect(server.requests).toEqual([]);
  }, 90_000);
});
