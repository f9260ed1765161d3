// Node-only worker_threads entry of the JavaScript sandbox: as the browser worker, compiles
// QuickJS's wasm once, then runs each request in a fresh instance with its own capped memory.
// QuickJS enforces the deadline; the host ends this thread if it ever fails to.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { callOf, messageOf, type WorkerReply } from '../sandbox/workerMessages.ts';
import { answer, isRunRequest } from './workerMessages.ts';
import { loadQuickJS } from './quickjsModule.ts';
import type { SandboxRunResult } from './types.ts';

const port = parentPort;
if (!port) throw new Error('nodeJavaScriptWorker.ts must run in a worker thread');
const post = (message: WorkerReply<SandboxRunResult>) => port.postMessage(message);

try {
  const wasmPath = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
  const wasmModule = await WebAssembly.compile(await readFile(wasmPath));
  // One throwaway instance loads the glue code, so the first run is as fast as the rest.
  await loadQuickJS({ memoryBytes: 1024 * 1024, wasmModule });
  port.on('message', (message: unknown) => {
    const call = callOf(message, 'run', isRunRequest);
    if (call) void answer(call.request, (memoryBytes) => loadQuickJS({ memoryBytes, wasmModule })).then((response) => post({ type: 'answer', id: call.id, response }));
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'load-failed', error: messageOf(error) });
}
