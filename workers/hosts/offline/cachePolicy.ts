// What the service worker keeps for offline use, and how it answers each request. Pure, so the
// rules are unit-tested; workers/hosts/offline/serviceWorker.ts applies them.
//
// Kept: the app shell (index.html and the build's assets), the search corpus (generated/) and
// Pyodide's core (pyodide/), listed at build time in a precache manifest; assets the first load
// does not need (web-llm's chunks) are kept once used. Never kept: anything that is not a plain
// same-origin GET of a build file or page. API calls (POSTs, other origins, requests carrying a
// key) pass straight through, and web-llm's model files (another origin) keep their own cache.

/** One file of the build, and a hash of its content (a new hash means fetch it again). */
export interface PrecacheEntry {
  /** Relative to the app's base URL, e.g. `assets/main-abc123.js`, `generated/corpus.json`. */
  url: string;
  revision: string;
}

export interface PrecacheManifest {
  /** Changes whenever any entry does: a new build to offer as an update. */
  version: string;
  entries: PrecacheEntry[];
}

/** Every cache this app makes starts with this (others on the origin are not ours to touch). */
export const CACHE_PREFIX = 'orchestra-offline-';

export function precacheName(version: string): string {
  return `${CACHE_PREFIX}${version}`;
}

export function runtimeCacheName(version: string): string {
  return `${CACHE_PREFIX}runtime-${version}`;
}

/** The header a cached copy carries its revision in, so the next version can reuse it. */
export const REVISION_HEADER = 'x-offline-revision';

/** Headers that carry credentials: a request with one is never answered from or put in a cache. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'api-key', 'cookie', 'proxy-authorization'];

/** Build folders whose files are named by their content: cached the first time they are used. */
const IMMUTABLE_FOLDERS = ['assets/'];

export type Handling =
  /** A precached file: from the cache, else the network. */
  | { kind: 'precached'; path: string }
  /** A navigation to the app: its precached index.html. */
  | { kind: 'app-shell' }
  /** An immutable build file outside the precache: the cache, else the network (then kept). */
  | { kind: 'runtime' }
  /** Another same-origin page: the network (then kept), else the copy kept last time. */
  | { kind: 'page' }
  /** Not ours: the browser does what it would without a service worker. */
  | { kind: 'network' };

export interface RequestFacts {
  url: string;
  method: string;
  /** `navigate` for a page load. */
  mode: string;
  headers: { has(name: string): boolean };
}

/**
 * How the service worker answers a request. `scope` is the app's base URL (the registration's
 * scope); `precached` holds the manifest's paths.
 */
export function handlingOf(request: RequestFacts, scope: string, precached: ReadonlySet<string>): Handling {
  if (request.method !== 'GET') return { kind: 'network' };
  if (CREDENTIAL_HEADERS.some((name) => request.headers.has(name))) return { kind: 'network' };
  let url: URL;
  let base: URL;
  try {
    url = new URL(request.url);
    base = new URL(scope);
  } catch {
    return { kind: 'network' };
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return { kind: 'network' };
  const path = decodeURIComponent(url.pathname.slice(base.pathname.length));
  if (request.mode === 'navigate') {
    if (path === '' || path === 'index.html') return { kind: 'app-shell' };
    return url.search === '' ? { kind: 'page' } : { kind: 'network' };
  }
  // Build files have no query; one with a query is something else (an API, a probe).
  if (url.search !== '') return { kind: 'network' };
  if (precached.has(path)) return { kind: 'precached', path };
  if (IMMUTABLE_FOLDERS.some((folder) => path.startsWith(folder))) return { kind: 'runtime' };
  return { kind: 'network' };
}

/** A response worth keeping: complete, successful and from this origin (not opaque, not partial). */
export function isKeepable(response: { ok: boolean; status: number; type: string }): boolean {
  return response.ok && response.status === 200 && (response.type === 'basic' || response.type === 'default');
}

/** What the page tells a waiting service worker. */
export type PageToServiceWorker = { type: 'skip-waiting' };

export function isPageMessage(value: unknown): value is PageToServiceWorker {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'skip-waiting';
}
