/// <reference lib="webworker" />
// Reads evaluation results off the page's thread (resultsReader.ts): a hostile results file
// (40,000 policies, deep nesting) is read and refused here, never on the page.

import { replyPoster, serveRequests } from '../../workers/hosts/requests.ts';
import type { ResultsReadReply, ResultsReadRequests } from './resultsRead.ts';
import { readResults } from './resultsReader.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = replyPoster((reply) => self.postMessage(reply), (error): ResultsReadReply => ({ ok: false, problems: [`What was read could not be sent to the page: ${error.message}`] }));
const serve = serveRequests<ResultsReadRequests>({ read_results: (request) => readResults(request) }, post);
self.onmessage = (message) => serve(message.data);
