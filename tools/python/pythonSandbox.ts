// What the Python sandbox takes away from the code it runs, and how it words what is missing.
// Environment-neutral: the browser worker and the Node worker thread apply it, tests check it
// under Node.

import type { PyodideAPI } from 'pyodide';

/**
 * Worker globals through which code could reach the network, storage, other browsing contexts or
 * run code from a string. Missing names are fine: each browser exposes a different set.
 */
export const BLOCKED_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'EventSource',
  'importScripts',
  'indexedDB',
  'caches',
  'cookieStore',
  'localStorage',
  'sessionStorage',
  'openDatabase',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
  'FontFace',
  'fonts',
  'Notification',
  'eval',
] as const;

/** Navigator members that reach storage (OPFS), service workers or devices. */
export const BLOCKED_NAVIGATOR_MEMBERS = ['storage', 'serviceWorker', 'usb', 'hid', 'serial', 'bluetooth'] as const;

/**
 * Removes `names` from `target` wherever they are defined along its prototype chain (Web IDL puts
 * some on the global object, others on its prototypes). Returns the names still readable
 * afterwards, so a caller can refuse to run code in a scope that could not be locked down.
 */
export function removeProperties(target: object, names: readonly string[]): string[] {
  for (const name of names) {
    for (let owner: object | null = target; owner !== null; owner = Object.getPrototypeOf(owner) as object | null) {
      if (!Object.prototype.hasOwnProperty.call(owner, name)) continue;
      if (Reflect.deleteProperty(owner, name)) continue;
      // Not configurable: overwrite the value where that is still allowed.
      if (!Reflect.defineProperty(owner, name, { value: undefined })) Reflect.set(owner, name, undefined);
    }
  }
  return names.filter((name) => Reflect.get(target, name) !== undefined);
}

/** The timers, which evaluate a string handler as script and call a function with the global
 * object as `this`: a callback that Python code schedules could climb from that receiver to a
 * native timer and hand it a string (issue 8). */
export const TIMER_NAMES = ['setTimeout', 'setInterval'] as const;

export const TIMERS_TAKE_FUNCTIONS = 'Timers take a function in the Python sandbox';

type NativeTimer = (handler: () => void, timeout?: number) => number;

/** A timer that refuses anything but a function and calls it with no receiver (`this` is
 * undefined), so a callback never sees the global object. `native` must already be bound. */
export function receiverlessTimer(native: NativeTimer): (handler: unknown, timeout?: number, ...args: unknown[]) => number {
  const apply = Reflect.apply;
  return (handler, timeout, ...args) => {
    if (typeof handler !== 'function') throw new TypeError(TIMERS_TAKE_FUNCTIONS);
    return native(() => {
      apply(handler, undefined, args);
    }, timeout);
  };
}

/**
 * Replaces the timers of `scope`: the natives are deleted from the scope and from every prototype
 * along its chain (an own property would only shadow them), then receiverless, function-only
 * timers are defined on the scope itself, neither writable nor configurable. Returns what could
 * not be done.
 */
export function replaceTimers(scope: object, natives: Record<(typeof TIMER_NAMES)[number], NativeTimer>): string[] {
  // Checked before the replacements exist: nothing readable is left anywhere along the chain.
  const left = removeProperties(scope, TIMER_NAMES);
  for (const name of TIMER_NAMES) {
    const defined = Reflect.defineProperty(scope, name, {
      value: receiverlessTimer(natives[name]),
      writable: false,
      enumerable: true,
      configurable: false,
    });
    if (!defined) left.push(name);
  }
  return left;
}

export const PYODIDE_CDN = 'https://cdn.jsdelivr.net/pyodide/';

/**
 * Where Pyodide's packages beyond the core live: its lock file names them relative to this URL,
 * which must match the installed version exactly (the lock file pins their hashes).
 */
export function packageBaseUrlFor(version: string): string {
  if (!/^\d[\w.+-]*$/.test(version)) throw new Error(`Unexpected Pyodide version "${version}"`);
  return `${PYODIDE_CDN}v${version}/full/`;
}

/** True when `url` names a file under `baseUrl` (after resolving `..` and the like). */
export function isUnderBaseUrl(url: string, baseUrl: string): boolean {
  let resolved: URL;
  try {
    resolved = new URL(url);
  } catch {
    return false;
  }
  return resolved.search === '' && resolved.hash === '' && resolved.href.startsWith(baseUrl) && resolved.href !== baseUrl;
}

/** The app's own copy of the Pyodide core, under the app's base path (see pyodideAssets.ts). */
export function pyodideIndexUrl(basePath: string, origin: string): string {
  const base = basePath.endsWith('/') ? basePath : `${basePath}/`;
  return new URL(`${base}pyodide/`, `${origin}/`).href;
}

const LOAD_ERROR_HEADER = /^The following error occurred while loading (.+):$/;
/** How browsers word a download that never reached the server. */
const NETWORK_FAILURE = /failed to fetch|networkerror|network error|load failed|internet/i;

export interface PackageFailure {
  name: string;
  /** Pyodide's error message for it, '' when it gave none. */
  reason: string;
}

/** The packages named in Pyodide's package-loader error lines (its `errorCallback` output). */
export function failedPackages(errorLines: readonly string[]): PackageFailure[] {
  const failures = new Map<string, string>();
  let current: string | null = null;
  for (const line of errorLines.map((text) => text.trim())) {
    const name = LOAD_ERROR_HEADER.exec(line)?.[1];
    if (name) {
      current = name;
      if (!failures.has(name)) failures.set(name, '');
    } else if (current !== null && line !== '' && failures.get(current) === '') {
      failures.set(current, line);
    }
  }
  return [...failures].map(([name, reason]) => ({ name, reason }));
}

/** One line per kind of failure: downloads that could not happen, then anything else. */
export function packageFailureMessage(failures: readonly PackageFailure[]): string {
  if (failures.length === 0) throw new Error('packageFailureMessage needs at least one failure');
  const offline = failures.filter((failure) => failure.reason === '' || NETWORK_FAILURE.test(failure.reason));
  const broken = failures.filter((failure) => !offline.includes(failure));
  const lines: string[] = [];
  if (offline.length > 0) {
    const subject = offline.length === 1 ? 'Package' : 'Packages';
    const names = offline.map((failure) => failure.name).join(', ');
    lines.push(`${subject} ${names} could not be loaded (offline?) — only the standard library is available`);
  }
  for (const failure of broken) lines.push(`Package ${failure.name} could not be loaded: ${failure.reason}`);
  return lines.join('\n');
}

export const JS_UNREACHABLE = 'JavaScript is not reachable from this Python sandbox';

/**
 * Run once in a fresh interpreter, after the `js` and `pyodide_js` modules were unregistered:
 * forgets their imported copies, makes importing them fail with a clear message, and disables
 * the helpers that evaluate JavaScript or register JavaScript objects as modules.
 */
export const PYTHON_LOCKDOWN = `
import sys
from importlib.abc import MetaPathFinder

_BLOCKED = ('js', 'pyodide_js')
_MESSAGE = ${JSON.stringify(JS_UNREACHABLE)}

for _name in [name for name in sys.modules if name.partition('.')[0] in _BLOCKED]:
    del sys.modules[_name]

class JavaScriptImportBlocker(MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition('.')[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {fullname!r}: {_MESSAGE}", name=fullname)
        return None

sys.meta_path.insert(0, JavaScriptImportBlocker())

def _disabled(*args, **kwargs):
    raise PermissionError(_MESSAGE)

import pyodide.code, pyodide._run_js, pyodide.ffi
pyodide.code.run_js = _disabled
pyodide._run_js.run_js = _disabled
pyodide.ffi.register_js_module = _disabled
`;

/** Cuts Python off from JavaScript: the `js` and `pyodide_js` modules go, then PYTHON_LOCKDOWN runs. */
export function cutPythonOffFromJavaScript(pyodide: PyodideAPI): void {
  pyodide.unregisterJsModule('js');
  pyodide.unregisterJsModule('pyodide_js');
  const scope = pyodide.globals.get('dict')();
  try {
    pyodide.runPython(PYTHON_LOCKDOWN, { globals: scope, filename: '<sandbox>' });
  } finally {
    scope.destroy();
  }
}

/** Node globals that reach the network, the process (its environment holds the CLI's API keys),
 * files, other threads or code from strings. Missing names are fine. */
export const BLOCKED_NODE_GLOBALS = [
  'process',
  'fetch',
  'WebSocket',
  'EventSource',
  'BroadcastChannel',
  'Worker',
  'require',
  'module',
  'eval',
] as const;

export const FUNCTION_UNAVAILABLE = 'Function is not available in the Python sandbox';

/** ECMAScript and WebAssembly globals whose objects code running in the realm shares. */
const INTRINSIC_GLOBALS = [
  'Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'BigInt', 'Date', 'Promise', 'RegExp',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
  'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
  'Uint16Array', 'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
  'BigUint64Array', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Proxy', 'Reflect',
  'JSON', 'Math', 'Atomics', 'Intl', 'Iterator', 'WebAssembly',
] as const;

/** Data properties that must stay assignable (V8 assigns Error.stackTraceLimit; Pyodide does too). */
const STILL_WRITABLE = new Map<unknown, string>([[Error, 'stackTraceLimit']]);

/**
 * Makes the realm's shared objects immutable before untrusted code runs. Code holding any
 * JavaScript object reaches Object, Object.prototype and the like; were they mutable it could plant
 * an accessor (say `devicePixelRatio` or `fetch` on Object.prototype) that the runtime later reads
 * or sets on the global object, handing that code the global and so everything. Also takes the
 * Function constructors out of reach: their `constructor` links go, and the `Function` global
 * becomes a stand-in that throws but keeps `instanceof Function` working (Pyodide relies on it).
 * The global object's prototypes are frozen too; the global object itself stays extensible.
 * Returns what could not be hardened.
 */
export function hardenJavaScriptRealm(): string[] {
  const global = globalThis as unknown as Record<string, unknown>;
  const problems: string[] = [];
  const functionPrototypes = [
    Function.prototype,
    Object.getPrototypeOf(async () => {}) as object,
    Object.getPrototypeOf(function* () {}) as object,
    Object.getPrototypeOf(async function* () {}) as object,
  ];
  for (const prototype of functionPrototypes) {
    if (!Reflect.deleteProperty(prototype, 'constructor')) problems.push('Function.prototype.constructor');
  }
  const roots: unknown[] = INTRINSIC_GLOBALS.map((name) => global[name]);
  const standIn = function Function(): never {
    throw new TypeError(FUNCTION_UNAVAILABLE);
  };
  standIn.prototype = Function.prototype;
  if (!Reflect.defineProperty(globalThis, 'Function', { value: standIn, writable: false, configurable: false })) {
    problems.push('Function');
  }
  roots.push(
    standIn,
    ...functionPrototypes,
    Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(''[Symbol.iterator]()),
    Object.getPrototypeOf(new Map()[Symbol.iterator]()),
    Object.getPrototypeOf(new Set()[Symbol.iterator]()),
    Object.getPrototypeOf(/x/[Symbol.matchAll]('')),
    Object.getPrototypeOf((function* () {})()),
    Object.getPrototypeOf((async function* () {})()),
    Object.getPrototypeOf(Object.getPrototypeOf(Object.getPrototypeOf((async function* () {})()))),
  );
  for (let owner = Object.getPrototypeOf(globalThis) as object | null; owner !== null; owner = Object.getPrototypeOf(owner) as object | null) {
    roots.push(owner);
  }
  const seen = new Set<object>([globalThis]);
  const pending = roots.filter((root): root is object => isObject(root));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    if (!freezeKeeping(next, STILL_WRITABLE.get(next))) problems.push(describeObject(next));
    const prototype = Object.getPrototypeOf(next) as unknown;
    if (isObject(prototype)) pending.push(prototype);
    for (const key of Reflect.ownKeys(next)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(next, key);
      for (const reached of [descriptor?.value, descriptor?.get, descriptor?.set]) if (isObject(reached)) pending.push(reached);
    }
  }
  return problems;
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** Object.freeze, except that the data property named `writable` (if any) stays assignable. */
function freezeKeeping(target: object, writable: string | undefined): boolean {
  try {
    for (const key of Reflect.ownKeys(target)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
      if (descriptor === undefined) continue;
      const keepWritable = key === writable || !('value' in descriptor);
      Reflect.defineProperty(target, key, keepWritable ? { configurable: false } : { configurable: false, writable: false });
    }
    return Reflect.preventExtensions(target) && (writable !== undefined || Object.isFrozen(target));
  } catch {
    return false;
  }
}

function describeObject(target: object): string {
  const name = (Reflect.getOwnPropertyDescriptor(target, 'name')?.value as unknown) ?? '';
  return typeof name === 'string' && name !== '' ? name : Object.prototype.toString.call(target);
}
