import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { messageOf } from '../sandbox/workerMessages.ts';
import { runInQuickJS } from './quickjsSandbox.ts';
import type { SandboxLimits, SandboxRunResult } from './types.ts';

// What the JavaScript sandbox's host and its QuickJS worker (a Web Worker in the browser, a worker
// thread under Node) exchange, inside the sandboxes' common messages (tools/sandbox/workerMessages.ts).

export interface RunRequest {
  code: string;
  /** JSON text handed to the guest as `args`; absent: no `args`. */
  inputJson?: string;
  limits: SandboxLimits;
}

export type JavaScriptCalls = { run: { request: RunRequest; response: SandboxRunResult } };

export function isRunRequest(value: unknown): value is RunRequest {
  if (typeof value !== 'object' || value === null) return false;
  const request = value as Partial<RunRequest>;
  return (
    typeof request.code === 'string' &&
    (request.inputJson === undefined || typeof request.inputJson === 'string') &&
    typeof request.limits === 'object' &&
    request.limits !== null
  );
}

/** What a worker answers a request with, in a fresh QuickJS instance from `load`. */
export async function answer(request: RunRequest, load: (memoryBytes: number) => Promise<QuickJSWASMModule>): Promise<SandboxRunResult> {
  try {
    const module = await load(request.limits.memoryBytes);
    return runInQuickJS(module, request.code, {
      limits: request.limits,
      ...(request.inputJson === undefined ? {} : { inputJson: request.inputJson }),
    });
  } catch (error) {
    return {
      value: undefined,
      logs: '',
      error: `The JavaScript sandbox could not start: ${messageOf(error)}`,
      timedOut: false,
      durationMs: 0,
      truncated: false,
      crashed: true,
    };
  }
}
