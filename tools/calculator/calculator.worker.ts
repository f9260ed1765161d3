/// <reference lib="webworker" />
// The calculator's browser worker: loads mathjs, then answers one expression at a time. It holds
// nothing but mathjs, so when an expression outlives its deadline the host ends this worker alone.

import { loadCalculator } from './calculator.ts';
import { answer, isCalculateRequest, messageOf, type WorkerToHostMessage } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (message: WorkerToHostMessage) => self.postMessage(message);
const calculator = loadCalculator();
calculator.then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'load-failed', error: messageOf(error) }),
);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = event.data;
  if (isCalculateRequest(request)) void calculator.then((loaded) => post(answer(loaded, request)));
});
