// Node host of the Python sandbox (the CLI): Pyodide in a worker thread (nodePyodideWorker.ts), kept
// warm from run to run, so a time limit can really stop runaway code (pythonHost.ts).
import type { PythonRunner } from '../../workers/engine/ports.ts';
import { startNodeWorker } from '../sandbox/nodeWorker.ts';
import { createPythonRunner, type PythonRunnerOptions } from './pythonHost.ts';

export function createNodePythonRunner(options: PythonRunnerOptions = {}): PythonRunner {
  return createPythonRunner(startNodeWorker(new URL('./nodePyodideWorkerEntry.mjs', import.meta.url)), { ...options, oneRunPerWorker: false });
}
