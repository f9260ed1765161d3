import { describe, expect, it } from 'vitest';
import { createCombinedRetriever } from './combinedRetriever.ts';
import type { RetrievedDocument, Retriever, SourceFailure } from '../../workers/engine/ports.ts';
import { createCorpusRetriever } from './retriever.ts';

/** A retriever over fixed documents that records the limits it was asked for. */
function listRetriever(prefix: string, count: number, asked: number[] = []): Retriever {
  const documents: RetrievedDocument[] = Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i + 1}`,
    title: `${prefix} ${i + 1}`,
    text: `text ${i + 1}`,
    score: count - i,
  }));
  return {
    async search(_query, options = {}) {
      asked.push(options.limit ?? -1);
      return documents.slice(0, options.limit);
    },
  };
}

const failing = (message: string): Retriever => ({
  search: async () => {
    throw new Error(message);
  },
});

describe('createCombinedRetriever', () => {
  it('interleaves the sources by rank, tags each result with its source, and stops at the limit', async () => {
    const retriever = createCombinedRetriever([
      { name: 'local', retriever: listRetriever('l', 3) },
      { name: 'documents', retriever: listRetriever('d', 1) },
      { name: 'wikipedia', retriever: listRetriever('w', 3) },
    ]);
    const found = await retriever.search('q', { limit: 6 });
    expect(found.map((doc) => `${doc.source}:${doc.id}`)).toEqual([
      'local:l-1',
      'documents:d-1',
      'wikipedia:w-1',
      'local:l-2',
      'wikipedia:w-2',
      'local:l-3',
    ]);
    expect(found[0]).toMatchObject({ title: 'l 1', text: 'text 1', score: 3 });
  });

  it('asks each source for at most perSourceLimit results, and never more than the limit', async () => {
    const asked: number[] = [];
    const retriever = createCombinedRetriever(
      [
        { name: 'a', retriever: listRetriever('a', 10, asked) },
        { name: 'b', retriever: listRetriever('b', 10, asked) },
      ],
      { perSourceLimit: 2 },
    );
    const found = await retriever.search('q', { limit: 10 });
    expect(asked).toEqual([2, 2]);
    expect(found.map((doc) => doc.id)).toEqual(['a-1', 'b-1', 'a-2', 'b-2']);
    asked.length = 0;
    expect(await retriever.search('q', { limit: 1 })).toHaveLength(1);
    expect(asked).toEqual([1, 1]);
  });

  it('skips a document a source returns twice', async () => {
    const twice: Retriever = { search: async () => [{ id: 'x', title: 'X', text: '', score: 1 }, { id: 'x', title: 'X', text: '', score: 1 }] };
    const found = await createCombinedRetriever([{ name: 'a', retriever: twice }]).search('q');
    expect(found.map((doc) => doc.id)).toEqual(['x']);
  });

  it('reports a failing source and still returns what the others found', async () => {
    const failures: SourceFailure[] = [];
    const retriever = createCombinedRetriever([
      { name: 'wikipedia', retriever: failing('Wikipedia cannot be searched: this browser is offline.') },
      { name: 'local', retriever: listRetriever('l', 2) },
    ]);
    const found = await retriever.search('q', { limit: 5, onSourceFailure: (failure) => failures.push(failure) });
    expect(found.map((doc) => doc.id)).toEqual(['l-1', 'l-2']);
    expect(failures).toEqual([{ source: 'wikipedia', message: 'Wikipedia cannot be searched: this browser is offline.' }]);
  });

  it("fails with the source's own error when its only source fails, and with every message when all fail", async () => {
    const only = createCombinedRetriever([{ name: 'wikipedia', retriever: failing('Wikipedia answered HTTP 500.') }]);
    await expect(only.search('q')).rejects.toThrow(/^Wikipedia answered HTTP 500\.$/);
    const all = createCombinedRetriever([
      { name: 'documents', retriever: failing('storage broke') },
      { name: 'wikipedia', retriever: failing('offline') },
    ]);
    await expect(all.search('q')).rejects.toThrow('Every search source failed. documents: storage broke wikipedia: offline');
  });

  it('stops on an abort instead of reporting sources as failed', async () => {
    const controller = new AbortController();
    const slow: Retriever = {
      search: (_query, options) =>
        new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(options.signal?.reason))),
    };
    const failures: SourceFailure[] = [];
    const search = createCombinedRetriever([
      { name: 'slow', retriever: slow },
      { name: 'local', retriever: listRetriever('l', 1) },
    ]).search('q', { signal: controller.signal, onSourceFailure: (f) => failures.push(f) });
    controller.abort();
    await expect(search).rejects.toMatchObject({ name: 'AbortError' });
    expect(failures).toEqual([]);
  });

  it('merges real corpus retrievers', async () => {
    const cities = createCorpusRetriever([{ id: 'city-1', title: 'Oslo, Norway', text: 'Oslo is the capital of Norway.' }]);
    const notes = createCorpusRetriever([{ id: 'doc-a#0', title: 'notes.md', text: 'Oslo has a famous opera house.' }]);
    const found = await createCombinedRetriever([
      { name: 'local', retriever: cities },
      { name: 'documents', retriever: notes },
    ]).search('Oslo opera');
    expect(found.map((doc) => [doc.source, doc.id])).toEqual([
      ['local', 'city-1'],
      ['documents', 'doc-a#0'],
    ]);
  });
});
