// The JavaScript sandbox for the CLI: the same QuickJS core the browser runs in its worker, run
// in-process under Node (Emscripten loads the wasm file itself). QuickJS enforces the deadline and
// the wasm memory cap; there is no worker to terminate, so a run holds the event loop until it
// ends, at the latest at its deadline. Each run gets a fresh QuickJS instance.

import { loadQuickJS } from './quickjsModule.ts';
import { runInQuickJS } from './quickjsSandbox.ts';
import {
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_MAX_STACK_BYTES,
  DEFAULT_MEMORY_BYTES,
  type JavaScriptRunner,
  type JsRunResult,
} from './types.ts';

const stoppedBeforeStart: JsRunResult = {
  value: undefined,
  logs: '',
  error: null,
  timedOut: false,
  aborted: true,
  durationMs: 0,
  truncated: false,
};

export function createNodeJavaScriptRunner(): JavaScriptRunner {
  return {
    async run(code, { timeoutMs, memoryBytes = DEFAULT_MEMORY_BYTES, input, signal }) {
      if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}`);
      if (signal?.aborted) return stoppedBeforeStart;
      const inputJson = input === undefined ? undefined : JSON.stringify(input);
      const module = await loadQuickJS({ memoryBytes });
      if (signal?.aborted) return stoppedBeforeStart;
      const { crashed: _crashed, ...result } = runInQuickJS(module, code, {
        limits: {
          timeoutMs,
          memoryBytes,
          maxStackBytes: DEFAULT_MAX_STACK_BYTES,
          maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
          maxResultChars: DEFAULT_MAX_RESULT_CHARS,
        },
        ...(inputJson === undefined ? {} : { inputJson }),
      });
      return { ...result, aborted: false };
    },
    dispose() {},
  };
}
