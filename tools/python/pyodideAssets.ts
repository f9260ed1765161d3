// Vite plugin (runs in Node): the app serves Pyodide's core runtime itself rather than from a
// CDN. The dev server answers `<base>pyodide/<file>` from node_modules/pyodide; a build copies the
// same files into the output's pyodide/ folder. Packages beyond the core come from the CDN.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** The files loadPyodide fetches for the core runtime, with the type each must be served as. */
export const PYODIDE_CORE_FILES: Readonly<Record<string, string>> = {
  'pyodide.mjs': 'text/javascript',
  'pyodide.asm.mjs': 'text/javascript',
  'pyodide.asm.wasm': 'application/wasm',
  'python_stdlib.zip': 'application/zip',
  'pyodide-lock.json': 'application/json',
};

export function pyodidePackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
}

export function pyodideAssetsPlugin(): Plugin {
  const sourceDir = pyodidePackageDir();
  let base = '/';
  return {
    name: 'pyodide-assets',
    configResolved(config) {
      base = config.base;
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = new URL(request.url ?? '/', 'http://localhost').pathname;
        const prefix = `${base}pyodide/`;
        const name = path.startsWith(prefix) ? path.slice(prefix.length) : null;
        const type = name !== null && Object.hasOwn(PYODIDE_CORE_FILES, name) ? PYODIDE_CORE_FILES[name] : undefined;
        if (name === null || type === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
          next();
          return;
        }
        const file = join(sourceDir, name);
        response.setHeader('Content-Type', type);
        response.setHeader('Content-Length', statSync(file).size);
        response.setHeader('Cache-Control', 'no-cache');
        response.end(request.method === 'HEAD' ? undefined : readFileSync(file));
      });
    },
    generateBundle() {
      for (const name of Object.keys(PYODIDE_CORE_FILES)) {
        this.emitFile({ type: 'asset', fileName: `pyodide/${name}`, source: readFileSync(join(sourceDir, name)) });
      }
    },
  };
}
