// The anchor of the GGUF bench: native llama.cpp on the same GGUF file and thread count, through
// node-llama-cpp's prebuilt binary for this platform. Installed on demand, by the bench only, into
// .cache/bench/node-llama-cpp (git-ignored): with its CUDA and Vulkan builds, which npm would
// install as optional dependencies of node-llama-cpp on Linux, the package weighs hundreds of MB,
// and nothing but this bench needs it (docs/benchmarks.md).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Pinned: newer releases' lock entries name builds for other platforms that npm may refuse. */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';
const folder = fileURLToPath(new URL('../.cache/bench/node-llama-cpp/', import.meta.url));

/** node-llama-cpp's CPU build for this machine, or undefined where it publishes none. */
function prebuiltPackage(): string | undefined {
  const names: Record<string, string> = {
    'linux-x64': 'linux-x64',
    'linux-arm64': 'linux-arm64',
    'darwin-arm64': 'mac-arm64-metal',
    'darwin-x64': 'mac-x64',
    'win32-x64': 'win-x64',
    'win32-arm64': 'win-arm64',
  };
  const name = names[`${process.platform}-${process.arch}`];
  return name ? `@node-llama-cpp/${name}` : undefined;
}

function npm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`npm ${args.join(' ')} exited ${code}:\n${output.trim().split('\n').slice(-15).join('\n')}`))));
  });
}

interface NodeLlamaCpp {
  getLlama(options: { gpu: false; build: 'never'; logLevel: string }): Promise<Llama>;
  LlamaLogLevel: { error: string };
}
interface Llama {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  dispose(): Promise<void>;
}
interface LlamaModel {
  tokenize(text: string): number[];
  createContext(options: { contextSize: number; threads: number; batchSize: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}
interface LlamaContext {
  getSequence(): { evaluate(tokens: number[], options: { temperature: number }): AsyncGenerator<number> };
  dispose(): Promise<void>;
}

/** Installs node-llama-cpp and its prebuilt binary into the bench's cache folder the first time,
 * saying so; returns the module. */
export async function loadNodeLlamaCpp(log: (line: string) => void): Promise<NodeLlamaCpp> {
  const binary = prebuiltPackage();
  if (!binary) throw new Error(`node-llama-cpp publishes no prebuilt binary for ${process.platform}-${process.arch}`);
  const entry = join(folder, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  if (!existsSync(entry) || !existsSync(join(folder, 'node_modules', ...binary.split('/')))) {
    log(`GGUF: installing node-llama-cpp ${NODE_LLAMA_CPP_VERSION} and ${binary} (about 85 MB, once) into .cache/bench/node-llama-cpp for the native llama.cpp anchor …`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ private: true, name: 'bench-native-llama' }));
    // --omit=optional: only this platform's CPU build, not every GPU build for it.
    await npm(['install', '--no-save', '--no-audit', '--no-fund', '--omit=optional', '-E', `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`, `${binary}@${NODE_LLAMA_CPP_VERSION}`], folder);
  }
  return (await import(pathToFileURL(entry).href)) as NodeLlamaCpp;
}

export interface NativeCall {
  promptTokens: number;
  prefillMs: number;
  decodedTokens: number;
  decodeMs: number;
}

/** One raw completion of `prompt` (no chat template), greedy: the prompt's prefill, timed to the
 * first generated token, then `decodeTokens` more tokens. */
export async function nativeCalls(
  module: NodeLlamaCpp,
  modelPath: string,
  options: { threads: number; contextSize: number; prompt: string; decodeTokens: number; samples: number },
): Promise<NativeCall[]> {
  const llama = await module.getLlama({ gpu: false, build: 'never', logLevel: module.LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  try {
    const calls: NativeCall[] = [];
    // One warm-up call, as the wasm side gets, then the measured ones; a fresh context each, so
    // nothing of the last prompt is reused.
    for (let index = 0; index <= options.samples; index++) {
      const context = await model.createContext({ contextSize: options.contextSize, threads: options.threads, batchSize: 512 });
      try {
        const tokens = model.tokenize(options.prompt);
        const generator = context.getSequence().evaluate(tokens, { temperature: 0 });
        let started = performance.now();
        await generator.next();
        const prefillMs = performance.now() - started;
        started = performance.now();
        let decoded = 0;
        while (decoded < options.decodeTokens && !(await generator.next()).done) decoded++;
        const decodeMs = performance.now() - started;
        await generator.return(undefined);
        if (index > 0) calls.push({ promptTokens: tokens.length, prefillMs, decodedTokens: decoded, decodeMs });
      } finally {
        await context.dispose();
      }
    }
    return calls;
  } finally {
    await model.dispose();
    await llama.dispose();
  }
}
