import { SEARCH_SOURCES, type SearchSourceName } from '../../../workers/engine/configBasics.ts';
import { SEARCH_SOURCE_LABELS } from '../../../tools/search/searchSources.ts';
import { createDocuments } from './documentsClient.ts';
import { draftSearchSources, withSearchSource } from './searchSourcesDraft.ts';
import { useAppStores, usePart, useSelected, useSetupActions, useSetupStore } from '../../state/context.tsx';

const HINTS: Record<SearchSourceName, string> = {
  local: 'countries and cities, built into the app',
  documents: 'the files listed above',
  wikipedia: 'its public API, when online',
  retrieval: 'the reference’s dense retriever, at the configuration’s search.retrievalBaseUrl',
};

/** Which sources the run's search tool looks in: the config's `search.sources`. */
export function SearchSources() {
  const setupActions = useSetupActions();
  const stores = useAppStores();
  const sources = useSetupStore((state) => draftSearchSources(state.draft));
  const documents = usePart(createDocuments).store;
  const nowSearched = useSelected(documents, (state) => state.nowSearched);
  const toggle = (source: SearchSourceName, searched: boolean) => {
    documents.actions.setNowSearched(false);
    setupActions.setDraft(withSearchSource(stores.setup.getState().draft, source, searched));
  };
  return (
    <fieldset className="search-sources">
      <legend>Search uses</legend>
      {SEARCH_SOURCES.map((source) => {
        const checked = sources.includes(source);
        return (
          <label key={source}>
            <input
              type="checkbox"
              checked={checked}
              // The search needs at least one source.
              disabled={checked && sources.length === 1}
              onChange={(event) => toggle(source, event.target.checked)}
            />{' '}
            {SEARCH_SOURCE_LABELS[source]} <span className="muted">({HINTS[source]})</span>
          </label>
        );
      })}
      {nowSearched && sources.includes('documents') ? (
        <p className="search-sources-note" role="status">
          Your documents are searched from now on: “Your documents” is ticked above. Untick it to leave them out.
        </p>
      ) : null}
    </fieldset>
  );
}
