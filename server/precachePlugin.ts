// Vite plugin (runs in Node, builds only): builds the service worker to the app's root as
// `sw.js` and writes into it the precache manifest of this build: every file of the build with
// a hash of its content, and the files of public/ (the search corpus in generated/, the icon).
// Left out: source maps, the test harness pages (e2e/harness/) and their scripts, and web-llm's
// chunks (12 MB that only a browser with WebGPU and a downloaded model needs: the service worker
// keeps them once they are used), and llama.cpp's (wllama's 10 MB .wasm and the GGUF model
// worker that holds its glue: only a GGUF model needs them). The dev server (`npm start`) registers no service worker.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { PrecacheEntry, PrecacheManifest } from '../workers/hosts/offline/cachePolicy.ts';

const SERVICE_WORKER_ENTRY = fileURLToPath(new URL('../workers/hosts/offline/serviceWorker.ts', import.meta.url));
export const SERVICE_WORKER_FILE = 'sw.js';
/** The placeholder serviceWorker.ts parses; minifiers keep string literals, perhaps requoted. */
const PLACEHOLDER = /(["'`])__OFFLINE_PRECACHE_MANIFEST__\1/;
/** A string only web-llm's bundles hold (the name of its model cache). */
const WEBLLM_MARK = 'webllm/model';
/** A string only wllama's bundle holds (the name of llama.cpp's .wasm in its path table). */
const WLLAMA_MARK = '"wllama.wasm" is missing';

export interface BuiltFile {
  fileName: string;
  /** The chunk's entry name, for scripts (`main`, `harness-python`…). */
  name?: string;
  content: string | Uint8Array;
}

/** Whether a built file belongs in the precache (see the top of this file for what does not). */
export function isPrecached(file: BuiltFile): boolean {
  if (file.fileName === SERVICE_WORKER_FILE || file.fileName.endsWith('.map')) return false;
  if (file.fileName.startsWith('e2e/') || file.name?.startsWith('harness-')) return false;
  if (file.fileName.endsWith('.js') && textOf(file.content).includes(WEBLLM_MARK)) return false;
  if (/(^|\/)wllama-[^/]*\.wasm$/.test(file.fileName)) return false;
  if (file.fileName.endsWith('.js') && textOf(file.content).includes(WLLAMA_MARK)) return false;
  return true;
}

/** The manifest for these files: each with a hash of its content, and a version over all. */
export function precacheManifest(files: readonly BuiltFile[]): PrecacheManifest {
  const entries: PrecacheEntry[] = files
    .filter(isPrecached)
    .map((file) => ({ url: file.fileName, revision: hash(file.content) }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { version: hash(JSON.stringify(entries)), entries };
}

export function offlinePlugin(): Plugin {
  let publicDir = '';
  return {
    name: 'offline-precache',
    apply: 'build',
    config() {
      return {
        build: {
          rollupOptions: {
            input: { sw: SERVICE_WORKER_ENTRY },
            // The service worker keeps one name at the root (its scope is the folder it is in).
            output: { entryFileNames: (chunk) => (chunk.name === 'sw' ? SERVICE_WORKER_FILE : 'assets/[name]-[hash].js') },
          },
        },
      };
    },
    configResolved(config) {
      publicDir = config.publicDir;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const worker = bundle[SERVICE_WORKER_FILE];
        if (!worker || worker.type !== 'chunk') throw new Error(`The build has no ${SERVICE_WORKER_FILE} chunk.`);
        if (worker.imports.length > 0) throw new Error(`${SERVICE_WORKER_FILE} must be one file; it imports ${worker.imports.join(', ')}.`);
        const built: BuiltFile[] = Object.values(bundle).map((file) =>
          file.type === 'chunk' ? { fileName: file.fileName, name: file.name, content: file.code } : { fileName: file.fileName, content: file.source },
        );
        const manifest = precacheManifest([...built, ...publicFiles(publicDir)]);
        if (!manifest.entries.some((entry) => entry.url === 'index.html')) throw new Error('The precache has no index.html.');
        if (!PLACEHOLDER.test(worker.code)) throw new Error(`${SERVICE_WORKER_FILE} lost its manifest placeholder.`);
        worker.code = worker.code.replace(PLACEHOLDER, () => JSON.stringify(JSON.stringify(manifest)));
      },
    },
  };
}

/** Everything in public/, as the build copies it to the output's root. */
function publicFiles(dir: string): BuiltFile[] {
  if (!dir) return [];
  const files: BuiltFile[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push({ fileName: relative(dir, path).split(sep).join('/'), content: readFileSync(path) });
    }
  };
  try {
    walk(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return files;
}

function textOf(content: string | Uint8Array): string {
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}

function hash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}
