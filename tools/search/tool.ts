// The `search_corpus` tool: the model searches what the config's `search` section names (the local
// corpus, the user's documents, Wikipedia) and reads the best documents, each naming its source.

import type { ToolKind } from '../../workers/engine/toolKind.ts';
import type { Retriever, SourceFailure } from '../../workers/engine/ports.ts';
import type { Tool } from '../../workers/engine/types.ts';
import { searchSourceLabel } from './searchSources.ts';

const LOCAL_SEARCH_DESCRIPTION =
  'Search the local encyclopedia of countries and cities. Returns the best-matching documents with their text.';

/** `description` says what the retriever searches (see describeSearchSources); the local corpus otherwise. */
export function createSearchCorpusTool(retriever: Retriever, options: { limit: number; description?: string }): Tool {
  return {
    name: 'search_corpus',
    description: options.description ?? LOCAL_SEARCH_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'A few key words or a short question.' } },
      required: ['query'],
    },
    async run(args, { signal }) {
      const query = String(args.query);
      const problems: SourceFailure[] = [];
      const documents = await retriever.search(query, {
        limit: options.limit,
        signal,
        onSourceFailure: (failure) => problems.push(failure),
      });
      const found =
        documents.length === 0
          ? `No documents match "${query}".`
          : documents
              .map((doc, i) => `Doc ${i + 1} (${doc.title}${doc.source ? `, from ${searchSourceLabel(doc.source)}` : ''}): ${doc.text}`)
              .join('\n\n');
      const notSearched = problems.map((p) => `${searchSourceLabel(p.source)} was not searched: ${p.message}`);
      const content = [found, ...notSearched].join('\n\n');
      return { content, detail: { query, documents, ...(problems.length > 0 ? { problems } : {}) }, costUsd: 0 };
    },
  };
}

export const searchCorpusTool: ToolKind<'retriever'> = {
  name: 'search_corpus',
  runsIn: 'both',
  needs: ['retriever'],
  create: ({ retriever, searchLimit, searchDescription }) =>
    createSearchCorpusTool(retriever, { limit: searchLimit, ...(searchDescription === undefined ? {} : { description: searchDescription }) }),
};
