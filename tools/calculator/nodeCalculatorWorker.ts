// Node-only worker_threads entry of the calculator: loads mathjs and answers one expression at a time.
import { parentPort } from 'node:worker_threads';
import { loadCalculator } from './calculator.ts';
import { answer, isCalculateRequest, messageOf, type WorkerToHostMessage } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('nodeCalculatorWorker.ts must run in a worker thread');
const post = (message: WorkerToHostMessage) => port.postMessage(message);

try {
  const calculator = await loadCalculator();
  port.on('message', (message: unknown) => {
    if (isCalculateRequest(message)) post(answer(calculator, message));
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'load-failed', error: messageOf(error) });
}
