/// <reference lib="webworker" />
// Imports a run file off the page's thread: the file is read, checked and stored in the history
// here (runFileImport.ts), so a file of any size or shape (50 MB, 100,000 levels deep, 200,000
// events) never stalls the page, which receives only the stored runs' summaries. Storing here too
// means the page never clones a long run's events: it reads them back in batches when the run is
// opened.

import { replyPoster, serveRequests } from '../requests.ts';
import { importRunFile, type RunFileImportReply, type RunFileImportRequests } from './runFileImport.ts';

declare const self: DedicatedWorkerGlobalScope;

// Nothing here should fail to clone; if it does, the page hears why instead of waiting.
const post = replyPoster((reply) => self.postMessage(reply), (error): RunFileImportReply => ({ ok: false, problems: [`The outcome could not be sent back to the page: ${error.message}`] }));
const serve = serveRequests<RunFileImportRequests>({ import_runs: ({ file }) => importRunFile(file) }, post);
self.onmessage = (message) => serve(message.data);
