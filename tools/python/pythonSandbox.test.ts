import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BLOCKED_GLOBALS,
  JS_UNREACHABLE,
  PYTHON_LOCKDOWN,
  failedPackages,
  isUnderBaseUrl,
  packageBaseUrlFor,
  packageFailureMessage,
  pyodideIndexUrl,
  removeProperties,
  replaceTimers,
  TIMERS_TAKE_FUNCTIONS,
} from './pythonSandbox.ts';

describe('removeProperties', () => {
  it('removes names from the object and from every prototype that defines them', () => {
    const prototype = { fetch: () => 'proto fetch', keep: 1 };
    const scope = Object.assign(Object.create(prototype) as Record<string, unknown>, { fetch: () => 'own fetch', Worker: class {} });
    expect(removeProperties(scope, ['fetch', 'Worker', 'absent'])).toEqual([]);
    expect('fetch' in scope).toBe(false);
    expect('Worker' in scope).toBe(false);
    expect(scope.keep).toBe(1);
  });

  it('removes accessors (Web IDL attributes such as indexedDB) without calling them', () => {
    let reads = 0;
    const scope = Object.defineProperty({}, 'indexedDB', {
      get: () => {
        reads++;
        return {};
      },
      configurable: true,
    });
    expect(removeProperties(scope, ['indexedDB'])).toEqual([]);
    expect(reads).toBe(0);
  });

  it('overwrites a non-configurable but writable value', () => {
    const scope = Object.defineProperty({}, 'caches', { value: {}, writable: true, configurable: false });
    expect(removeProperties(scope, ['caches'])).toEqual([]);
    expect(Reflect.get(scope, 'caches')).toBeUndefined();
  });

  it('reports what it could not remove', () => {
    const scope = Object.defineProperty({}, 'fetch', { value: () => {}, writable: false, configurable: false });
    const frozenGetter = Object.defineProperty({}, 'indexedDB', { get: () => ({}), configurable: false });
    expect(removeProperties(scope, ['fetch'])).toEqual(['fetch']);
    expect(removeProperties(frozenGetter, ['indexedDB'])).toEqual(['indexedDB']);
  });

  it('blocks the ways out of a worker the brief names, and eval', () => {
    const named = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB', 'caches'];
    const contexts = ['BroadcastChannel', 'Worker', 'SharedWorker', 'localStorage', 'eval'];
    for (const name of [...named, ...contexts]) expect(BLOCKED_GLOBALS).toContain(name);
  });
});

describe('replaceTimers', () => {
  /** A scope shaped like a worker's: the native timers live on a prototype, as in Chromium. */
  function workerLikeScope() {
    const calls: Array<{ handler: unknown; timeout: number | undefined }> = [];
    const native = (handler: unknown, timeout?: number) => {
      calls.push({ handler, timeout });
      return calls.length;
    };
    const prototype = { setTimeout: native, setInterval: native };
    const scope = Object.create(Object.create(prototype) as object) as Record<string, unknown>;
    return { scope, prototype, calls };
  }

  it('deletes the natives along the whole prototype chain and defines fixed replacements on the scope', () => {
    const { scope, prototype } = workerLikeScope();
    const natives = { setTimeout: () => 1, setInterval: () => 2 };
    expect(replaceTimers(scope, natives)).toEqual([]);
    expect('setTimeout' in prototype).toBe(false);
    expect('setInterval' in prototype).toBe(false);
    for (const name of ['setTimeout', 'setInterval']) {
      expect(Object.getOwnPropertyDescriptor(scope, name)).toMatchObject({ writable: false, configurable: false });
      expect(Reflect.set(scope, name, () => 0)).toBe(false);
      expect(Reflect.deleteProperty(scope, name)).toBe(false);
    }
  });

  it('refuses a string and calls a function with no receiver and its arguments', () => {
    const { scope } = workerLikeScope();
    const scheduled: Array<() => void> = [];
    const native = (handler: () => void) => scheduled.push(handler);
    replaceTimers(scope, { setTimeout: native, setInterval: native });
    const setTimeoutSafe = scope.setTimeout as (handler: unknown, timeout?: number, ...args: unknown[]) => number;
    expect(() => setTimeoutSafe('import("http://example.invalid/")', 0)).toThrow(TIMERS_TAKE_FUNCTIONS);
    expect(() => setTimeoutSafe({ toString: () => 'code' }, 0)).toThrow(TypeError);
    expect(scheduled).toHaveLength(0);

    const seen: unknown[] = [];
    setTimeoutSafe(function (this: unknown, ...args: unknown[]) {
      seen.push(this, ...args);
    }, 5, 'a', 2);
    // The browser calls what it was given with the global object as `this`: here, the scope.
    scheduled[0]?.call(scope);
    expect(seen).toEqual([undefined, 'a', 2]);
  });

  it('reports natives it cannot delete', () => {
    const scope = Object.defineProperty({}, 'setTimeout', { value: () => 0, writable: false, configurable: false });
    expect(replaceTimers(scope, { setTimeout: () => 0, setInterval: () => 0 })).toContain('setTimeout');
  });
});

describe('package URLs', () => {
  it('points at the jsDelivr folder of the exact Pyodide version', () => {
    expect(packageBaseUrlFor('314.0.7')).toBe('https://cdn.jsdelivr.net/pyodide/v314.0.7/full/');
    expect(packageBaseUrlFor('0.27.0a2')).toBe('https://cdn.jsdelivr.net/pyodide/v0.27.0a2/full/');
    expect(() => packageBaseUrlFor('../evil')).toThrow(/Unexpected Pyodide version/);
    expect(() => packageBaseUrlFor('')).toThrow(/Unexpected Pyodide version/);
  });

  it('accepts only files under the base URL', () => {
    const base = 'https://cdn.jsdelivr.net/pyodide/v314.0.7/full/';
    expect(isUnderBaseUrl(`${base}numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl`, base)).toBe(true);
    expect(isUnderBaseUrl(base, base)).toBe(false);
    expect(isUnderBaseUrl(`${base}../../v0.1/full/x.whl`, base)).toBe(false);
    expect(isUnderBaseUrl(`${base}%2e%2e/%2e%2e/x.whl`, base)).toBe(false);
    expect(isUnderBaseUrl(`${base}x.whl?leak=secret`, base)).toBe(false);
    expect(isUnderBaseUrl('https://cdn.jsdelivr.net.evil.example/pyodide/v314.0.7/full/x.whl', base)).toBe(false);
    expect(isUnderBaseUrl('https://evil.example/x.whl', base)).toBe(false);
    expect(isUnderBaseUrl('/pyodide/x.whl', base)).toBe(false);
    expect(isUnderBaseUrl('not a url', base)).toBe(false);
  });

  it('serves the core from the app under its base path', () => {
    expect(pyodideIndexUrl('/', 'http://127.0.0.1:4173')).toBe('http://127.0.0.1:4173/pyodide/');
    expect(pyodideIndexUrl('/playground/', 'https://example.org')).toBe('https://example.org/playground/pyodide/');
    expect(pyodideIndexUrl('/playground', 'https://example.org')).toBe('https://example.org/playground/pyodide/');
    expect(pyodideIndexUrl('./', 'https://example.org')).toBe('https://example.org/pyodide/');
  });
});

describe('package failures', () => {
  // The lines Pyodide's package loader sends to errorCallback when packages fail to load.
  const errorLines = [
    'The following error occurred while loading numpy:',
    'Failed to fetch',
    'The following error occurred while loading pandas:',
    'TypeError: NetworkError when attempting to fetch resource.',
    'The following error occurred while loading pygame-ce:',
    'ReferenceError: eval is not defined',
    'The following error occurred while loading numpy:',
    'Failed to fetch',
  ];

  it('finds the packages that failed, once each, with their reason', () => {
    expect(failedPackages(errorLines)).toEqual([
      { name: 'numpy', reason: 'Failed to fetch' },
      { name: 'pandas', reason: 'TypeError: NetworkError when attempting to fetch resource.' },
      { name: 'pygame-ce', reason: 'ReferenceError: eval is not defined' },
    ]);
    expect(failedPackages(['The following error occurred while loading scipy:'])).toEqual([{ name: 'scipy', reason: '' }]);
    expect(failedPackages(['Loading numpy', 'Loaded numpy'])).toEqual([]);
  });

  it('says "offline?" for downloads that failed and gives the reason for anything else', () => {
    expect(packageFailureMessage([{ name: 'numpy', reason: 'Failed to fetch' }])).toBe(
      'Package numpy could not be loaded (offline?) — only the standard library is available',
    );
    expect(packageFailureMessage(failedPackages(errorLines))).toBe(
      'Packages numpy, pandas could not be loaded (offline?) — only the standard library is available\n' +
        'Package pygame-ce could not be loaded: ReferenceError: eval is not defined',
    );
    expect(() => packageFailureMessage([])).toThrow();
  });
});

describe('PYTHON_LOCKDOWN (in a real Pyodide, under Node)', () => {
  let pyodide: PyodideAPI;

  beforeAll(async () => {
    pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
    pyodide.unregisterJsModule('js');
    pyodide.unregisterJsModule('pyodide_js');
    pyodide.runPython(PYTHON_LOCKDOWN, { filename: '<sandbox>' });
  });

  function errorOf(code: string): string {
    try {
      pyodide.runPython(code);
    } catch (error) {
      return (error as Error).message.trimEnd().split('\n').at(-1) ?? '';
    }
    return 'no error';
  }

  it('makes importing js and pyodide_js fail with a clear message', () => {
    expect(errorOf('import js')).toBe(`ModuleNotFoundError: No module named 'js': ${JS_UNREACHABLE}`);
    expect(errorOf('from js import fetch')).toBe(`ModuleNotFoundError: No module named 'js': ${JS_UNREACHABLE}`);
    expect(errorOf('import pyodide_js._api')).toBe(`ModuleNotFoundError: No module named 'pyodide_js': ${JS_UNREACHABLE}`);
  });

  it('forgets the copies imported during start-up, so removing the blocker does not bring them back', () => {
    expect(errorOf('import sys\nassert "js" not in sys.modules and "pyodide_js" not in sys.modules')).toBe('no error');
    const withoutBlocker = 'sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "JavaScriptImportBlocker"]';
    expect(errorOf(`import sys\n${withoutBlocker}\nimport js`)).toBe("ModuleNotFoundError: No module named 'js'");
  });

  it('disables the helpers that evaluate JavaScript or register JavaScript modules', () => {
    expect(errorOf('import pyodide.code\npyodide.code.run_js("1")')).toBe(`PermissionError: ${JS_UNREACHABLE}`);
    expect(errorOf('from pyodide.code import run_js\nrun_js("1")')).toBe(`PermissionError: ${JS_UNREACHABLE}`);
    expect(errorOf('import pyodide.ffi\npyodide.ffi.register_js_module("js", None)')).toBe(`PermissionError: ${JS_UNREACHABLE}`);
  });

  it('leaves ordinary Python alone', () => {
    expect(pyodide.runPython('import json, math\njson.dumps({"r": round(math.pi, 3)})')).toBe('{"r": 3.142}');
  });
});
