// Harness of e2e/javascript-sandbox.spec.ts: puts the worker-backed JavaScript runner on `window`
// for Playwright. The same module also runs as a worker (runInWorker), to check the runner works
// from inside a worker, where the orchestrator worker uses it.
import { createBrowserJavaScriptRunner } from '../../tools/javascript/browserJavaScriptRunner.ts';
import type { JsRunResult, JsonValue } from '../../workers/engine/ports.ts';

export interface HarnessRunOptions {
  timeoutMs: number;
  memoryBytes?: number;
  input?: JsonValue;
  /** Aborts the run through its signal this long after the call. */
  abortAfterMs?: number;
}

export interface JavaScriptHarness {
  run(code: string, options: HarnessRunOptions): Promise<JsRunResult>;
  /** Runs code with a runner that lives in a dedicated worker of this page. */
  runInWorker(code: string, timeoutMs: number): Promise<JsRunResult>;
  dispose(): void;
}

declare global {
  interface Window {
    javascriptHarness: JavaScriptHarness;
  }
}

interface WorkerRequest {
  code: string;
  timeoutMs: number;
}

const runner = createBrowserJavaScriptRunner();

if (typeof window === 'undefined') {
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
    postMessage(message: JsRunResult): void;
  };
  scope.onmessage = (event) => {
    void runner.run(event.data.code, { timeoutMs: event.data.timeoutMs }).then((result) => scope.postMessage(result));
  };
} else {
  let nestedWorker: Worker | null = null;
  window.javascriptHarness = {
    run(code, { abortAfterMs, ...options }) {
      if (abortAfterMs === undefined) return runner.run(code, options);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), abortAfterMs);
      return runner.run(code, { ...options, signal: controller.signal });
    },
    runInWorker(code, timeoutMs) {
      nestedWorker ??= new Worker(new URL('./javascript.ts', import.meta.url), { type: 'module' });
      const target = nestedWorker;
      return new Promise<JsRunResult>((resolve) => {
        target.addEventListener('message', (event: MessageEvent<JsRunResult>) => resolve(event.data), { once: true });
        const request: WorkerRequest = { code, timeoutMs };
        target.postMessage(request);
      });
    },
    dispose: () => runner.dispose(),
  };
  const status = document.getElementById('status');
  if (status) status.textContent = 'ready';
}
