// The config's search sources, read from and written to the setup draft.

import { SEARCH_SOURCES, type SearchSourceName } from '../../../workers/engine/configBasics.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';

const DEFAULT_SOURCES: readonly SearchSourceName[] = ['local'];

export function draftSearchSources(draft: ConfigDraft): readonly SearchSourceName[] {
  return draft.search?.sources ?? DEFAULT_SOURCES;
}

/** The draft with `source` searched or not, the sources kept in their usual order. */
export function withSearchSource(draft: ConfigDraft, source: SearchSourceName, searched: boolean): ConfigDraft {
  const current = new Set(draftSearchSources(draft));
  if (searched) current.add(source);
  else current.delete(source);
  const sources = SEARCH_SOURCES.filter((name) => current.has(name));
  return { ...draft, search: { ...draft.search, sources } };
}
