// Search over the user's documents, read from IndexedDB by whichever worker runs the search. The
// index is built on the first search and rebuilt only when the store's revision has moved (a
// document was added or removed, here or in another tab).

import type { DocumentStore } from './documentStore.ts';
import type { Retriever } from '../../workers/engine/ports.ts';
import { createCorpusRetriever } from './retriever.ts';

export type ChunkSource = Pick<DocumentStore, 'revision' | 'chunks'>;

export function createDocumentRetriever(openStore: () => Promise<ChunkSource>): Retriever {
  let store: Promise<ChunkSource> | null = null;
  let index: { revision: number; retriever: Promise<Retriever> } | null = null;

  const current = async (): Promise<Retriever> => {
    store ??= openStore().catch((error: unknown) => {
      store = null;
      throw error;
    });
    const opened = await store;
    const revision = await opened.revision().catch((error: unknown) => {
      // A connection the browser closed (another tab upgrading the database) is opened afresh next time.
      store = null;
      throw error;
    });
    if (index?.revision !== revision) {
      const building = opened.chunks().then(createCorpusRetriever);
      index = { revision, retriever: building };
      building.catch(() => {
        if (index?.retriever === building) index = null;
      });
    }
    return index.retriever;
  };

  return {
    async search(query, options = {}) {
      options.signal?.throwIfAborted();
      const retriever = await current();
      return retriever.search(query, options);
    },
  };
}
