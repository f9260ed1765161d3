// Node-only worker_threads entry of the calculator: loads mathjs and answers one expression at a time.
import { parentPort } from 'node:worker_threads';
import { callOf, messageOf, type WorkerReply } from '../sandbox/workerMessages.ts';
import { loadCalculator } from './calculator.ts';
import { answer, isCalculateRequest, type CalculationOutcome } from './workerMessages.ts';

const port = parentPort;
if (!port) throw new Error('nodeCalculatorWorker.ts must run in a worker thread');
const post = (message: WorkerReply<CalculationOutcome>) => port.postMessage(message);

try {
  const calculator = await loadCalculator();
  port.on('message', (message: unknown) => {
    const call = callOf(message, 'calculate', isCalculateRequest);
    if (call) post({ type: 'answer', id: call.id, response: answer(calculator, call.request) });
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'load-failed', error: messageOf(error) });
}
