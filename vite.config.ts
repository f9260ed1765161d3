import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { corpusPlugin } from './tools/search/writeCorpus.ts';

// The playground is a static single-page app. Workers are ES modules so the engine
// (and later web-llm and Pyodide) can be imported inside them. The search corpus is generated
// from its npm packages into public/generated/ when a build or dev server starts.
export default defineConfig({
  plugins: [react(), corpusPlugin()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
