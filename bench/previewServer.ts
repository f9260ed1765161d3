// The production build the UI benchmarks measure: `vite build` into a folder of its own (so it
// never races the browser tests' dist/), and `vite preview` serving it on a free port.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { E2E_MODE } from '../vite.config.ts';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const viteBin = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');

/** Builds the app with the project's vite.config.ts into a new temporary folder; returns it.
 * `harness`: the browser tests' build, with the sandboxes' harness pages (`--mode e2e`). */
export async function buildApp(options: { harness?: boolean } = {}): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'orchestra-bench-dist-'));
  const mode = options.harness ? ['--mode', E2E_MODE] : [];
  const { code, output } = await runVite(['build', ...mode, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn']);
  if (code !== 0) throw new Error(`vite build failed (exit ${code}):\n${output.trim().split('\n').slice(-40).join('\n')}`);
  return outDir;
}

export interface PreviewServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `distDir` with `vite preview` on a free port of 127.0.0.1. `harness`: in the browser
 * tests' mode, as Playwright serves it (harness pages that need their own headers get them). */
export async function startPreview(distDir: string, timeoutMs = 60_000, options: { harness?: boolean } = {}): Promise<PreviewServer> {
  const port = await freePort();
  const mode = options.harness ? ['--mode', E2E_MODE] : [];
  const child = spawn(process.execPath, [viteBin, 'preview', ...mode, '--outDir', distDir, '--port', String(port), '--strictPort'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited (code ${child.exitCode}):\n${output.trim()}`);
    try {
      const response = await fetch(`${url}/`);
      if (response.ok) return { url, close: () => stop(child) };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop(child);
  throw new Error(`vite preview did not answer on ${url} within ${timeoutMs / 1000} s:\n${output.trim()}`);
}

/** The app as a UI benchmark opens it: served by `vite preview`, with a headless Chromium. */
export interface PreviewedApp {
  /** Whether the app was built for this run (then close() removes the build). */
  built: boolean;
  distDir: string;
  preview: PreviewServer;
  browser: Browser;
  close(): Promise<void>;
}

/** Serves `distDir`, or a fresh build when none is given, and launches Chromium beside it. */
export async function previewInChromium(options: { distDir?: string; log: (line: string) => void }): Promise<PreviewedApp> {
  const built = options.distDir === undefined;
  if (built) options.log('Building the app (vite build) …');
  const distDir = options.distDir ?? (await buildApp());
  const preview = await startPreview(distDir);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-background-networking'] });
  const close = async () => {
    await browser.close();
    await preview.close();
    if (built) rmSync(distDir, { recursive: true, force: true });
  };
  return { built, distDir, preview, browser, close };
}

function runVite(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [viteBin, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The Chromium the benchmarks drive: Debian's where installed, else CHROMIUM_PATH, else Playwright's own (as the tests do). */
export function chromiumPath(): string | undefined {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return process.env.CHROMIUM_PATH || undefined;
}
