// Node host of the Python sandbox (the CLI): Pyodide in a worker thread (nodePyodideWorker.ts), so a
// time limit can really stop runaway code (pythonHost.ts). As in the browser, every run gets an
// interpreter no other run has touched: fresh globals in one warm interpreter would still share
// modules, builtins, settings and files between rollouts (nodePythonIsolation.test.ts).
import { startNodeWorker } from '../sandbox/nodeWorker.ts';
import { createPythonRunner, type PythonRunnerOptions, type WarmablePythonRunner } from './pythonHost.ts';

/** Two spares: the CLI runs two rollouts at once by default, and each may ask for Python. */
const DEFAULT_SPARES = 2;

export function createNodePythonRunner(options: PythonRunnerOptions = {}): WarmablePythonRunner {
  return createPythonRunner(startNodeWorker(new URL('./nodePyodideWorkerEntry.mjs', import.meta.url)), { spares: DEFAULT_SPARES, ...options });
}
