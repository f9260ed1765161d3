// The page's side of the documents worker (workers/hosts/documents/documents.worker.ts). It starts when the
// Documents panel first asks, so the first screen does not load it, and pdf.js loads inside it
// only when a PDF is added. One per set of stores (usePart(createDocuments)), with its store.

import type { DocumentsRequests, FromDocumentsWorker } from '../../../workers/hosts/documents/documentsWorkerMessages.ts';
import { createRequestClient, lossMessage, type RequestClient } from '../../worker/requestClient.ts';
import type { SetupStore } from '../../state/setupStore.ts';
import { createDocumentsStore, type DocumentsStore } from './documentsStore.ts';
import { draftSearchSources, withSearchSource } from './searchSourcesDraft.ts';

export class DocumentsClient {
  readonly store: DocumentsStore = createDocumentsStore();
  private readonly worker: RequestClient<DocumentsRequests>;

  constructor(private readonly setup: SetupStore) {
    const { actions } = this.store;
    this.worker = createRequestClient<DocumentsRequests, FromDocumentsWorker>({
      create: () => new Worker(new URL('../../../workers/hosts/documents/documents.worker.ts', import.meta.url), { type: 'module', name: 'documents' }),
      onPush: (data) => {
        if (data.type === 'state') {
          const before = this.store.getState();
          actions.listed(data.documents, data.indexing);
          if (before.loaded && before.documents.length === 0 && data.documents.length > 0) this.searchYourDocuments();
        } else if (data.type === 'problem') actions.problem(data.message, data.fileName);
      },
      onLost: (loss) => {
        actions.problem(`The documents worker failed: ${lossMessage(loss, 'it could not start', 'what it sent could not be read')}.`);
        // What it was reading is not being read any more.
        actions.listed(this.store.getState().documents, []);
      },
    });
  }

  /** The first document was just added: a document nobody searches is a surprise, so the search
   * uses them from now on (the person can untick it). */
  private searchYourDocuments(): void {
    const { draft } = this.setup.getState();
    if (draftSearchSources(draft).includes('documents')) return;
    this.setup.actions.setDraft(withSearchSource(draft, 'documents', true));
    this.store.actions.setNowSearched(true);
  }

  list(): void {
    this.worker.tell('list', {});
  }

  add(files: readonly File[]): void {
    if (files.length === 0) return;
    this.store.actions.clearProblems();
    this.worker.tell('add', { files: [...files] });
  }

  remove(id: string): void {
    this.worker.tell('remove', { id });
  }
}

/** The documents of a set of stores (made once, by usePart). */
export function createDocuments(stores: { setup: SetupStore }): DocumentsClient {
  return new DocumentsClient(stores.setup);
}
