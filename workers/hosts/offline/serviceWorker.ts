/// <reference lib="webworker" />
// The service worker that lets the playground work offline after one visit. It is built to the
// app's root as `sw.js` (server/precachePlugin.ts), with the build's precache manifest
// written into it, so a new build is a new service worker: the page then offers to reload.
//
// Install: every file of the manifest is put in a cache for this version, reusing the copies of
// an earlier version whose content has not changed (Pyodide's 13 MB are not fetched again for a
// new build of the app). Activate: earlier versions' caches go. Fetch: cachePolicy.ts decides.

import {
  CACHE_PREFIX,
  handlingOf,
  isKeepable,
  isPageMessage,
  precacheName,
  REVISION_HEADER,
  runtimeCacheName,
  type PrecacheEntry,
  type PrecacheManifest,
} from './cachePolicy.ts';

declare const self: ServiceWorkerGlobalScope;

// Replaced at build time by the manifest, as a JSON string (see precachePlugin.ts).
const MANIFEST_JSON = '__OFFLINE_PRECACHE_MANIFEST__';
const manifest = JSON.parse(MANIFEST_JSON) as PrecacheManifest;
const precached = new Set(manifest.entries.map((entry) => entry.url));
const PRECACHE = precacheName(manifest.version);
const RUNTIME = runtimeCacheName(manifest.version);

const scope = () => self.registration.scope;
const absolute = (path: string) => new URL(path, scope()).href;

self.addEventListener('install', (event) => {
  event.waitUntil(precacheAll());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== PRECACHE && name !== RUNTIME).map((name) => caches.delete(name)),
      );
      // The first version takes over the page that installed it, so that page works offline too.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  // The person chose to reload into the new version.
  if (isPageMessage(event.data)) void self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const handling = handlingOf(event.request, scope(), precached);
  switch (handling.kind) {
    case 'network':
      return;
    case 'app-shell':
      event.respondWith(fromPrecache('index.html', event.request));
      return;
    case 'precached':
      event.respondWith(fromPrecache(handling.path, event.request));
      return;
    case 'runtime':
      event.respondWith(cacheFirst(event.request));
      return;
    case 'page':
      event.respondWith(networkFirst(event.request));
      return;
  }
});

async function precacheAll(): Promise<void> {
  const cache = await caches.open(PRECACHE);
  const earlier = (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX) && name !== PRECACHE);
  // A few at a time: Pyodide's files are large, and the page is still loading.
  const queue = [...manifest.entries];
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) await precacheOne(cache, entry, earlier);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

async function precacheOne(cache: Cache, entry: PrecacheEntry, earlier: string[]): Promise<void> {
  const url = absolute(entry.url);
  if ((await cache.match(url))?.headers.get(REVISION_HEADER) === entry.revision) return;
  for (const name of earlier) {
    const kept = await (await caches.open(name)).match(url);
    if (kept?.headers.get(REVISION_HEADER) === entry.revision) {
      await cache.put(url, kept);
      return;
    }
  }
  // Past the HTTP cache: the file must be this build's.
  const response = await fetch(url, { cache: 'reload', credentials: 'same-origin' });
  if (!isKeepable(response)) throw new Error(`${entry.url} could not be saved for offline use (HTTP ${response.status})`);
  await cache.put(url, await withRevision(response, entry.revision));
}

async function withRevision(response: Response, revision: string): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set(REVISION_HEADER, revision);
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

async function fromPrecache(path: string, request: Request): Promise<Response> {
  const cached = await (await caches.open(PRECACHE)).match(absolute(path));
  return cached ?? fetch(request);
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(RUNTIME);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (isKeepable(response)) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(RUNTIME);
  try {
    const response = await fetch(request);
    if (isKeepable(response)) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}
