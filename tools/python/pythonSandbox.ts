// What the browser Python sandbox takes away from the code it runs, and how it words what is
// missing. Environment-neutral: the worker applies it, tests check it under Node.

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
