/// <reference lib="webworker" />
// The browser Python sandbox: Pyodide in its own module worker. After Pyodide has loaded, the
// worker is locked down (see lockDown) so the code it runs cannot reach the network, storage, the
// page or the keys; only package downloads from Pyodide's CDN get a guarded, short-lived fetch.
// The server sends this script with a Content-Security-Policy of its own (server/securityHeaders.ts)
// that refuses code from strings and any connection but the app's Pyodide files and the package
// CDN. Each worker runs one piece of code and closes: nothing a run plants reaches the next.

import type { PyodideAPI } from 'pyodide';
import { callOf, messageOf, type WorkerReply } from '../sandbox/workerMessages.ts';
import { isRunRequest, isSandboxInitMessage, type RunRequest, type SandboxInitMessage } from './workerMessages.ts';
import { createPyodideSession, type PyodideSession } from './pyodideSession.ts';
import {
  BLOCKED_GLOBALS,
  BLOCKED_NAVIGATOR_MEMBERS,
  cutPythonOffFromJavaScript,
  failedPackages,
  hardenJavaScriptRealm,
  isUnderBaseUrl,
  type PackageFailure,
  packageBaseUrlFor,
  packageFailureMessage,
  pyodideIndexUrl,
  removeProperties,
  replaceTimers,
} from './pythonSandbox.ts';
import type { SessionRunResult } from './types.ts';

declare const self: DedicatedWorkerGlobalScope;

// Private references, taken before the lockdown removes the globals.
const post = self.postMessage.bind(self) as (message: WorkerReply<SessionRunResult>) => void;
const closeWorker = self.close.bind(self);
const networkFetch = self.fetch.bind(self);
const realSetTimeout = self.setTimeout.bind(self);
const realSetInterval = self.setInterval.bind(self);

interface Sandbox {
  pyodide: PyodideAPI;
  session: PyodideSession;
  packageBaseUrl: string;
  interrupt: Int32Array | null;
}

async function boot(init: SandboxInitMessage): Promise<Sandbox> {
  const indexURL = pyodideIndexUrl(import.meta.env.BASE_URL, self.location.origin);
  const { loadPyodide, version } = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as typeof import('pyodide');
  const packageBaseUrl = packageBaseUrlFor(version);
  const wasmFailure = watchForWasmFailure();
  let pyodide: PyodideAPI;
  try {
    pyodide = await Promise.race([
      loadPyodide({ indexURL, packageBaseUrl, stdout: () => {}, stderr: () => {} }),
      wasmFailure.failed,
    ]);
  } finally {
    wasmFailure.stop();
  }
  const session = createPyodideSession(pyodide);
  lockDown(pyodide);
  const interrupt = init.interruptBuffer ? new Int32Array(init.interruptBuffer) : null;
  if (interrupt) pyodide.setInterruptBuffer(interrupt);
  return { pyodide, session, packageBaseUrl, interrupt };
}

/**
 * loadPyodide never settles when its WebAssembly module fails to load (a 404, a broken download):
 * it only warns "wasm instantiation failed!" and then the error. This turns that warning into a
 * rejection; were the wording to change, the host's start time limit still applies.
 */
function watchForWasmFailure(): { failed: Promise<never>; stop(): void } {
  const originalWarn = console.warn;
  let reject: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, rejectFailed) => {
    reject = rejectFailed;
  });
  let sawFailure = false;
  console.warn = (...args: unknown[]) => {
    originalWarn.apply(console, args);
    if (args[0] === 'wasm instantiation failed!') sawFailure = true;
    else if (sawFailure) reject(new Error(`the WebAssembly module could not be loaded (${messageOf(args[0])})`));
  };
  return { failed, stop: () => (console.warn = originalWarn) };
}

/** Cuts Python off from JavaScript and strips the worker's global scope; throws if anything stays. */
function lockDown(pyodide: PyodideAPI): void {
  cutPythonOffFromJavaScript(pyodide);
  const left = [
    // Pyodide schedules with setTimeout; it only ever passes functions and ignores `this`.
    ...replaceTimers(self, { setTimeout: realSetTimeout, setInterval: realSetInterval }),
    ...removeProperties(self, [...BLOCKED_GLOBALS, 'postMessage', 'close']),
    ...removeProperties(self.navigator, BLOCKED_NAVIGATOR_MEMBERS).map((name) => `navigator.${name}`),
    // Last: it freezes what the steps above still change.
    ...hardenJavaScriptRealm(),
  ];
  if (left.length > 0) throw new Error(`the sandbox could not remove ${left.join(', ')}`);
}

/**
 * Lends Pyodide's package loader, for the length of `load`, a fetch that only downloads from the
 * package CDN. Python code can run meanwhile (audit hooks, finalizers) but cannot call JavaScript
 * it has no reference to. eval is not lent: the few packages whose shared libraries carry EM_JS
 * code (Emscripten evals it) fail to load with a clear message rather than reopen eval.
 */
async function withPackageLoading<T>(packageBaseUrl: string, load: () => Promise<T>): Promise<T> {
  const packageFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!isUnderBaseUrl(url, packageBaseUrl)) {
      return Promise.reject(new TypeError(`The Python sandbox only downloads packages from ${packageBaseUrl}`));
    }
    // A fresh init with no prototype, so nothing set on Object.prototype reaches the request.
    const request = Object.assign(Object.create(null) as RequestInit, {
      method: 'GET',
      credentials: 'omit',
      ...(typeof init?.integrity === 'string' ? { integrity: init.integrity } : {}),
    } satisfies RequestInit);
    return networkFetch(url, request);
  };
  // Defined, not assigned: an assignment would run any setter named `fetch` up the global's prototype chain.
  const lent = Object.freeze({ value: packageFetch, writable: false, configurable: true });
  if (!Reflect.defineProperty(self, 'fetch', lent)) throw new Error('the sandbox could not lend fetch for package loading');
  try {
    return await load();
  } finally {
    removeProperties(self, ['fetch']);
  }
}

/** Loads the packages the code imports; returns those that could not be loaded. */
async function loadImportedPackages(sandbox: Sandbox, code: string): Promise<PackageFailure[]> {
  const errors: string[] = [];
  try {
    await withPackageLoading(sandbox.packageBaseUrl, () =>
      sandbox.pyodide.loadPackagesFromImports(code, {
        messageCallback: () => {},
        errorCallback: (message) => errors.push(...message.split('\n')),
      }),
    );
  } catch (error) {
    // Code that does not parse has no imports to load: running it reports the syntax error.
    if (!(error instanceof sandbox.pyodide.ffi.PythonError)) throw error;
  }
  return failedPackages(errors);
}

async function run(sandbox: Sandbox, request: RunRequest): Promise<SessionRunResult> {
  // A SIGINT meant for an earlier run that ended in time must not hit this one.
  if (sandbox.interrupt) Atomics.store(sandbox.interrupt, 0, 0);
  const missing = await loadImportedPackages(sandbox, request.code);
  const result = sandbox.session.run(request.code, request.maxOutputBytes);
  // Code that copes without the package (try/except ImportError) succeeds as usual.
  if (missing.length > 0 && result.error !== null) {
    return { ...result, error: `${packageFailureMessage(missing)}\n${result.error}` };
  }
  return result;
}

let booted: Promise<Sandbox> | null = null;
let answered = false;

/** Answers the one run this worker takes, then closes it. */
async function answer(id: number, request: RunRequest): Promise<void> {
  if (!booted || answered) return;
  answered = true;
  const sandbox = await booted;
  let result: SessionRunResult;
  try {
    result = await run(sandbox, request);
  } catch (error) {
    // Pyodide throws out of a run only after a fatal error, which leaves it unusable.
    result = { stdout: '', stderr: '', error: `Python crashed: ${messageOf(error)}`, durationMs: 0, truncated: false };
  }
  post({ type: 'answer', id, response: result });
  // Whatever the code left behind (timers, callbacks, a broken or bloated interpreter) ends here.
  closeWorker();
}

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (isSandboxInitMessage(message) && !booted) {
    booted = boot(message);
    booted.then(
      () => post({ type: 'ready' }),
      (error: unknown) => post({ type: 'load-failed', error: messageOf(error) }),
    );
  } else {
    const call = callOf(message, 'run', isRunRequest);
    if (call) void booted?.then(() => answer(call.id, call.request), () => undefined);
  }
});
