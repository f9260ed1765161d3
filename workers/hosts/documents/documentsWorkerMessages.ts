// Messages between the page and the documents worker (documents.worker.ts), which reads, cuts
// and stores the user's documents off the page's thread.

import type { StoredDocument } from '../../../tools/search/documentStore.ts';

/** What the page asks of the documents worker; each change is answered by `state` (below). */
export type DocumentsRequests = {
  list: { body: Record<string, never>; reply: void };
  /** Files are indexed one after another, in order. */
  add: { body: { files: File[] }; reply: void };
  remove: { body: { id: string }; reply: void };
};

/** What the documents worker says unasked. */
export type FromDocumentsWorker =
  /** What is stored, after every change, and the names of the files still being read. */
  | { type: 'state'; documents: StoredDocument[]; indexing: string[] }
  /** A file could not be added (`fileName`), or the store could not be used (no `fileName`). */
  | { type: 'problem'; fileName?: string; message: string };
