/// <reference lib="webworker" />
// Reads evaluation results off the page's thread (resultsReader.ts): a hostile results file
// (40,000 policies, deep nesting) is read and refused here, never on the page.

import type { ResultsReadReply, ResultsReadRequest } from './resultsRead.ts';
import { readResults } from './resultsReader.ts';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (message: MessageEvent<ResultsReadRequest>) => {
  const reply = await readResults(message.data);
  try {
    self.postMessage(reply);
  } catch (error) {
    self.postMessage({ ok: false, problems: [`What was read could not be sent to the page: ${(error as Error).message}`] } satisfies ResultsReadReply);
  }
};
