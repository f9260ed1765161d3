/// <reference lib="webworker" />
// The calculator's browser worker: loads mathjs, then answers one expression at a time. It holds
// nothing but mathjs, so when an expression outlives its deadline the host ends this worker alone.

import { callOf, messageOf, type WorkerReply } from '../sandbox/workerMessages.ts';
import { loadCalculator } from './calculator.ts';
import { answer, isCalculateRequest, type CalculationOutcome } from './workerMessages.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (message: WorkerReply<CalculationOutcome>) => self.postMessage(message);
const calculator = loadCalculator();
calculator.then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'load-failed', error: messageOf(error) }),
);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const call = callOf(event.data, 'calculate', isCalculateRequest);
  if (call) void calculator.then((loaded) => post({ type: 'answer', id: call.id, response: answer(loaded, call.request) }));
});
