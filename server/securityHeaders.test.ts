import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer, type UserConfig, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig, { E2E_MODE } from '../vite.config.ts';
import {
  DOCUMENT_DIRECTIVES,
  headersFor,
  installedPyodideVersion,
  nginxExample,
  serializePolicy,
  workerPolicies,
  workerPolicyFor,
} from './securityHeaders.ts';

const version = installedPyodideVersion();
const policies = workerPolicies(version);
const repoRoot = fileURLToPath(new URL('../', import.meta.url));

function directivesOf(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

describe('security headers', () => {
  it('finds each worker script by its name, as the build and the dev server write it', () => {
    expect(workerPolicyFor('/assets/python.worker-UW9p0266.js', policies)?.stem).toBe('python.worker');
    expect(workerPolicyFor('/tools/python/python.worker.ts', policies)?.stem).toBe('python.worker');
    expect(workerPolicyFor('/assets/pdf.worker.min-C8PGFc0r.mjs', policies)?.stem).toBe('pdf.worker.min');
    expect(workerPolicyFor('/node_modules/pdfjs-dist/legacy/build/pdf.worker.min.mjs', policies)?.stem).toBe('pdf.worker.min');
    expect(workerPolicyFor('/assets/orchestrator.worker-zYSDckA5.js', policies)?.stem).toBe('orchestrator.worker');
    // Monaco's workers, the page and other scripts get the page's policy.
    for (const path of ['/', '/index.html', '/assets/editor.worker-CX7Cj20z.js', '/assets/main-B1.js', '/assets/mypython.worker-1.js']) {
      expect(workerPolicyFor(path, policies), path).toBeNull();
    }
  });

  it('never allows code from strings; WebAssembly compiles under wasm-unsafe-eval alone', () => {
    for (const directives of [DOCUMENT_DIRECTIVES, ...policies.map((policy) => policy.directives)]) {
      const policy = serializePolicy(directives);
      expect(policy).not.toMatch(/unsafe-eval'(?<!wasm-unsafe-eval')/);
      expect(policy).not.toContain("'unsafe-eval'");
      expect(directivesOf(policy).get('default-src')).toEqual(["'none'"]);
      expect(directivesOf(policy).get('script-src')?.[0]).toBe("'self'");
      expect(directivesOf(policy).get('script-src')).not.toContain("'unsafe-inline'");
    }
  });

  it('lets the Python sandbox connect only to the app and the package folder of its exact Pyodide version', () => {
    const headers = headersFor('/assets/python.worker-UW9p0266.js', { pyodideVersion: version, documentPolicy: true });
    const directives = directivesOf(headers['Content-Security-Policy'] ?? '');
    expect(directives.get('connect-src')).toEqual(["'self'", `https://cdn.jsdelivr.net/pyodide/v${version}/full/`]);
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get('worker-src')).toEqual(["'none'"]);
  });

  it('lets pdf.js, which parses hostile files, connect nowhere', () => {
    const headers = headersFor('/assets/pdf.worker.min-C8PGFc0r.mjs', { pyodideVersion: version, documentPolicy: true });
    const directives = directivesOf(headers['Content-Security-Policy'] ?? '');
    expect(directives.has('connect-src')).toBe(false);
    expect(directives.get('default-src')).toEqual(["'none'"]);
  });

  it('isolates every response; the dev server leaves the page without a policy but keeps the workers’', () => {
    for (const documentPolicy of [true, false]) {
      for (const path of ['/', '/assets/python.worker-1.js', '/pyodide/pyodide.asm.wasm']) {
        expect(headersFor(path, { pyodideVersion: version, documentPolicy })).toMatchObject({
          'Cross-Origin-Opener-Policy': 'same-origin',
          'Cross-Origin-Embedder-Policy': 'require-corp',
        });
      }
    }
    expect(headersFor('/', { pyodideVersion: version, documentPolicy: false })['Content-Security-Policy']).toBeUndefined();
    expect(headersFor('/', { pyodideVersion: version, documentPolicy: true })['Content-Security-Policy']).toBe(
      serializePolicy(DOCUMENT_DIRECTIVES),
    );
  });

  it("gives the GGUF bench's direct wllama page the GGUF model worker's policy, in the tests' mode only", () => {
    const direct = '/e2e/harness/gguf-direct.html';
    const worker = headersFor('/assets/gguf.worker-Ab12.js', { pyodideVersion: version, documentPolicy: true })['Content-Security-Policy'];
    expect(headersFor(direct, { pyodideVersion: version, documentPolicy: true, harnessPages: true })['Content-Security-Policy']).toBe(worker);
    expect(headersFor(direct, { pyodideVersion: version, documentPolicy: true })['Content-Security-Policy']).toBe(serializePolicy(DOCUMENT_DIRECTIVES));
    expect(headersFor('/e2e/harness/gguf.html', { pyodideVersion: version, documentPolicy: true, harnessPages: true })['Content-Security-Policy']).toBe(
      serializePolicy(DOCUMENT_DIRECTIVES),
    );
  });

  it('documents the production example exactly as the code builds it', () => {
    const doc = readFileSync(new URL('../docs/security-sandboxes.md', import.meta.url), 'utf8');
    expect(doc).toContain(nginxExample(version));
  });
});

describe('the builds', () => {
  const configFor = (mode: string) =>
    (viteConfig as (env: { mode: string; command: 'build'; isSsrBuild: boolean; isPreview: boolean }) => UserConfig)({
      mode,
      command: 'build',
      isSsrBuild: false,
      isPreview: false,
    });

  it('leaves the harness pages out of the production build and puts them in the e2e build', () => {
    const production = configFor('production').build;
    expect(production?.outDir).toBe('dist');
    expect(Object.keys(production?.rollupOptions?.input ?? {})).toEqual(['main']);
    const e2e = configFor(E2E_MODE).build;
    expect(e2e?.outDir).toBe('dist-e2e');
    expect(Object.keys(e2e?.rollupOptions?.input ?? {})).toEqual(expect.arrayContaining(['main', 'harness-python', 'harness-javascript']));
  });
});

describe('the dev server', () => {
  let server: ViteDevServer;
  let origin: string;

  beforeAll(async () => {
    server = await createServer({ root: repoRoot, configFile: `${repoRoot}vite.config.ts`, logLevel: 'silent', server: { port: 0, host: '127.0.0.1' } });
    await server.listen();
    origin = `http://127.0.0.1:${(server.httpServer?.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('sends the Python worker script its policy, and isolation with everything', async () => {
    const worker = await fetch(`${origin}/tools/python/python.worker.ts?worker_file&type=module`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-security-policy')).toBe(serializePolicy(policies.find((p) => p.stem === 'python.worker')!.directives));
    expect(worker.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    const page = await fetch(`${origin}/`);
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(page.headers.get('content-security-policy')).toBeNull();
  });
});
