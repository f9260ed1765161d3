// The page's side of the documents worker (tools/search/documents.worker.ts). It starts when the
// Documents panel first asks, so the first screen does not load it, and pdf.js loads inside it
// only when a PDF is added.

import type { FromDocumentsWorker, ToDocumentsWorker } from '../../../tools/search/documentsProtocol.ts';
import { documentsStoreActions, useDocumentsStore } from './documentsStore.ts';

let worker: Worker | null = null;

function connect(): Worker {
  if (worker) return worker;
  const created = new Worker(new URL('../../../tools/search/documents.worker.ts', import.meta.url), {
    type: 'module',
    name: 'documents',
  });
  created.onmessage = (message: MessageEvent<FromDocumentsWorker>) => {
    const data = message.data;
    if (data.type === 'state') documentsStoreActions.listed(data.documents, data.indexing);
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
