import { describe, expect, it } from 'vitest';
import { handlingOf, isKeepable, type RequestFacts } from './cachePolicy.ts';

const SCOPE = 'https://play.example/app/';
const PRECACHED = new Set(['index.html', 'assets/main-abc.js', 'generated/corpus.json', 'pyodide/pyodide.asm.wasm']);

function request(url: string, fields: Partial<Omit<RequestFacts, 'url' | 'headers'>> & { headers?: string[] } = {}): RequestFacts {
  const names = new Set((fields.headers ?? []).map((name) => name.toLowerCase()));
  return { url, method: fields.method ?? 'GET', mode: fields.mode ?? 'cors', headers: { has: (name) => names.has(name.toLowerCase()) } };
}

describe('how the service worker answers a request', () => {
  it('serves the app shell for a page load of the app, whatever its query or hash', () => {
    expect(handlingOf(request(`${SCOPE}`, { mode: 'navigate' }), SCOPE, PRECACHED)).toEqual({ kind: 'app-shell' });
    expect(handlingOf(request(`${SCOPE}index.html`, { mode: 'navigate' }), SCOPE, PRECACHED)).toEqual({ kind: 'app-shell' });
    expect(handlingOf(request(`${SCOPE}?config=x#step-2`, { mode: 'navigate' }), SCOPE, PRECACHED)).toEqual({ kind: 'app-shell' });
  });

  it('serves precached build files, the corpus and Pyodide from the cache', () => {
    expect(handlingOf(request(`${SCOPE}assets/main-abc.js`), SCOPE, PRECACHED)).toEqual({ kind: 'precached', path: 'assets/main-abc.js' });
    expect(handlingOf(request(`${SCOPE}generated/corpus.json`), SCOPE, PRECACHED)).toEqual({ kind: 'precached', path: 'generated/corpus.json' });
    expect(handlingOf(request(`${SCOPE}pyodide/pyodide.asm.wasm`), SCOPE, PRECACHED)).toEqual({ kind: 'precached', path: 'pyodide/pyodide.asm.wasm' });
    // An asset the first load does not need (web-llm's chunks) is kept once it is used.
    expect(handlingOf(request(`${SCOPE}assets/lib-123.js`), SCOPE, PRECACHED)).toEqual({ kind: 'runtime' });
    // Another page of the site: the network first.
    expect(handlingOf(request(`${SCOPE}e2e/harness/python.html`, { mode: 'navigate' }), SCOPE, PRECACHED)).toEqual({ kind: 'page' });
  });

  it('never touches API calls, other origins, requests with credentials or with a query', () => {
    const network = { kind: 'network' };
    // A model server on the same origin (behind a proxy) is still an API.
    expect(handlingOf(request(`${SCOPE}v1/chat/completions`, { method: 'POST' }), SCOPE, PRECACHED)).toEqual(network);
    expect(handlingOf(request(`${SCOPE}v1/models`), SCOPE, PRECACHED)).toEqual(network);
    expect(handlingOf(request(`${SCOPE}assets/main-abc.js`, { headers: ['Authorization'] }), SCOPE, PRECACHED)).toEqual(network);
    expect(handlingOf(request(`${SCOPE}assets/main-abc.js`, { headers: ['x-api-key'] }), SCOPE, PRECACHED)).toEqual(network);
    expect(handlingOf(request(`${SCOPE}assets/main-abc.js?key=secret`), SCOPE, PRECACHED)).toEqual(network);
    expect(handlingOf(request('https://api.openai.com/v1/chat/completions', { method: 'POST' }), SCOPE, PRECACHED)).toEqual(network);
    // web-llm's model files keep their own cache.
    expect(handlingOf(request('https://huggingface.co/mlc-ai/Qwen3-0.6B/resolve/main/params_shard_0.bin'), SCOPE, PRECACHED)).toEqual(network);
    // Outside the app's base path, even on its origin.
    expect(handlingOf(request('https://play.example/other/assets/main-abc.js'), SCOPE, PRECACHED)).toEqual(network);
    expect(handlingOf(request(`${SCOPE}e2e/harness/python.html?x=1`, { mode: 'navigate' }), SCOPE, PRECACHED)).toEqual(network);
  });

  it('keeps only complete, successful responses of this origin', () => {
    expect(isKeepable({ ok: true, status: 200, type: 'basic' })).toBe(true);
    expect(isKeepable({ ok: true, status: 206, type: 'basic' })).toBe(false);
    expect(isKeepable({ ok: false, status: 404, type: 'basic' })).toBe(false);
    expect(isKeepable({ ok: false, status: 0, type: 'opaque' })).toBe(false);
  });
});
