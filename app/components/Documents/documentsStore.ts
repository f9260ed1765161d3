// What the Documents panel shows: the documents stored in this browser, the files being read,
// and the problems to tell the user. The documents worker is the source of truth; this mirrors
// its last word.

import { create } from 'zustand';
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

export const useDocumentsStore = create<DocumentsState>()(() => ({
  loaded: false,
  documents: [],
  indexing: [],
  problems: [],
  nowSearched: false,
}));

let nextProblemId = 1;

export const documentsStoreActions = {
  listed(documents: StoredDocument[], indexing: string[]): void {
    useDocumentsStore.setState({ loaded: true, documents, indexing });
  },
  problem(message: string, fileName?: string): void {
    const problem: DocumentProblemView = { id: nextProblemId++, message, ...(fileName === undefined ? {} : { fileName }) };
    useDocumentsStore.setState((state) => ({ problems: [...state.problems, problem] }));
  },
  dismissProblem(id: number): void {
    useDocumentsStore.setState((state) => ({ problems: state.problems.filter((problem) => problem.id !== id) }));
  },
  clearProblems(): void {
    useDocumentsStore.setState({ problems: [] });
  },
  setNowSearched(nowSearched: boolean): void {
    useDocumentsStore.setState({ nowSearched });
  },
};
