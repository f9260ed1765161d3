// The headers the app must be served with, in one place: the Vite preview and dev servers send
// them (securityHeadersPlugin), and the production example in docs/security-sandboxes.md is
// generated from them (nginxExample; a test keeps the two equal).
//
// Every response gets cross-origin isolation (COOP + COEP), so the page and its workers may use
// SharedArrayBuffer: Python is then interrupted at its time limit instead of its worker being
// terminated. Every response gets a Content-Security-Policy too. A worker's policy is the one sent
// with its own script (not the page's), so each worker script gets the policy its job needs:
//
//   the page and any other script   scripts and connections to the app only
//   engine workers                   the orchestrator (model endpoints, Wikipedia, anywhere a
//                                    config points) and the web-llm model worker (weights and
//                                    model libraries from wherever a model's record points)
//   the GGUF model worker            GGUF files from anywhere, llama.cpp's blob: workers
//   sandbox workers                  no code from strings, no connections but what they load:
//                                    Python (its core from the app, packages from the CDN),
//                                    QuickJS and the documents reader (the app only), pdf.js and
//                                    the calculator (none)
//
// No policy allows 'unsafe-eval': WebAssembly is compiled under 'wasm-unsafe-eval' alone.

import { createRequire } from 'node:module';
import type { Connect, Plugin } from 'vite';
import { packageBaseUrlFor } from '../tools/python/pythonSandbox.ts';

type Directives = Readonly<Record<string, readonly string[]>>;

/** Cross-origin isolation. `require-corp` rather than `credentialless`: every cross-origin request
 * the app makes is a CORS fetch, which neither value restricts (both tested in Chromium), and
 * require-corp is the one Safari implements too (see docs/security-sandboxes.md). */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** Sent with everything besides the policy. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  ...ISOLATION_HEADERS,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const WASM = "'wasm-unsafe-eval'";

/** Nothing but what each directive names; no plugins, no <base>, no forms, never framed, no
 * workers (worker-src would otherwise fall back to script-src 'self'). */
const LOCKED: Directives = {
  'default-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'worker-src': ["'none'"],
};

/** The page (index.html) and every script not named in WORKER_POLICIES. Found in Chromium:
 * Monaco adds <style> elements and style attributes and draws its icons from a font (hence
 * style-src 'unsafe-inline'; styles cannot run code), recharts and React set styles through the
 * CSSOM, which CSP does not govern. */
export const DOCUMENT_DIRECTIVES: Directives = {
  ...LOCKED,
  'script-src': ["'self'", WASM],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
};

/** The orchestrator worker talks to whatever endpoints a config names (a vLLM server on
 * localhost, OpenAI, Wikipedia); the model worker downloads from wherever a model's record points
 * (Hugging Face and GitHub for the catalogue, a user's own host for converted weights). Neither
 * runs untrusted code: their scripts are the app's own. */
const ENGINE_DIRECTIVES: Directives = {
  ...LOCKED,
  'script-src': ["'self'", WASM],
  'connect-src': ["'self'", 'https:', 'http:'],
  'worker-src': ["'self'"],
};

/** The GGUF model worker (workers/hosts/models/gguf.worker.ts) downloads a model from wherever the user
 * or the catalogue points, and wllama starts llama.cpp in a worker built from a string (a blob:
 * URL, and more for its threads when the page is cross-origin isolated): blob: is allowed for
 * workers and scripts here and nowhere else. The code in those blobs is wllama's own, from the
 * app's bundle; no model or user input becomes code. Its .wasm comes from the app. */
const GGUF_WORKER_DIRECTIVES: Directives = {
  ...LOCKED,
  'script-src': ["'self'", WASM, 'blob:'],
  'connect-src': ["'self'", 'https:', 'http:'],
  'worker-src': ['blob:'],
};

/** Harness pages of the browser tests' build (`vite build --mode e2e`, served with `--mode e2e`)
 * that need a worker's policy on the page itself: the GGUF bench's page calls wllama on the page
 * (bench/gguf.bench.ts), as the GGUF model worker does, so it gets that worker's policy. The
 * production build has no such page, and its server never sends these. */
const HARNESS_PAGE_POLICIES: Readonly<Record<string, Directives>> = {
  '/e2e/harness/gguf-direct.html': GGUF_WORKER_DIRECTIVES,
};

/** The Python sandbox: Pyodide's core from the app, packages from the CDN folder of this exact
 * Pyodide version, nothing else. Its code is locked down as well (tools/python/python.worker.ts);
 * this is what still holds if that ever fails. */
export function pythonWorkerDirectives(pyodideVersion: string): Directives {
  return { ...LOCKED, 'script-src': ["'self'", WASM], 'connect-src': ["'self'", packageBaseUrlFor(pyodideVersion)] };
}

/** QuickJS: its wasm from the app. Guest code never sees this worker's globals. */
const JAVASCRIPT_WORKER_DIRECTIVES: Directives = { ...LOCKED, 'script-src': ["'self'", WASM], 'connect-src': ["'self'"] };

/** The documents worker: pdf.js's code from the app, pdf.js's worker started from it. */
const DOCUMENTS_WORKER_DIRECTIVES: Directives = { ...LOCKED, 'script-src': ["'self'"], 'connect-src': ["'self'"], 'worker-src': ["'self'"] };

/** pdf.js's own worker parses hostile PDFs, the calculator evaluates expressions a model wrote,
 * and the readers of run files and results files parse imported files (and keep what they read in
 * IndexedDB, which no policy governs): each loads its code from the app and connects nowhere. */
const CODE_ONLY_DIRECTIVES: Directives = { ...LOCKED, 'script-src': ["'self'"] };

export interface WorkerPolicy {
  /** The script's file name as Vite writes it, before `-<hash>` (build) or `.ts`/`.mjs` (dev). */
  stem: string;
  directives: Directives;
}

export function workerPolicies(pyodideVersion: string): readonly WorkerPolicy[] {
  return [
    { stem: 'orchestrator.worker', directives: ENGINE_DIRECTIVES },
    { stem: 'webllm.worker', directives: ENGINE_DIRECTIVES },
    { stem: 'gguf.worker', directives: GGUF_WORKER_DIRECTIVES },
    { stem: 'python.worker', directives: pythonWorkerDirectives(pyodideVersion) },
    { stem: 'javascript.worker', directives: JAVASCRIPT_WORKER_DIRECTIVES },
    { stem: 'documents.worker', directives: DOCUMENTS_WORKER_DIRECTIVES },
    { stem: 'pdf.worker.min', directives: CODE_ONLY_DIRECTIVES },
    { stem: 'calculator.worker', directives: CODE_ONLY_DIRECTIVES },
    { stem: 'runFileImport.worker', directives: CODE_ONLY_DIRECTIVES },
    { stem: 'runFileExport.worker', directives: CODE_ONLY_DIRECTIVES },
    { stem: 'resultsRead.worker', directives: CODE_ONLY_DIRECTIVES },
  ];
}

export function serializePolicy(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/** The worker policy for a request path, or null for the page and other files. Matches the
 * build's `/assets/<stem>-<hash>.js` and the dev server's `/…/<stem>.ts?worker_file…`. */
export function workerPolicyFor(pathname: string, policies: readonly WorkerPolicy[]): WorkerPolicy | null {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  return policies.find((policy) => name.startsWith(policy.stem) && /^[-.]/.test(name.slice(policy.stem.length))) ?? null;
}

/** Every header for one response. `documentPolicy: false` leaves the page without a policy (the
 * dev server: its hot reload injects inline scripts), while workers keep theirs. */
export function headersFor(
  pathname: string,
  options: { pyodideVersion: string; documentPolicy: boolean; harnessPages?: boolean },
): Record<string, string> {
  const worker = workerPolicyFor(pathname, workerPolicies(options.pyodideVersion));
  const harness = options.harnessPages ? HARNESS_PAGE_POLICIES[pathname] : undefined;
  const directives = worker?.directives ?? harness ?? (options.documentPolicy ? DOCUMENT_DIRECTIVES : null);
  return { ...COMMON_HEADERS, ...(directives ? { 'Content-Security-Policy': serializePolicy(directives) } : {}) };
}

export function installedPyodideVersion(): string {
  const manifest = createRequire(import.meta.url)('pyodide/package.json') as { version: string };
  return manifest.version;
}

function middleware(options: { pyodideVersion: string; documentPolicy: boolean; harnessPages: boolean }): Connect.NextHandleFunction {
  return (request, response, next) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    for (const [name, value] of Object.entries(headersFor(pathname, options))) response.setHeader(name, value);
    next();
  };
}

/** Sends the headers from the preview server (all of them) and the dev server (all but the page's
 * policy). `harnessPages`: the browser tests' mode, whose harness pages may need their own. */
export function securityHeadersPlugin(options: { harnessPages?: boolean } = {}): Plugin {
  const pyodideVersion = installedPyodideVersion();
  const harnessPages = options.harnessPages ?? false;
  return {
    name: 'security-headers',
    configureServer(server) {
      server.middlewares.use(middleware({ pyodideVersion, documentPolicy: false, harnessPages }));
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware({ pyodideVersion, documentPolicy: true, harnessPages }));
    },
  };
}

/** The production example: an nginx server block serving dist/ with the same headers (the http
 * block includes nginx's mime.types, which maps .wasm to application/wasm). nginx drops the outer
 * add_header lines in a location that has its own, so each location lists all of them. */
export function nginxExample(pyodideVersion: string): string {
  const lines = (headers: Record<string, string>) =>
    Object.entries(headers).map(([name, value]) => `        add_header ${name} "${value}" always;`);
  const block = [
    'server {',
    '    listen 443 ssl;',
    '    server_name playground.example.org;',
    '    root /srv/orchestra-playground/dist;',
    '',
    '    location / {',
    '        try_files $uri $uri/ /index.html;',
    ...lines(headersFor('/index.html', { pyodideVersion, documentPolicy: true })),
    '    }',
  ];
  // Module scripts need a JavaScript type, and mime.types before nginx 1.23 lacks .mjs (Pyodide's
  // loader, pdf.js's worker). Regular-expression locations match in order: the workers first.
  const javascriptOnly = ['        types { }', '        default_type text/javascript;'];
  for (const policy of workerPolicies(pyodideVersion)) {
    block.push(
      '',
      `    location ~ ^/assets/${policy.stem.replaceAll('.', '\\.')}-[^/]+\\.m?js$ {`,
      ...javascriptOnly,
      ...lines({ ...COMMON_HEADERS, 'Content-Security-Policy': serializePolicy(policy.directives) }),
      '    }',
    );
  }
  block.push(
    '',
    '    location ~ \\.mjs$ {',
    ...javascriptOnly,
    ...lines(headersFor('/index.html', { pyodideVersion, documentPolicy: true })),
    '    }',
    '}',
  );
  return block.join('\n');
}
