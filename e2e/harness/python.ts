// Harness of e2e/python-sandbox.spec.ts: puts a browser Python runner on `window` for Playwright.
// The same module also runs as a worker (runInWorker), to check the runner works from inside a
// worker, where the orchestrator worker uses it.
import { createBrowserPythonRunner, type WarmUpResult } from '../../tools/python/browserPythonRunner.ts';
import type { PythonRunResult } from '../../workers/engine/ports.ts';

export interface PythonHarness {
  crossOriginIsolated: boolean;
  /** Starts Pyodide; `ms` is how long that took. */
  warmUp(): Promise<WarmUpResult & { ms: number }>;
  /** Runs code; with `abortAfterMs`, aborts the run through its signal that long after the call. */
  run(code: string, timeoutMs: number, abortAfterMs?: number): Promise<PythonRunResult>;
  /** Runs code with a runner that lives in a dedicated worker of this page. */
  runInWorker(code: string, timeoutMs: number): Promise<PythonRunResult>;
  dispose(): Promise<void>;
}

declare global {
  interface Window {
    pythonHarness: PythonHarness;
  }
}

interface WorkerRequest {
  code: string;
  timeoutMs: number;
}

const runner = createBrowserPythonRunner();

if (typeof window === 'undefined') {
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
    postMessage(message: PythonRunResult): void;
  };
  scope.onmessage = (event) => {
    void runner.run(event.data.code, { timeoutMs: event.data.timeoutMs }).then((result) => scope.postMessage(result));
  };
} else {
  let nestedWorker: Worker | null = null;
  window.pythonHarness = {
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    async warmUp() {
      const startedAt = performance.now();
      const result = await runner.warmUp();
      return { ...result, ms: performance.now() - startedAt };
    },
    run(code, timeoutMs, abortAfterMs) {
      if (abortAfterMs === undefined) return runner.run(code, { timeoutMs });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), abortAfterMs);
      return runner.run(code, { timeoutMs, signal: controller.signal });
    },
    runInWorker(code, timeoutMs) {
      nestedWorker ??= new Worker(new URL('./python.ts', import.meta.url), { type: 'module' });
      const target = nestedWorker;
      return new Promise<PythonRunResult>((resolve) => {
        target.addEventListener('message', (event: MessageEvent<PythonRunResult>) => resolve(event.data), { once: true });
        const request: WorkerRequest = { code, timeoutMs };
        target.postMessage(request);
      });
    },
    dispose: () => runner.dispose(),
  };
  const status = document.getElementById('status');
  if (status) status.textContent = 'ready';
}
