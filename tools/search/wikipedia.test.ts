import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startWikipediaServer, type WikipediaServer } from '../../e2e/fixtures/wikipediaServer.ts';
import { createWikipediaRetriever } from './wikipedia.ts';

const PAGES = [
  { pageid: 11, title: 'Zorblax', text: 'The zorblax is a bird of northern lakes.\n\n== Migration ==\nIt migrates to Lake Vattern every April.' },
  { pageid: 12, title: 'Lake Vattern', text: 'Lake Vattern is a lake in Sweden. Zorblax flocks rest there.' },
  { pageid: 13, title: 'Helsinki', text: 'Helsinki is the capital of Finland.' },
];

let server: WikipediaServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(): Promise<WikipediaServer> {
  server = await startWikipediaServer({ pages: PAGES });
  return server;
}

describe('createWikipediaRetriever against a Wikipedia-like server', () => {
  it('searches, then reads each top page as plain text', async () => {
    const wiki = await start();
    const found = await createWikipediaRetriever({ baseUrl: wiki.url }).search('zorblax migration', { limit: 2 });
    expect(found.map((doc) => [doc.id, doc.title])).toEqual([
      ['wikipedia-11', 'Zorblax'],
      ['wikipedia-12', 'Lake Vattern'],
    ]);
    expect(found[0]?.text).toContain('It migrates to Lake Vattern every April.');
    expect(found[0]?.score).toBeNaN();

    const [search, ...extracts] = wiki.requests;
    expect(search).toMatchObject({
      call: 'search',
      params: { action: 'query', list: 'search', srsearch: 'zorblax migration', srlimit: '2', format: 'json', formatversion: '2', origin: '*' },
    });
    expect(extracts.map((request) => request.params.pageids).sort()).toEqual(['11', '12']);
    for (const request of extracts) {
      expect(request).toMatchObject({ call: 'extracts', params: { prop: 'extracts', explaintext: '1', origin: '*' } });
    }
  });

  it('finds nothing without asking for page text', async () => {
    const wiki = await start();
    expect(await createWikipediaRetriever({ baseUrl: wiki.url }).search('quasar')).toEqual([]);
    expect(wiki.requests.map((request) => request.call)).toEqual(['search']);
  });

  it('cuts a long page at a word and marks the cut', async () => {
    server = await startWikipediaServer({ pages: [{ pageid: 1, title: 'Long', text: 'word '.repeat(1000) }] });
    const [doc] = await createWikipediaRetriever({ baseUrl: server.url, maxPageChars: 100 }).search('word');
    expect(doc?.text.length).toBeLessThanOrEqual(101);
    expect(doc?.text.endsWith('word…')).toBe(true);
  });

  it('reads no more than 4 MiB of one answer, and cuts an overlong title', async () => {
    server = await startWikipediaServer({
      pages: [
        { pageid: 1, title: `Flood ${'t'.repeat(5000)}`, text: 'flood '.repeat(5_000_000) },
        { pageid: 2, title: `Title ${'t'.repeat(5000)}`, text: 'A short page about a flood.' },
      ],
    });
    const retriever = createWikipediaRetriever({ baseUrl: server.url });
    await expect(retriever.search('flood', { limit: 1 })).rejects.toThrow(
      /Wikipedia \(127\.0\.0\.1:\d+\) sent more than 4 MiB for the page text request, more than any article: it was not read further\./,
    );
    const [doc] = await retriever.search('short page', { limit: 1 });
    expect(doc?.title.length).toBeLessThanOrEqual(301);
    expect(doc?.title.endsWith('…')).toBe(true);
  });

  it('says plainly when the server fails, for the search and for the page text', async () => {
    const wiki = await start();
    const retriever = createWikipediaRetriever({ baseUrl: wiki.url });
    wiki.setFault({ kind: 'status', status: 500 }, 'search');
    await expect(retriever.search('zorblax')).rejects.toThrow(/^Wikipedia \(127\.0\.0\.1:\d+\) answered the search with HTTP 500 Internal Server Error\. Try again later\.$/);
    wiki.setFault(null);
    wiki.setFault({ kind: 'status', status: 503 }, 'extracts');
    await expect(retriever.search('zorblax')).rejects.toThrow(/answered the page text request with HTTP 503/);
  });

  it("passes on the API's own refusal", async () => {
    const wiki = await start();
    await expect(createWikipediaRetriever({ baseUrl: wiki.url }).search('')).rejects.toThrow(
      /refused the search: The "srsearch" parameter must be set\./,
    );
  });

  it('gives up on a server that does not answer, within the time limit', async () => {
    const wiki = await start();
    wiki.setFault({ kind: 'hang' });
    const started = Date.now();
    await expect(createWikipediaRetriever({ baseUrl: wiki.url, timeoutMs: 300 }).search('zorblax')).rejects.toThrow(
      /did not answer the search within 0\.3 s/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops at once when the search is cancelled, as a cancellation', async () => {
    const wiki = await start();
    wiki.setFault({ kind: 'hang' });
    const controller = new AbortController();
    const search = createWikipediaRetriever({ baseUrl: wiki.url }).search('zorblax', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(search).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('says when it cannot reach the server, and when the host is offline (without calling)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(createWikipediaRetriever({ baseUrl: `http://127.0.0.1:${port}/w/api.php` }).search('x')).rejects.toThrow(
      /could not be reached for the search: the network failed, or the server does not allow requests from this page \(CORS\)/,
    );

    const wiki = await start();
    await expect(createWikipediaRetriever({ baseUrl: wiki.url, isOnline: () => false }).search('x')).rejects.toThrow(
      'Wikipedia cannot be searched: this browser is offline.',
    );
    expect(wiki.requests).toEqual([]);
  });

  it('says when the address answers something other than the API', async () => {
    const html = createServer((_request, response) => response.end('<html>not the api</html>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const { port } = html.address() as AddressInfo;
    try {
      await expect(createWikipediaRetriever({ baseUrl: `http://127.0.0.1:${port}/wiki` }).search('x')).rejects.toThrow(
        /answered the search with something that is not JSON: is http:\/\/127\.0\.0\.1:\d+\/wiki the API endpoint/,
      );
    } finally {
      await new Promise<void>((resolve) => html.close(() => resolve()));
    }
  });
});
