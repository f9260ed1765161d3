/// <reference lib="webworker" />
// Writes a run file off the page's thread (runFileExport.ts): the page sends the runs' ids and
// receives the file.

import { replyPoster, serveRequests } from '../requests.ts';
import { exportRunFile, type RunFileExportReply, type RunFileExportRequests } from './runFileExport.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = replyPoster((reply) => self.postMessage(reply), (error): RunFileExportReply => ({ ok: false, problem: `The file could not be sent back to the page: ${error.message}` }));
const serve = serveRequests<RunFileExportRequests>({ export_runs: ({ runIds }) => exportRunFile(runIds) }, post);
self.onmessage = (message) => serve(message.data);
