import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { corpusPlugin } from './tools/search/writeCorpus.ts';
import { pyodideAssetsPlugin } from './tools/python/pyodideAssets.ts';
import { securityHeadersPlugin } from './server/securityHeaders.ts';
import { offlinePlugin } from './server/precachePlugin.ts';

/** `vite build --mode e2e`: the app plus the browser tests' harness pages, into dist-e2e/. */
export const E2E_MODE = 'e2e';

// Browser tests of parts that have no screen of their own (the sandboxes) load small harness
// pages from e2e/harness/. The e2e build adds them beside the app, so Playwright tests the
// production-built sandboxes; the production build (dist/) never contains them.
const harnessDir = fileURLToPath(new URL('./e2e/harness/', import.meta.url));
function harnessPages(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(harnessDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
      .map((entry) => [`harness-${entry.name.replace(/\.html$/, '')}`, `${harnessDir}${entry.name}`]),
  );
}

// The playground is a static single-page app. Workers are ES modules so the engine, web-llm and
// Pyodide can be imported inside them. The search corpus is generated from its npm packages into
// public/generated/ when a build or dev server starts. The preview and dev servers send the
// security headers the app needs (server/securityHeaders.ts). A build also gets the offline
// service worker, `sw.js`, with the list of files it saves (offlinePlugin).
export default defineConfig(({ mode }) => {
  const e2e = mode === E2E_MODE;
  return {
    plugins: [react(), corpusPlugin(), pyodideAssetsPlugin(), securityHeadersPlugin({ harnessPages: e2e }), offlinePlugin()],
    worker: { format: 'es' },
    build: {
      target: 'es2022',
      sourcemap: true,
      outDir: e2e ? 'dist-e2e' : 'dist',
      rollupOptions: {
        input: { main: fileURLToPath(new URL('./index.html', import.meta.url)), ...(e2e ? harnessPages() : {}) },
      },
    },
    server: { host: '127.0.0.1' },
    preview: { host: '127.0.0.1' },
  };
});
