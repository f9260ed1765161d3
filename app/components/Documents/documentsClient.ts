// The page's side of the documents worker (workers/hosts/documents/documents.worker.ts). It starts when the
// Documents panel first asks, so the first screen does not load it, and pdf.js loads inside it
// only when a PDF is added.

import type { FromDocumentsWorker, ToDocumentsWorker } from '../../../workers/hosts/documents/documentsWorkerMessages.ts';
import { setupActions, useSetupStore } from '../../state/setupStore.ts';
import { documentsStoreActions, useDocumentsStore } from './documentsStore.ts';
import { draftSearchSources, withSearchSource } from './searchSourcesDraft.ts';

let worker: Worker | null = null;

function connect(): Worker {
  if (worker) return worker;
  const created = new Worker(new URL('../../../workers/hosts/documents/documents.worker.ts', import.meta.url), {
    type: 'module',
    name: 'documents',
  });
  created.onmessage = (message: MessageEvent<FromDocumentsWorker>) => {
    const data = message.data;
    if (data.type === 'state') {
      const before = useDocumentsStore.getState();
      documentsStoreActions.listed(data.documents, data.indexing);
      if (before.loaded && before.documents.length === 0 && data.documents.length > 0) searchYourDocuments();
    }
    else if (data.type === 'problem') documentsStoreActions.problem(data.message, data.fileName);
  };
  created.onerror = (event) => {
    event.preventDefault();
    documentsStoreActions.problem(`The documents worker failed: ${event.message || 'it could not start'}.`);
    // What it was reading is not being read any more.
    documentsStoreActions.listed(useDocumentsStore.getState().documents, []);
    created.terminate();
    worker = null;
  };
  worker = created;
  return created;
}

/** The first document was just added: a document nobody searches is a surprise, so the search
 * uses them from now on (the person can untick it). */
function searchYourDocuments(): void {
  const { draft } = useSetupStore.getState();
  if (draftSearchSources(draft).includes('documents')) return;
  setupActions.setDraft(withSearchSource(draft, 'documents', true));
  documentsStoreActions.setNowSearched(true);
}

function send(message: ToDocumentsWorker): void {
  connect().postMessage(message);
}

export const documentsClient = {
  list(): void {
    send({ type: 'list' });
  },
  add(files: readonly File[]): void {
    if (files.length === 0) return;
    documentsStoreActions.clearProblems();
    send({ type: 'add', files: [...files] });
  },
  remove(id: string): void {
    send({ type: 'remove', id });
  },
};
