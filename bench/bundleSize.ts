// First-load JavaScript of a production build (dist/): the scripts index.html loads eagerly (its
// module scripts, the chunks it modulepreloads, and every chunk those import statically), each
// gzipped with zlib's default level as Vite's own report does. Everything else the playground can
// reach by name (dynamic imports, workers, wasm) is listed as lazy.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, posix, relative, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';

export interface FileSize {
  /** Path relative to the dist folder, with forward slashes. */
  file: string;
  bytes: number;
  gzipBytes: number;
  /** What the file is made of, largest first (from its source map), e.g. "recharts 61%". */
  contents: string[];
}

export interface SizeGroup {
  files: FileSize[];
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  distDir: string;
  /** The JavaScript the playground's index.html loads before anything else happens. */
  firstLoad: SizeGroup;
  /** Stylesheets index.html links (not counted in the JS budget). */
  css: SizeGroup;
  /** Scripts and wasm the playground loads on demand: reachable by name from the first load. */
  lazy: SizeGroup;
  /** Scripts and wasm used only by the browser-test harness pages built beside the app. */
  harnessOnly: SizeGroup;
  /** Scripts and wasm nothing refers to by file name (e.g. Pyodide's runtime, fetched by a
   * computed URL), grouped per top-level folder. */
  unreferenced: SizeGroup;
  /** web-llm's copies in the build: each file made mostly of it, and the files that load it by
   * name. One file loaded by both workers means one download when a local model is loaded. */
  webLlm: PackageCopy[];
}

export interface PackageCopy {
  file: string;
  loadedBy: string[];
}

/** The package each worker that runs a local model imports (workers/backends/webllm/loadWebLlm.ts). */
export const WEB_LLM_PACKAGE = '@mlc-ai/web-llm';

const CODE_FILE = /\.(m?js|wasm)$/;
const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** Measures a built dist folder. Throws a clear error when it is not one. */
export function measureBundle(distDir: string): BundleReport {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) throw new Error(`${distDir} has no index.html: build the app first (npx vite build).`);
  const files = listFiles(distDir);
  const codeFiles = files.filter((file) => CODE_FILE.test(file));

  const main = entriesOfPage(distDir, 'index.html');
  const eager = staticClosure(distDir, main.scripts);
  const reachable = referenceClosure(distDir, eager, codeFiles);

  const harnessReachable = new Set<string>();
  for (const page of files.filter((file) => file.endsWith('.html') && file !== 'index.html')) {
    const harnessEager = staticClosure(distDir, entriesOfPage(distDir, page).scripts);
    for (const file of referenceClosure(distDir, harnessEager, codeFiles)) harnessReachable.add(file);
  }

  const lazy = codeFiles.filter((file) => reachable.has(file) && !eager.has(file));
  const harnessOnly = codeFiles.filter((file) => !reachable.has(file) && harnessReachable.has(file));
  const unreferenced = codeFiles.filter((file) => !reachable.has(file) && !harnessReachable.has(file));

  return {
    distDir,
    firstLoad: group([...eager].map((file) => sizeOf(distDir, file))),
    css: group(main.stylesheets.map((file) => sizeOf(distDir, file))),
    lazy: group(lazy.map((file) => sizeOf(distDir, file))),
    harnessOnly: group(harnessOnly.map((file) => sizeOf(distDir, file))),
    unreferenced: group(groupByFolder(distDir, unreferenced)),
    webLlm: copiesOf(distDir, codeFiles, WEB_LLM_PACKAGE),
  };
}

/** The code files made mostly (by generated characters) of `owner`, each with the scripts that
 * name it (a static or dynamic import, a worker URL). */
export function copiesOf(distDir: string, codeFiles: string[], owner: string): PackageCopy[] {
  const scripts = codeFiles.filter((file) => !file.endsWith('.wasm'));
  return scripts
    .filter((file) => (sharesOf(distDir, file).get(owner) ?? 0) > 0.5)
    .map((file) => ({
      file,
      loadedBy: scripts.filter((other) => other !== file && readFileSync(join(distDir, other), 'utf8').includes(posix.basename(file))),
    }));
}

/** Files under `dir`, relative and with forward slashes, source maps left out. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.map'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

interface PageEntries {
  /** Module scripts and modulepreloaded chunks, relative to dist. */
  scripts: string[];
  stylesheets: string[];
}

/** The scripts and stylesheets an HTML page of the build loads by itself. */
export function entriesOfPage(distDir: string, page: string): PageEntries {
  const html = readFileSync(join(distDir, page), 'utf8');
  const scripts: string[] = [];
  const stylesheets: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attributes = attributesOf(tag);
    const isScript = tag.toLowerCase().startsWith('<script');
    const target = isScript ? attributes.get('src') : attributes.get('href');
    if (target === undefined || /^[a-z]+:\/\//i.test(target)) continue;
    const file = resolveUrl(page, target);
    if (isScript && attributes.get('type') === 'module') scripts.push(file);
    if (!isScript && attributes.get('rel') === 'modulepreload') scripts.push(file);
    if (!isScript && attributes.get('rel') === 'stylesheet') stylesheets.push(file);
  }
  return { scripts, stylesheets };
}

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of tag.matchAll(/([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const [, name, double, single, bare] = match;
    if (name) attributes.set(name.toLowerCase(), double ?? single ?? bare ?? '');
  }
  return attributes;
}

/** A URL in `fromFile` (relative to dist) as a dist-relative path. Absolute URLs are rooted at dist. */
function resolveUrl(fromFile: string, url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  const resolved = path.startsWith('/') ? posix.normalize(path.slice(1)) : posix.join(posix.dirname(fromFile), path);
  return resolved;
}

/** The entry scripts and every chunk they import statically, transitively. */
function staticClosure(distDir: string, entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop();
    if (file === undefined || seen.has(file)) continue;
    if (!existsSync(join(distDir, file))) throw new Error(`${file} is loaded by the build's HTML but missing from ${distDir}`);
    seen.add(file);
    for (const specifier of staticImportsOf(readFileSync(join(distDir, file), 'utf8'), file)) {
      if (!/^[a-z]+:/i.test(specifier)) queue.push(resolveUrl(file, specifier));
    }
  }
  return seen;
}

/** The specifiers of a module's top-level `import … from` / `export … from` statements. */
export function staticImportsOf(source: string, fileName: string): string[] {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const specifiers: string[] = [];
  for (const statement of sourceFile.statements) {
    const specifier =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
    if (specifier && ts.isStringLiteral(specifier)) specifiers.push(specifier.text);
  }
  return specifiers;
}

/** Every code file whose name appears in a reached script, transitively (dynamic imports,
 * `new Worker(new URL(…))`, wasm URLs). */
function referenceClosure(distDir: string, start: Set<string>, codeFiles: string[]): Set<string> {
  const reached = new Set(start);
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop();
    if (file === undefined || file.endsWith('.wasm')) continue;
    const text = readFileSync(join(distDir, file), 'utf8');
    for (const candidate of codeFiles) {
      if (!reached.has(candidate) && text.includes(posix.basename(candidate))) {
        reached.add(candidate);
        queue.push(candidate);
      }
    }
  }
  return reached;
}

function sizeOf(distDir: string, file: string): FileSize {
  const content = readFileSync(join(distDir, file));
  return { file, bytes: content.length, gzipBytes: gzipSync(content).length, contents: contentsOf(distDir, file) };
}

function group(files: FileSize[]): SizeGroup {
  const sorted = [...files].sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    files: sorted,
    bytes: sorted.reduce((sum, file) => sum + file.bytes, 0),
    gzipBytes: sorted.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}

/** Files in assets/ or dist's top level stay single; files in another folder are summed per folder. */
function groupByFolder(distDir: string, files: string[]): FileSize[] {
  const singles: FileSize[] = [];
  const folders = new Map<string, FileSize[]>();
  for (const file of files) {
    const size = sizeOf(distDir, file);
    const top = file.includes('/') ? file.split('/')[0] : undefined;
    if (top === undefined || top === 'assets') singles.push(size);
    else folders.set(top, [...(folders.get(top) ?? []), size]);
  }
  const summed = [...folders.entries()].map(([folder, sizes]) => ({
    file: `${folder}/ (${sizes.length} ${sizes.length === 1 ? 'file' : 'files'})`,
    bytes: sizes.reduce((sum, size) => sum + size.bytes, 0),
    gzipBytes: sizes.reduce((sum, size) => sum + size.gzipBytes, 0),
    contents: sizes.map((size) => posix.basename(size.file)),
  }));
  return [...singles, ...summed];
}

interface SourceMapFile {
  sourceRoot?: string;
  sources?: string[];
  mappings?: string;
}

/** A source named in the map at `mapPath`, relative to the repository (wherever the build went). */
export function repoRelativeSource(mapPath: string, source: string, sourceRoot = ''): string {
  const path = source.replace(/^file:\/\//, '');
  const resolved = relative(repoRoot, resolve(dirname(mapPath), sourceRoot, path)).split(sep).join('/');
  if (!resolved.startsWith('../')) return resolved;
  // Vite writes worker chunks' maps relative to the default dist/assets/, wherever --outDir put them.
  const fromDefaultDist = path.replace(/^(\.\.\/)+/, '');
  return existsSync(join(repoRoot, fromDefaultDist)) ? fromDefaultDist : resolved;
}

/** The largest contributors to a chunk by generated bytes: npm packages by name, our own code by
 * folder (e.g. "app/components/Cost"). Empty without a source map. */
function contentsOf(distDir: string, file: string): string[] {
  return [...sharesOf(distDir, file).entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([owner, share]) => `${owner} ${Math.round(share * 100)}%`);
}

/** Each owner's share (0..1) of a chunk's generated characters, from its source map. */
function sharesOf(distDir: string, file: string): Map<string, number> {
  const mapPath = join(distDir, `${file}.map`);
  if (!existsSync(mapPath)) return new Map();
  let map: SourceMapFile;
  try {
    map = JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMapFile;
  } catch {
    return new Map();
  }
  const code = readFileSync(join(distDir, file), 'utf8');
  const bytesPerSource = generatedBytesPerSource(code, map.mappings ?? '');
  const sizes = new Map<string, number>();
  for (const [index, bytes] of bytesPerSource) {
    const source = map.sources?.[index];
    const owner = source === undefined ? '(generated)' : ownerOf(repoRelativeSource(mapPath, source, map.sourceRoot));
    sizes.set(owner, (sizes.get(owner) ?? 0) + bytes);
  }
  const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  return new Map(total === 0 ? [] : [...sizes.entries()].map(([owner, size]) => [owner, size / total]));
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Characters of generated code per source index (-1: code no mapping names a source for). Each
 * segment owns its line up to the next segment. */
export function generatedBytesPerSource(code: string, mappings: string): Map<number, number> {
  const lines = code.split('\n');
  const totals = new Map<number, number>();
  const add = (source: number, count: number) => {
    if (count > 0) totals.set(source, (totals.get(source) ?? 0) + count);
  };
  let source = 0;
  for (const [lineIndex, lineMappings] of mappings.split(';').entries()) {
    const length = lines[lineIndex]?.length ?? 0;
    let column = 0;
    let previousColumn = 0;
    let previousSource = -1;
    for (const segment of lineMappings.split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      column += fields[0] ?? 0;
      add(previousSource, column - previousColumn);
      if (fields.length >= 4) {
        source += fields[1] ?? 0;
        previousSource = source;
      } else {
        previousSource = -1;
      }
      previousColumn = column;
    }
    add(previousSource, length - previousColumn);
  }
  return totals;
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const character of segment) {
    const digit = BASE64.indexOf(character);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** "recharts", "@mlc-ai/web-llm", "app/components/Cost", "workers/engine", … */
export function ownerOf(source: string): string {
  const normalised = source.replaceAll('\\', '/');
  const modules = normalised.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first, second] = normalised.slice(modules + 'node_modules/'.length).split('/');
    return first?.startsWith('@') && second ? `${first}/${second}` : (first ?? normalised);
  }
  const parts = normalised.replace(/^(\.\.\/)+/, '').split('/');
  const folders = parts.slice(0, -1);
  if (folders.length === 0) return parts.join('/');
  return folders.slice(0, folders[0] === 'app' && folders[1] === 'components' ? 3 : 2).join('/');
}
