/// <reference lib="webworker" />
// The JavaScript sandbox's browser worker: compiles QuickJS's wasm once, then runs each request in
// a fresh QuickJS instance with its own capped memory. Guest code never sees this worker's globals;
// the deadline is enforced inside QuickJS, and the host terminates this worker if that ever fails.

import wasmUrl from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import { callOf, messageOf, type WorkerReply } from '../sandbox/workerMessages.ts';
import { answer, isRunRequest } from './workerMessages.ts';
import { loadQuickJS } from './quickjsModule.ts';
import type { SandboxRunResult } from './types.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (message: WorkerReply<SandboxRunResult>) => self.postMessage(message);

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
  (error: unknown) => post({ type: 'load-failed', error: messageOf(error) }),
);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const call = callOf(event.data, 'run', isRunRequest);
  if (!call) return;
  void answer(call.request, async (memoryBytes) => loadQuickJS({ memoryBytes, wasmModule: await compiled })).then((response) =>
    post({ type: 'answer', id: call.id, response }),
  );
});
