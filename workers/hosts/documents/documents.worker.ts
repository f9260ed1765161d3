/// <reference lib="webworker" />
// The documents worker: reads the files the user adds (PDFs through pdf.js, whose own worker is
// started from here and served by the app), cuts them into passages and stores them in IndexedDB,
// where the orchestrator worker's search reads them. pdf.js is loaded on the first PDF only.

import { indexDocument } from '../../../tools/search/documentIndexer.ts';
import { type DocumentStore } from '../../../tools/search/documentStore.ts';
import { openDocumentStore } from './documentsDb.ts';
import type { DocumentsRequests, FromDocumentsWorker } from './documentsWorkerMessages.ts';
import { serveRequests } from '../requests.ts';
import { DocumentProblem } from '../../../tools/search/documentText.ts';
import { readPdfPages, type PdfjsModule } from '../../../tools/search/pdfText.ts';

declare const self: DedicatedWorkerGlobalScope;

function post(message: FromDocumentsWorker): void {
  self.postMessage(message);
}

let store: Promise<DocumentStore> | null = null;
function openStore(): Promise<DocumentStore> {
  store ??= openDocumentStore().catch((error: unknown) => {
    store = null;
    throw error;
  });
  return store;
}

let pdfjs: Promise<PdfjsModule> | null = null;
let pdfWorker: Worker | null = null;

/** Forgets pdf.js's worker (it failed or hangs); the next PDF starts a fresh one. */
function resetPdfjs(): void {
  pdfWorker?.terminate();
  pdfWorker = null;
  pdfjs = null;
}

function loadPdfjs(): Promise<PdfjsModule> {
  pdfjs ??= Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.min.mjs?url')])
    .then(([module, workerUrl]) => {
      // pdf.js would start its worker from `window.location`, which a worker lacks, and fall back
      // to parsing here; handed a worker it parses there, and this one only gathers the text.
      pdfWorker = new Worker(workerUrl.default, { type: 'module', name: 'pdf.js' });
      pdfWorker.onerror = (event) => {
        event.preventDefault();
        resetPdfjs();
      };
      module.GlobalWorkerOptions.workerPort = pdfWorker;
      return module;
    })
    .catch((error: unknown) => {
      pdfjs = null;
      throw new Error(`The PDF reader (pdf.js) could not be loaded: ${(error as Error).message}`);
    });
  return pdfjs;
}

/** A PDF that pdf.js cannot finish (its worker died, or the file makes it hang) must not hold up
 * every document queued after it. */
const PDF_TIMEOUT_MS = 60_000;

async function readPdfWithTimeout(data: Uint8Array): Promise<string[]> {
  const module = await loadPdfjs();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resetPdfjs();
      reject(new DocumentProblem(`Reading this PDF took longer than ${PDF_TIMEOUT_MS / 1000} s, so it was skipped.`));
    }, PDF_TIMEOUT_MS);
  });
  try {
    return await Promise.race([readPdfPages(module, data), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

const indexing: string[] = [];

async function postState(): Promise<void> {
  try {
    const documents = await (await openStore()).list();
    post({ type: 'state', documents, indexing: [...indexing] });
  } catch (error) {
    post({ type: 'problem', message: (error as Error).message });
  }
}

async function add(file: File): Promise<void> {
  try {
    await indexDocument(file, {
      store: await openStore(),
      readPdfPages: readPdfWithTimeout,
    });
  } catch (error) {
    post({ type: 'problem', fileName: file.name, message: error instanceof Error ? error.message : String(error) });
  }
}

// One change at a time, in the order asked, so the list posted after each is the true one.
let queue: Promise<void> = Promise.resolve();
function enqueue(work: () => Promise<void>): void {
  queue = queue.then(work, work);
}

const serve = serveRequests<DocumentsRequests>(
  {
    list: () => enqueue(postState),
    add: ({ files }) => {
      indexing.push(...files.map((file) => file.name));
      void postState();
      for (const file of files) {
        enqueue(async () => {
          await add(file);
          indexing.splice(indexing.indexOf(file.name), 1);
          await postState();
        });
      }
    },
    remove: ({ id }) =>
      enqueue(async () => {
        try {
          await (await openStore()).remove(id);
        } catch (error) {
          post({ type: 'problem', message: (error as Error).message });
        }
        await postState();
      }),
  },
  (reply) => self.postMessage(reply),
);
self.onmessage = (message) => serve(message.data);
