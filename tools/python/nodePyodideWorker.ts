// Node-only worker_threads entry: loads Pyodide from node_modules and runs requests one by one.
// After Pyodide has loaded, the thread is locked down as the browser worker is: Python is cut off
// from JavaScript, the globals that reach the process (its environment holds the CLI's API keys),
// files and the network are removed, and the realm is frozen. The host starts this thread with an
// empty environment as well (nodePythonRunner.ts).
import { parentPort } from 'node:worker_threads';
import { loadPyodide } from 'pyodide';
import { callOf, messageOf, type WorkerReply } from '../sandbox/workerMessages.ts';
import { isRunRequest } from './workerMessages.ts';
import { createPyodideSession } from './pyodideSession.ts';
import type { SessionRunResult } from './types.ts';
import { BLOCKED_NODE_GLOBALS, cutPythonOffFromJavaScript, hardenJavaScriptRealm, removeProperties } from './pythonSandbox.ts';

const port = parentPort;
if (!port) throw new Error('nodePyodideWorker.ts must run in a worker thread');
const post = (message: WorkerReply<SessionRunResult>) => port.postMessage(message);
const exit = process.exit.bind(process);

try {
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
  const session = createPyodideSession(pyodide);
  cutPythonOffFromJavaScript(pyodide);
  const left = [...removeProperties(globalThis, BLOCKED_NODE_GLOBALS), ...hardenJavaScriptRealm()];
  if (left.length > 0) throw new Error(`the sandbox could not remove ${left.join(', ')}`);
  // Emscripten's exit() sets process.exitCode: it gets a stand-in that holds nothing else.
  Object.defineProperty(globalThis, 'process', { value: { exitCode: undefined }, writable: false, configurable: false });
  port.on('message', (message: unknown) => {
    const call = callOf(message, 'run', isRunRequest);
    if (!call) return;
    const response = session.run(call.request.code, call.request.maxOutputBytes);
    post({ type: 'answer', id: call.id, response, fatal: session.broken });
    // The host stops using this worker on `fatal` and starts a fresh one for the next run.
    if (session.broken) exit(1);
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'load-failed', error: messageOf(error) });
}
