/// <reference lib="webworker" />
// The JavaScript sandbox's worker: compiles QuickJS's wasm once, then runs each request in a fresh
// QuickJS instance with its own capped memory. Guest code never sees this worker's globals; the
// deadline is enforced inside QuickJS, and the host terminates this worker if that ever fails.

import wasmUrl from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import { isRunRequest, type WorkerToHostMessage } from './protocol.ts';
import { loadQuickJS } from './quickjsModule.ts';
import { runInQuickJS } from './quickjsSandbox.ts';
import type { SandboxRunResult } from './types.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (message: WorkerToHostMessage) => self.postMessage(message);
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function compileQuickJS(): Promise<WebAssembly.Module> {
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${wasmUrl}`);
  const wasmModule = await WebAssembly.compile(await response.arrayBuffer());
  // One throwaway instance loads the glue code, so the first run is as fast as the rest.
  await loadQuickJS({ memoryBytes: 1024 * 1024, wasmModule });
  return wasmModule;
}

const compiled = compileQuickJS();
compiled.then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'load-failed', error: errorMessage(error) }),
);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = event.data;
  if (!isRunRequest(request)) return;
  void (async () => {
    let result: SandboxRunResult;
    try {
      const module = await loadQuickJS({ memoryBytes: request.limits.memoryBytes, wasmModule: await compiled });
      result = runInQuickJS(module, request.code, {
        limits: request.limits,
        ...(request.inputJson === undefined ? {} : { inputJson: request.inputJson }),
      });
    } catch (error) {
      result = {
        value: undefined,
        logs: '',
        error: `The JavaScript sandbox could not start: ${errorMessage(error)}`,
        timedOut: false,
        durationMs: 0,
        truncated: false,
        crashed: true,
      };
    }
    post({ type: 'result', id: request.id, result });
  })();
});
