import { describe, expect, it } from 'vitest';
import type { StoredDocument } from '../../../tools/search/documentStore.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';
import { describeIndexed, formatFileSize } from './documentFigures.ts';
import { draftSearchSources, withSearchSource } from './searchSourcesDraft.ts';

const doc = (chunkCount: number): StoredDocument => ({
  id: `doc-${chunkCount}`,
  name: 'a.md',
  kind: 'markdown',
  sizeBytes: 10,
  characters: 10,
  chunkCount,
  addedAt: 0,
});

describe('the Documents panel figures', () => {
  it('says file sizes and what is indexed', () => {
    expect([formatFileSize(812), formatFileSize(14_200), formatFileSize(2_345_678)]).toEqual(['812 B', '14 kB', '2.3 MB']);
    expect(describeIndexed([])).toBe('No documents indexed yet.');
    expect(describeIndexed([doc(1)])).toBe('1 document · 1 passage indexed');
    expect(describeIndexed([doc(3), doc(1200)])).toBe('2 documents · 1,203 passages indexed');
  });
});

describe('search sources in the draft', () => {
  const draft = { providers: {}, orchestrator: { provider: 'p', model: 'm' }, experts: 'paper' } as ConfigDraft;

  it('reads the default, and turns sources on and off in their usual order, keeping other search settings', () => {
    expect(draftSearchSources(draft)).toEqual(['local']);
    const withWiki = withSearchSource({ ...draft, search: { perSourceLimit: 2 } }, 'wikipedia', true);
    const withBoth = withSearchSource(withWiki, 'documents', true);
    expect(withBoth.search).toEqual({ perSourceLimit: 2, sources: ['local', 'documents', 'wikipedia'] });
    expect(withSearchSource(withBoth, 'local', false).search?.sources).toEqual(['documents', 'wikipedia']);
  });
});
