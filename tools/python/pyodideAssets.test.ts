import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYODIDE_CORE_FILES, pyodideAssetsPlugin, pyodidePackageDir } from './pyodideAssets.ts';

// A real Vite dev server and a real build of a one-page app with only this plugin.
const root = mkdtempSync(join(tmpdir(), 'pyodide-assets-'));
writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title><script type="module">console.log(1)</script>');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('pyodideAssetsPlugin in the dev server', () => {
  let server: ViteDevServer;
  let origin: string;

  beforeAll(async () => {
    server = await createServer({
      root,
      base: '/playground/',
      configFile: false,
      appType: 'custom',
      logLevel: 'silent',
      plugins: [pyodideAssetsPlugin()],
      server: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    await server.listen();
    const address = server.httpServer?.address();
    if (!address || typeof address === 'string') throw new Error('the dev server has no port');
    origin = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await server.close();
  });

  it('serves every core file under <base>pyodide/ with its type and exact bytes', async () => {
    for (const [name, type] of Object.entries(PYODIDE_CORE_FILES)) {
      const response = await fetch(`${origin}/playground/pyodide/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toBe(type);
      const body = new Uint8Array(await response.arrayBuffer());
      expect(Buffer.compare(body, readFileSync(join(pyodidePackageDir(), name))), name).toBe(0);
    }
  });

  it('answers HEAD without a body', async () => {
    const response = await fetch(`${origin}/playground/pyodide/pyodide.asm.wasm`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(1_000_000);
  });

  it('serves nothing else from the package', async () => {
    const others = [
      '/playground/pyodide/package.json',
      '/playground/pyodide/pyodide.js',
      '/playground/pyodide/%2e%2e/package.json',
      '/pyodide/pyodide.mjs',
    ];
    for (const path of others) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(404);
    }
  });
});

describe('pyodideAssetsPlugin in a build', () => {
  it('copies the core files into the output pyodide/ folder', async () => {
    const outDir = join(root, 'dist');
    await build({ root, configFile: false, logLevel: 'silent', plugins: [pyodideAssetsPlugin()], build: { outDir } });
    for (const name of Object.keys(PYODIDE_CORE_FILES)) {
      const built = join(outDir, 'pyodide', name);
      expect(existsSync(built), name).toBe(true);
      expect(Buffer.compare(readFileSync(built), readFileSync(join(pyodidePackageDir(), name))), name).toBe(0);
    }
  });
});
