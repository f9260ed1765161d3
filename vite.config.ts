import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The playground is a static single-page app. Workers are ES modules so the engine
// (and later web-llm and Pyodide) can be imported inside them.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
