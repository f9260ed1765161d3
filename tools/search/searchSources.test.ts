import { describe, expect, it } from 'vitest';
import { WIKIPEDIA_API_URL } from '../../workers/engine/config.ts';
import { parseConfig } from '../../workers/hosts/config.ts';
import { createCorpusRetriever } from './retriever.ts';
import { readFileSync } from 'node:fs';
import { createSearchRetriever, describeSearchSources, retrievalTopK, searchSourceLabel } from './searchSources.ts';
import { configProblems } from '../../e2e/fixtures/configProblems.ts';

const base = {
  providers: { vllm: { kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' } },
  orchestrator: { provider: 'vllm', model: 'orchestrator' },
  experts: {
    s: { tool: 'search', provider: 'vllm', model: 'm' },
    r: { tool: 'enhance_reasoning', provider: 'vllm', model: 'm' },
    a: { tool: 'answer', provider: 'vllm', model: 'm' },
  },
};

const problems = (search: unknown): string[] => configProblems(() => parseConfig({ ...base, search }));

describe('the config search section', () => {
  it('defaults to the local corpus and the English Wikipedia API', () => {
    expect(parseConfig(base).search).toEqual({ sources: ['local'], wikipediaBaseUrl: WIKIPEDIA_API_URL, wikipediaTimeoutSeconds: 15, retrievalTimeoutSeconds: 60 });
    expect(parseConfig({ ...base, search: { sources: ['wikipedia', 'documents'], perSourceLimit: 3 } }).search).toMatchObject({
      sources: ['wikipedia', 'documents'],
      perSourceLimit: 3,
    });
  });

  it('names each problem with its field', () => {
    expect(problems({ sources: [] })).toEqual(['search.sources: must name at least one source']);
    expect(problems({ sources: ['local', 'local'] })).toEqual(['search.sources: must name each source once']);
    expect(problems({ sources: ['web'] })[0]).toMatch(/^search\.sources\.0: .*"local"\|"documents"\|"wikipedia"/);
    expect(problems({ wikipediaBaseUrl: 'en.wikipedia.org/w/api.php' })).toEqual([
      'search.wikipediaBaseUrl: must be a full http(s) URL of a MediaWiki api.php, such as https://en.wikipedia.org/w/api.php',
    ]);
    expect(problems({ perSourceLimit: 0 })[0]).toMatch(/^search\.perSourceLimit: /);
    expect(problems({ engine: 'bing' })[0]).toMatch(/^search: .*"engine"/);
  });
});

describe('createSearchRetriever', () => {
  const local = createCorpusRetriever([{ id: 'country-fin', title: 'Finland', text: 'Its capital is Helsinki.' }]);

  it('tags what each source found', async () => {
    const notes = createCorpusRetriever([{ id: 'doc-1#0', title: 'trip.md', text: 'Helsinki in May.' }]);
    const search = parseConfig({ ...base, search: { sources: ['documents', 'local'] } }).search;
    const found = await createSearchRetriever(search, { local, documents: notes }).search('Helsinki');
    expect(found.map((doc) => [doc.source, doc.id])).toEqual([
      ['documents', 'doc-1#0'],
      ['local', 'country-fin'],
    ]);
  });

  it('refuses the documents where there are none (outside the browser)', () => {
    const search = parseConfig({ ...base, search: { sources: ['local', 'documents'] } }).search;
    expect(() => createSearchRetriever(search, { local })).toThrow(/names "documents".*exist only in the browser/);
  });
});

describe('describeSearchSources', () => {
  it('tells the orchestrator what the search covers', () => {
    expect(describeSearchSources(['wikipedia'])).toBe('Search English Wikipedia. Returns the best-matching documents with their text.');
    expect(describeSearchSources(['local', 'documents', 'wikipedia'])).toBe(
      "Search a local encyclopedia of countries and cities, the user's own documents and English Wikipedia. Returns the best-matching documents with their text and where each came from.",
    );
    expect(searchSourceLabel('documents')).toBe('Your documents');
    expect(searchSourceLabel('intranet')).toBe('intranet');
  });
});

describe('the retrieval source in the config', () => {
  it('needs the server’s base URL, and asks for the reference’s top-k by paper variant', async () => {
    const example = JSON.parse(readFileSync(new URL('../../cli/examples/local-scripted.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    expect(() => parseConfig({ ...example, search: { sources: ['retrieval'] } })).toThrow(/retrievalBaseUrl/);
    const frames = parseConfig({ ...example, paper: { variant: 'frames' }, search: { sources: ['retrieval'], retrievalBaseUrl: 'http://127.0.0.1:8000' } });
    expect(retrievalTopK(frames)).toBe(150);
    expect(retrievalTopK(parseConfig({ ...example, search: { sources: ['retrieval'], retrievalBaseUrl: 'http://127.0.0.1:8000' } }))).toBe(50);
    expect(retrievalTopK(parseConfig({ ...example, search: { sources: ['retrieval'], retrievalBaseUrl: 'http://127.0.0.1:8000', retrievalTopK: 7 } }))).toBe(7);
  });
});
