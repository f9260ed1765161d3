// Node-only worker_threads entry: loads Pyodide from node_modules and runs requests one by one.
import { parentPort } from 'node:worker_threads';
import { loadPyodide } from 'pyodide';
import { isHostToWorkerMessage, type WorkerToHostMessage } from './protocol.ts';
import { createPyodideSession } from './pyodideSession.ts';

const port = parentPort;
if (!port) throw new Error('nodePyodideWorker.ts must run in a worker thread');
const post = (message: WorkerToHostMessage) => port.postMessage(message);

try {
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
  const session = createPyodideSession(pyodide);
  port.on('message', (message: unknown) => {
    if (!isHostToWorkerMessage(message)) return;
    const result = session.run(message.code, message.maxOutputBytes);
    post({ type: 'result', id: message.id, result, fatal: session.broken });
    // The host stops using this worker on `fatal` and starts a fresh one for the next run.
    if (session.broken) process.exit(1);
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'load-failed', error: error instanceof Error ? error.message : String(error) });
}
