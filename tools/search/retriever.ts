import MiniSearch from 'minisearch';
import type { Retriever } from '../../workers/engine/ports.ts';
import type { CorpusDocument } from './corpus.ts';

export const DEFAULT_SEARCH_LIMIT = 10;

// Question words carry no signal; "capital", "population" and the like stay searchable.
const STOP_WORDS = new Set(
  'a an and are as at by do does for from has have how in is it its of on or that the this to was what when where which who whose with'.split(
    ' ',
  ),
);

/** Lower case without accents, so "Brasilia" finds "Brasília"; stop words dropped. */
function processTerm(term: string): string | null {
  const normalised = term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return normalised.length === 0 || STOP_WORDS.has(normalised) ? null : normalised;
}

/** What a full-text index holds of a document. */
export type SearchableDocument = Pick<CorpusDocument, 'id' | 'title' | 'text'>;

/** Full-text search over documents with MiniSearch (BM25), the title weighted most. */
export function createCorpusRetriever(docs: readonly SearchableDocument[]): Retriever {
  const index = new MiniSearch<SearchableDocument>({
    fields: ['title', 'text'],
    storeFields: ['title', 'text'],
    processTerm,
    searchOptions: {
      boost: { title: 3 },
      // Prefix and fuzzy matching only for longer terms: on short ones they match far too much.
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      combineWith: 'OR',
    },
  });
  index.addAll(docs);

  return {
    async search(query, options = {}) {
      options.signal?.throwIfAborted();
      const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
      return index.search(query).slice(0, limit).map((hit) => ({
        id: String(hit.id),
        title: String(hit.title),
        text: String(hit.text),
        score: hit.score,
      }));
    },
  };
}
