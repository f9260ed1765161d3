// Browser host of the JavaScript sandbox: QuickJS in its own module worker (javascript.worker.ts).
// Works from a page and from another worker.

import { startBrowserWorker } from '../sandbox/browserWorker.ts';
import { createJavaScriptRunner, type JavaScriptRunnerOptions } from './javascriptHost.ts';
import type { JavaScriptRunner } from '../../workers/engine/ports.ts';

export function createBrowserJavaScriptRunner(options: JavaScriptRunnerOptions = {}): JavaScriptRunner {
  return createJavaScriptRunner(
    startBrowserWorker(() => new Worker(new URL('./javascript.worker.ts', import.meta.url), { type: 'module', name: 'javascript-sandbox' })),
    options,
  );
}
