// The retriever a config's `search` section asks for: the local corpus, the user's documents and
// Wikipedia, alone or merged by rank, each result naming its source.

import type { OrchestraConfig, SearchSourceName } from '../../workers/engine/config.ts';
import { createCombinedRetriever } from './combinedRetriever.ts';
import type { Retriever } from '../../workers/engine/ports.ts';
import { createWikipediaRetriever } from './wikipedia.ts';
import { createRetrievalRetriever, RETRIEVAL_TOP_K } from './retrieval.ts';

export interface AvailableRetrievers {
  /** The local corpus. */
  local: Retriever;
  /** The documents added in the playground (IndexedDB); absent outside the browser. */
  documents?: Retriever;
  fetch?: typeof fetch;
  /** A `retrieval` search's `eid`: the suite task's id. */
  taskId?: string;
  /** Documents a `retrieval` search asks for (retrievalTopK()). */
  retrievalTopK?: number;
}

export const SEARCH_SOURCE_LABELS: Record<SearchSourceName, string> = {
  local: 'Local corpus',
  documents: 'Your documents',
  wikipedia: 'Wikipedia',
  retrieval: 'Retrieval server',
};

const WHAT_EACH_HOLDS: Record<SearchSourceName, string> = {
  local: 'a local encyclopedia of countries and cities',
  documents: "the user's own documents",
  wikipedia: 'English Wikipedia',
  retrieval: 'a dense Wikipedia retriever',
};

/** The documents a `retrieval` search asks for: the configured number, else the reference's for
 * the paper variant (150 in FRAMES, 50 in HLE). */
export function retrievalTopK(config: Pick<OrchestraConfig, 'search' | 'paper'>): number {
  return config.search.retrievalTopK ?? RETRIEVAL_TOP_K[config.paper.variant];
}

export function createSearchRetriever(search: OrchestraConfig['search'], available: AvailableRetrievers): Retriever {
  const sources = search.sources.map((name) => ({ name, retriever: sourceRetriever(name, search, available) }));
  return createCombinedRetriever(sources, search.perSourceLimit === undefined ? {} : { perSourceLimit: search.perSourceLimit });
}

function sourceRetriever(name: SearchSourceName, search: OrchestraConfig['search'], available: AvailableRetrievers): Retriever {
  switch (name) {
    case 'local':
      return available.local;
    case 'documents':
      if (!available.documents) {
        throw new Error(
          'search.sources names "documents", the documents added in the playground, and they exist only in the browser: remove it from the config here.',
        );
      }
      return available.documents;
    case 'wikipedia':
      return createWikipediaRetriever({
        baseUrl: search.wikipediaBaseUrl,
        timeoutMs: search.wikipediaTimeoutSeconds * 1000,
        ...(available.fetch ? { fetch: available.fetch } : {}),
      });
    case 'retrieval':
      if (search.retrievalBaseUrl === undefined) throw new Error('search.sources names "retrieval": set search.retrievalBaseUrl to the retrieval server\'s base URL.');
      return createRetrievalRetriever({
        baseUrl: search.retrievalBaseUrl,
        topK: available.retrievalTopK ?? search.retrievalTopK ?? RETRIEVAL_TOP_K.hle,
        timeoutMs: search.retrievalTimeoutSeconds * 1000,
        ...(available.taskId === undefined ? {} : { eid: available.taskId }),
        ...(available.fetch ? { fetch: available.fetch } : {}),
      });
  }
}

/** What the search tool searches, in the words the orchestrator reads. */
export function describeSearchSources(sources: readonly SearchSourceName[]): string {
  const held = sources.map((name) => WHAT_EACH_HOLDS[name]);
  const list = held.length <= 1 ? (held[0] ?? '') : `${held.slice(0, -1).join(', ')} and ${held.at(-1)}`;
  return `Search ${list}. Returns the best-matching documents with their text${sources.length > 1 ? ' and where each came from' : ''}.`;
}

/** A source's label for people, or the name itself for one this version does not know. */
export function searchSourceLabel(source: string): string {
  return source in SEARCH_SOURCE_LABELS ? SEARCH_SOURCE_LABELS[source as SearchSourceName] : source;
}
