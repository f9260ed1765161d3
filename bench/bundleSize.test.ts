import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { copiesOf, generatedBytesPerSource, measureBundle, ownerOf, repoRelativeSource, staticImportsOf } from './bundleSize.ts';

let distDir: string | undefined;

afterEach(() => {
  if (distDir) rmSync(distDir, { recursive: true, force: true });
  distDir = undefined;
});

function writeDist(files: Record<string, string>): string {
  distDir = mkdtempSync(join(tmpdir(), 'bundle-size-test-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(distDir, name)), { recursive: true });
    writeFileSync(join(distDir, name), content);
  }
  return distDir;
}

const gzipSize = (text: string) => gzipSync(Buffer.from(text)).length;
const repoFile = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const MAIN = 'import{s as a}from"./shared-1.js";import"./side-2.js";new Worker(new URL("/assets/engine.worker-3.js",import.meta.url));const c=()=>import("./chart-4.js");';
const SHARED = 'export const s=1;export*from"./deep-5.js";';
const DEEP = 'export const d=2;';
const SIDE = 'console.log("side effect");';
const PRELOADED = 'export const p=3;';
const WORKER = 'import{s}from"./shared-1.js";fetch(new URL("./engine-6.wasm",import.meta.url));';
const CHART = 'import{s}from"./shared-1.js";export const chart=s;';
const HARNESS = 'import{s}from"./shared-1.js";import"./harness-only-7.js";';

function sampleDist(): string {
  return writeDist({
    'index.html':
      '<!doctype html><html><head>' +
      '<script type="module" crossorigin src="/assets/main-0.js"></script>' +
      "<link rel='modulepreload' crossorigin href='/assets/preloaded-8.js'>" +
      '<link rel="stylesheet" href="/assets/main-0.css">' +
      '<script src="https://example.com/analytics.js"></script>' +
      '</head><body></body></html>',
    'assets/main-0.js': MAIN,
    'assets/main-0.css': 'body{color:red}',
    'assets/shared-1.js': SHARED,
    'assets/deep-5.js': DEEP,
    'assets/side-2.js': SIDE,
    'assets/preloaded-8.js': PRELOADED,
    'assets/engine.worker-3.js': WORKER,
    'assets/engine-6.wasm': 'wasm bytes',
    'assets/chart-4.js': CHART,
    'e2e/harness/sandbox.html': '<script type="module" src="/assets/harness-9.js"></script>',
    'assets/harness-9.js': HARNESS,
    'assets/harness-only-7.js': 'export{}',
    'pyodide/pyodide.mjs': 'export const loadPyodide=1;',
    'pyodide/pyodide.asm.wasm': 'more wasm',
    // The first 10 characters come from react-dom, the rest from app/main.tsx (U: column + 10, C: next source).
    'assets/main-0.js.map': JSON.stringify({
      version: 3,
      sources: [repoFile('node_modules/react-dom/index.js'), repoFile('app/main.tsx')],
      mappings: 'AAAA,UCAA',
    }),
  });
}

describe('measureBundle', () => {
  it('counts the entry, its modulepreloads and their static imports as the first load', () => {
    const report = measureBundle(sampleDist());
    expect(report.firstLoad.files.map((file) => file.file).sort()).toEqual([
      'assets/deep-5.js',
      'assets/main-0.js',
      'assets/preloaded-8.js',
      'assets/shared-1.js',
      'assets/side-2.js',
    ]);
    const expectedGzip = [MAIN, SHARED, DEEP, SIDE, PRELOADED].reduce((sum, text) => sum + gzipSize(text), 0);
    expect(report.firstLoad.gzipBytes).toBe(expectedGzip);
    expect(report.firstLoad.bytes).toBe([MAIN, SHARED, DEEP, SIDE, PRELOADED].join('').length);
    expect(report.css.files.map((file) => file.file)).toEqual(['assets/main-0.css']);
  });

  it('says what a chunk is made of by generated characters, from its source map', () => {
    const main = measureBundle(sampleDist()).firstLoad.files.find((file) => file.file === 'assets/main-0.js');
    const appShare = Math.round(((MAIN.length - 10) / MAIN.length) * 100);
    expect(main?.contents).toEqual([`app ${appShare}%`, `react-dom ${100 - appShare}%`]);
  });

  it('lists what the first load reaches by name as lazy, and keeps harness-only and unnamed files apart', () => {
    const report = measureBundle(sampleDist());
    expect(report.lazy.files.map((file) => file.file).sort()).toEqual([
      'assets/chart-4.js',
      'assets/engine-6.wasm',
      'assets/engine.worker-3.js',
    ]);
    expect(report.harnessOnly.files.map((file) => file.file).sort()).toEqual(['assets/harness-9.js', 'assets/harness-only-7.js']);
    expect(report.unreferenced.files).toEqual([
      expect.objectContaining({ file: 'pyodide/ (2 files)', bytes: 'export const loadPyodide=1;'.length + 'more wasm'.length }),
    ]);
  });

  it('refuses a folder that is not a build', () => {
    const dir = writeDist({ 'readme.txt': 'not a build' });
    expect(() => measureBundle(dir)).toThrow(/has no index.html: build the app first/);
  });

  it('says which file the HTML loads but the build lacks', () => {
    const dir = writeDist({ 'index.html': '<script type="module" src="/assets/gone.js"></script>' });
    expect(() => measureBundle(dir)).toThrow('assets/gone.js is loaded by the build');
  });
});

describe('copiesOf', () => {
  const webLlmMap = (sources: string[]) => JSON.stringify({ version: 3, sources: sources.map(repoFile), mappings: 'AAAA' });
  it('finds each file made mostly of a package and the scripts that load it by name', () => {
    const dist = writeDist({
      'assets/orchestrator.worker-1.js': 'const w=()=>import("./lib-A.js");',
      'assets/webllm.worker-2.js': 'const w=()=>import("./lib-A.js");',
      'assets/lib-A.js': 'export const engine=1;',
      'assets/lib-A.js.map': webLlmMap(['node_modules/@mlc-ai/web-llm/lib/index.js']),
      'assets/other-3.js': 'export const x=1;',
      'assets/other-3.js.map': webLlmMap(['app/main.tsx']),
    });
    const files = ['assets/lib-A.js', 'assets/orchestrator.worker-1.js', 'assets/other-3.js', 'assets/webllm.worker-2.js'];
    expect(copiesOf(dist, files, '@mlc-ai/web-llm')).toEqual([
      { file: 'assets/lib-A.js', loadedBy: ['assets/orchestrator.worker-1.js', 'assets/webllm.worker-2.js'] },
    ]);
  });

  it('counts a second copy bundled into a worker as another file', () => {
    const dist = writeDist({
      'assets/lib-A.js': 'export const engine=1;',
      'assets/lib-A.js.map': webLlmMap(['node_modules/@mlc-ai/web-llm/lib/index.js']),
      'assets/webllm.worker-2.js': 'const engine=1;',
      'assets/webllm.worker-2.js.map': webLlmMap(['node_modules/@mlc-ai/web-llm/lib/index.js']),
    });
    expect(copiesOf(dist, ['assets/lib-A.js', 'assets/webllm.worker-2.js'], '@mlc-ai/web-llm').map((copy) => copy.file)).toEqual([
      'assets/lib-A.js',
      'assets/webllm.worker-2.js',
    ]);
  });
});

describe('staticImportsOf', () => {
  it('reads import and export-from statements, not dynamic imports or strings', () => {
    const source = 'import a from"./a.js";import"./b.js";export{c}from"./c.js";const x="./d.js";import("./e.js");';
    expect(staticImportsOf(source, 'x.js')).toEqual(['./a.js', './b.js', './c.js']);
  });
});

describe('generatedBytesPerSource', () => {
  it('gives each mapped segment the characters up to the next one', () => {
    // Line 1 "aaaabbbbbb": column 0 → source 0, column 4 → source 1. Line 2 "cc": column 0 →
    // source 1 again, then an unmapped segment at column 1.
    // Segments: [0,0,0,0] = AAAA; [4,1,0,0] = ICAA; next line [0,0,0,0] = AAAA; [1] = C.
    const totals = generatedBytesPerSource('aaaabbbbbb\ncc', 'AAAA,ICAA;AAAA,C');
    expect(Object.fromEntries(totals)).toEqual({ 0: 4, 1: 7, [-1]: 1 });
  });
});

describe('repoRelativeSource', () => {
  it('resolves a source against its map, and reads a worker map written for the default dist/assets/', () => {
    expect(repoRelativeSource(repoFile('dist/assets/main.js.map'), '../../app/main.tsx')).toBe('app/main.tsx');
    // Built with --outDir /tmp/…: the main chunk's map leads back into the repository …
    expect(repoRelativeSource('/tmp/build/assets/main.js.map', `../../..${repoFile('app/main.tsx')}`)).toBe('app/main.tsx');
    // … a worker's map is still relative to dist/assets/.
    expect(repoRelativeSource('/tmp/build/assets/python.worker.js.map', '../../tools/python/workerMessages.ts')).toBe('tools/python/workerMessages.ts');
  });
});

describe('ownerOf', () => {
  it('names npm packages (scoped too) and our own folders', () => {
    expect(ownerOf('../../node_modules/recharts/es6/chart/LineChart.js')).toBe('recharts');
    expect(ownerOf('../node_modules/@mlc-ai/web-llm/lib/index.js')).toBe('@mlc-ai/web-llm');
    expect(ownerOf('../../app/components/Cost/CostCharts.tsx')).toBe('app/components/Cost');
    expect(ownerOf('../../workers/engine/run.ts')).toBe('workers/engine');
    expect(ownerOf('../../app/App.tsx')).toBe('app');
  });
});
