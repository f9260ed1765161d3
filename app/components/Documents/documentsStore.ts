// What the Documents panel shows: the documents stored in this browser, the files being read,
// and the problems to tell the user. The documents worker is the source of truth; this mirrors
// its last word.

import type { StoreApi } from 'zustand/vanilla';
import { makeStore, plainStore, type Bound } from '../../state/storeKit.ts';
import type { StoredDocument } from '../../../tools/search/documentStore.ts';

export interface DocumentProblemView {
  id: number;
  /** Absent when the store itself failed, not one file. */
  fileName?: string;
  message: string;
}

export interface DocumentsState {
  /** False until the worker has listed what is stored. */
  loaded: boolean;
  documents: StoredDocument[];
  indexing: string[];
  problems: DocumentProblemView[];
  /** Said once the first document was added and the search began to use them. */
  nowSearched: boolean;
}

const initialDocumentsState: DocumentsState = {
  loaded: false,
  documents: [],
  indexing: [],
  problems: [],
  nowSearched: false,
};

/** The store counts the problems it has shown, to give each an id. */
type Store = StoreApi<DocumentsState> & { problemIds: number };

const documentsStoreActions = {
  listed(store: Store, documents: StoredDocument[], indexing: string[]): void {
    store.setState({ loaded: true, documents, indexing });
  },
  problem(store: Store, message: string, fileName?: string): void {
    const problem: DocumentProblemView = { id: ++store.problemIds, message, ...(fileName === undefined ? {} : { fileName }) };
    store.setState((state) => ({ problems: [...state.problems, problem] }));
  },
  dismissProblem(store: Store, id: number): void {
    store.setState((state) => ({ problems: state.problems.filter((problem) => problem.id !== id) }));
  },
  clearProblems(store: Store): void {
    store.setState({ problems: [] });
  },
  setNowSearched(store: Store, nowSearched: boolean): void {
    store.setState({ nowSearched });
  },
};

export type DocumentsStore = Store & { actions: Bound<typeof documentsStoreActions> };

export function createDocumentsStore(): DocumentsStore {
  return makeStore(plainStore(initialDocumentsState), { problemIds: 0 }, documentsStoreActions);
}
