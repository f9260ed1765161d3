// The page's side of the documents worker (workers/hosts/documents/documents.worker.ts). It starts when the
// Documents panel first asks, so the first screen does not load it, and pdf.js loads inside it
// only when a PDF is added. One per set of stores (usePart(createDocuments)), with its store.

import type { FromDocumentsWorker, ToDocumentsWorker } from '../../../workers/hosts/documents/documentsWorkerMessages.ts';
import type { SetupStore } from '../../state/setupStore.ts';
import { createDocumentsStore, type DocumentsStore } from './documentsStore.ts';
import { draftSearchSources, withSearchSource } from './searchSourcesDraft.ts';

export class DocumentsClient {
  readonly store: DocumentsStore = createDocumentsStore();
  private worker: Worker | null = null;

  constructor(private readonly setup: SetupStore) {}

  private connect(): Worker {
    if (this.worker) return this.worker;
    const created = new Worker(new URL('../../../workers/hosts/documents/documents.worker.ts', import.meta.url), {
      type: 'module',
      name: 'documents',
    });
    const { actions } = this.store;
    created.onmessage = (message: MessageEvent<FromDocumentsWorker>) => {
      const data = message.data;
      if (data.type === 'state') {
        const before = this.store.getState();
        actions.listed(data.documents, data.indexing);
        if (before.loaded && before.documents.length === 0 && data.documents.length > 0) this.searchYourDocuments();
      } else if (data.type === 'problem') actions.problem(data.message, data.fileName);
    };
    created.onerror = (event) => {
      event.preventDefault();
      actions.problem(`The documents worker failed: ${event.message || 'it could not start'}.`);
      // What it was reading is not being read any more.
      actions.listed(this.store.getState().documents, []);
      created.terminate();
      this.worker = null;
    };
    this.worker = created;
    return created;
  }

  /** The first document was just added: a document nobody searches is a surprise, so the search
   * uses them from now on (the person can untick it). */
  private searchYourDocuments(): void {
    const { draft } = this.setup.getState();
    if (draftSearchSources(draft).includes('documents')) return;
    this.setup.actions.setDraft(withSearchSource(draft, 'documents', true));
    this.store.actions.setNowSearched(true);
  }

  private send(message: ToDocumentsWorker): void {
    this.connect().postMessage(message);
  }

  list(): void {
    this.send({ type: 'list' });
  }

  add(files: readonly File[]): void {
    if (files.length === 0) return;
    this.store.actions.clearProblems();
    this.send({ type: 'add', files: [...files] });
  }

  remove(id: string): void {
    this.send({ type: 'remove', id });
  }
}

/** The documents of a set of stores (made once, by usePart). */
export function createDocuments(stores: { setup: SetupStore }): DocumentsClient {
  return new DocumentsClient(stores.setup);
}
