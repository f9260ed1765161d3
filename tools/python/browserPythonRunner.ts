// Browser host of the Python sandbox: Pyodide in its own module worker (python.worker.ts), a fresh
// one per run with a spare booting in the background (pythonHost.ts). Works from a page and from
// another worker.
import { startBrowserWorker } from '../sandbox/browserWorker.ts';
import { createPythonRunner, type PythonRunnerOptions, type WarmablePythonRunner } from './pythonHost.ts';

export type { WarmUpResult } from './pythonHost.ts';
export type BrowserPythonRunner = WarmablePythonRunner;

const DEFAULT_START_TIMEOUT_MS = 60_000;

export function createBrowserPythonRunner(options: PythonRunnerOptions = {}): BrowserPythonRunner {
  return createPythonRunner(
    startBrowserWorker(() => new Worker(new URL('./python.worker.ts', import.meta.url), { type: 'module', name: 'python-sandbox' })),
    { startTimeoutMs: DEFAULT_START_TIMEOUT_MS, ...options },
  );
}
