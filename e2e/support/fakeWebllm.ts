// Serving the fake model worker (fakeWebllmWorker.ts) in place of the real one. The page starts
// one model worker per model it loads, from the built `assets/webllm.worker-<hash>.js`; each
// request for that script gets the fake, with the next script in the list (so the first model
// loaded gets the first script), under the real script's headers. Bundled once per test worker
// with Vite's own build API.

import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { build } from 'vite';
import type { FakeEngineScript } from '../fixtures/doubles/fakeWebLlmEngine.ts';
import { fetchThroughRoute } from './routes.ts';

const entry = fileURLToPath(new URL('./fakeWebllmWorker.ts', import.meta.url));
let bundled: Promise<string> | null = null;

async function bundle(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry, formats: ['es'], fileName: 'fake-webllm-worker' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!('output' in output)) continue;
    const chunk = output.output.find((item) => item.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return chunk.code;
  }
  throw new Error('Bundling the fake model worker produced no code.');
}

export interface FakeModelWorkers {
  /** How many model workers were started with the fake (one per model loaded). */
  served: number;
}

/**
 * Answers every request for the model worker's script with the fake engine and its script. Pass
 * the browser context where a service worker is allowed: it fetches the script itself, and only
 * the context's routes see a service worker's requests.
 */
export async function serveFakeModelWorkers(target: Page | BrowserContext, scripts: FakeEngineScript[]): Promise<FakeModelWorkers> {
  bundled ??= bundle();
  const code = await bundled;
  const state: FakeModelWorkers = { served: 0 };
  await target.route('**/assets/webllm.worker-*.js', async (route) => {
    const script = scripts[state.served] ?? {};
    state.served++;
    // Served with the real script's headers (its Content-Security-Policy, cross-origin isolation),
    // so the fake runs under the policy the real worker gets.
    const real = await fetchThroughRoute(route);
    const headers = Object.fromEntries(Object.entries(real.headers()).filter(([name]) => name !== 'content-length'));
    await route.fulfill({ headers, contentType: 'text/javascript', body: `self.fakeEngineScript = ${JSON.stringify(script)};\n${code}` });
  });
  return state;
}
