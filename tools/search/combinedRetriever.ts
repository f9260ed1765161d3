// One search over several sources (the local corpus, the user's documents, Wikipedia). Their
// scores mean different things, so results are merged by rank: every source's first result, then
// every source's second, and so on. Each result names its source. A source that fails while
// others answer is reported through `onSourceFailure`; when all fail, the search fails.

import { describeError } from '../../workers/engine/errors.ts';
import type { RetrievedDocument, Retriever, SourceFailure } from '../../workers/engine/ports.ts';
import { DEFAULT_SEARCH_LIMIT } from './retriever.ts';

export interface SearchSource {
  /** Tags every result, e.g. 'local', 'documents', 'wikipedia'. */
  name: string;
  retriever: Retriever;
}

export interface CombinedRetrieverOptions {
  /** At most this many results asked of each source; the search's own limit otherwise. */
  perSourceLimit?: number;
}

export function createCombinedRetriever(sources: readonly SearchSource[], options: CombinedRetrieverOptions = {}): Retriever {
  if (sources.length === 0) throw new Error('A combined search needs at least one source.');
  return {
    async search(query, searchOptions = {}) {
      const { signal } = searchOptions;
      signal?.throwIfAborted();
      const limit = searchOptions.limit ?? DEFAULT_SEARCH_LIMIT;
      const perSource = Math.min(options.perSourceLimit ?? limit, limit);
      const settled = await Promise.allSettled(
        sources.map((source) => source.retriever.search(query, { limit: perSource, ...(signal ? { signal } : {}) })),
      );
      signal?.throwIfAborted();

      const answered: Array<{ name: string; documents: RetrievedDocument[] }> = [];
      const failures: SourceFailure[] = [];
      const errors: unknown[] = [];
      settled.forEach((outcome, i) => {
        const name = sources[i]?.name ?? `source ${i + 1}`;
        if (outcome.status === 'fulfilled') answered.push({ name, documents: outcome.value.slice(0, perSource) });
        else {
          errors.push(outcome.reason);
          failures.push({ source: name, message: describeError(outcome.reason) });
        }
      });
      if (answered.length === 0) {
        // One source: its own error, unchanged. Several: each says what went wrong.
        if (errors.length === 1) throw errors[0];
        throw new Error(`Every search source failed. ${failures.map((f) => `${f.source}: ${f.message}`).join(' ')}`);
      }
      for (const failure of failures) searchOptions.onSourceFailure?.(failure);
      return mergeByRank(answered, limit);
    },
  };
}

/** Round-robin over the sources' ranked lists, each result tagged with its source, duplicates skipped. */
export function mergeByRank(
  lists: ReadonlyArray<{ name: string; documents: readonly RetrievedDocument[] }>,
  limit: number,
): RetrievedDocument[] {
  const merged: RetrievedDocument[] = [];
  const seen = new Set<string>();
  const longest = Math.max(0, ...lists.map((list) => list.documents.length));
  for (let rank = 0; rank < longest && merged.length < limit; rank++) {
    for (const list of lists) {
      const document = list.documents[rank];
      if (!document) continue;
      const key = `${list.name}\u0000${document.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push({ ...document, source: list.name });
      if (merged.length === limit) break;
    }
  }
  return merged;
}
