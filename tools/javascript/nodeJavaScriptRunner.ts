// Node host of the JavaScript sandbox (the CLI): QuickJS in a worker thread (nodeJavaScriptWorker.ts)
// on the same host as the browser's, so a run never holds the CLI's event loop and a stuck native
// call is ended at the backstop as in the browser.

import { startNodeWorker } from '../sandbox/nodeWorker.ts';
import { createJavaScriptRunner, type JavaScriptRunnerOptions } from './javascriptHost.ts';
import type { JavaScriptRunner } from '../../workers/engine/ports.ts';

export function createNodeJavaScriptRunner(options: JavaScriptRunnerOptions = {}): JavaScriptRunner {
  return createJavaScriptRunner(startNodeWorker(new URL('./nodeJavaScriptWorkerEntry.mjs', import.meta.url)), options);
}
