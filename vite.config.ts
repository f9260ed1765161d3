import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { corpusPlugin } from './tools/search/writeCorpus.ts';
import { pyodideAssetsPlugin } from './tools/python/pyodideAssets.ts';

// Browser tests of parts that have no screen of their own (the sandboxes) load small harness
// pages from e2e/harness/. They are built beside the app so Playwright tests the production
// build; the playground itself never links to them.
const harnessDir = fileURLToPath(new URL('./e2e/harness/', import.meta.url));
const harnessPages = Object.fromEntries(
  readdirSync(harnessDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => [`harness-${entry.name.replace(/\.html$/, '')}`, `${harnessDir}${entry.name}`]),
);

// The playground is a static single-page app. Workers are ES modules so the engine
// (and later web-llm and Pyodide) can be imported inside them. The search corpus is generated
// from its npm packages into public/generated/ when a build or dev server starts.
export default defineConfig({
  plugins: [react(), corpusPlugin(), pyodideAssetsPlugin()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    rollupOptions: { input: { main: fileURLToPath(new URL('./index.html', import.meta.url)), ...harnessPages } },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
