// Which of llama.cpp's CPU kernels in wllama's prebuilt .wasm use WebAssembly SIMD: for each
// function whose name matches (the file keeps its name section), the v128 locals it declares and
// the 0xFD-prefixed bytes in its body (SIMD opcodes; a scalar body may hold a few as immediates).
// It reads the file; nothing runs. Issue 25 asked whether the wasm build's quantized dot products
// use SIMD at all (docs/benchmarks.md).
//
//   npx tsx bench/wasmKernels.ts [path to .wasm] [name pattern]

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DEFAULT_WASM = fileURLToPath(new URL('../node_modules/@wllama/wllama/esm/wasm/wllama.wasm', import.meta.url));
const DEFAULT_PATTERN = /^ggml_vec_dot_(q4_0|q4_K|q5_K|q6_K|q8_0|f16)_|^ggml_gemv_q4_(0|K)_/;

const CODE_SECTION = 10;
const IMPORT_SECTION = 2;
const V128 = 0x7b;
const SIMD_PREFIX = 0xfd;

interface Section {
  id: number;
  start: number;
  size: number;
  name?: string;
}

export interface KernelSimd {
  name: string;
  v128Locals: number;
  simdPrefixBytes: number;
  bodyBytes: number;
}

/** A reader of a wasm file's bytes: LEB128 numbers, names, positions. */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}
  u32(): number {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = this.bytes[this.at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  }
  name(): string {
    const length = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
}

function sectionsOf(bytes: Uint8Array): Section[] {
  const reader = new Reader(bytes, 8);
  const sections: Section[] = [];
  while (reader.at < bytes.length) {
    const id = bytes[reader.at++]!;
    const size = reader.u32();
    const section: Section = { id, start: reader.at, size };
    if (id === 0) section.name = new Reader(bytes, reader.at).name();
    sections.push(section);
    reader.at += size;
  }
  return sections;
}

/** How many of the module's functions are imported (they come first in the function index space). */
function importedFunctions(bytes: Uint8Array, section: Section | undefined): number {
  if (!section) return 0;
  const reader = new Reader(bytes, section.start);
  let functions = 0;
  for (let count = reader.u32(); count > 0; count--) {
    reader.name();
    reader.name();
    const kind = bytes[reader.at++]!;
    if (kind === 0) {
      reader.u32();
      functions++;
    } else if (kind === 1 || kind === 2) {
      if (kind === 1) reader.at++;
      const flags = bytes[reader.at++]!;
      reader.u32();
      if (flags & 1) reader.u32();
    } else if (kind === 3) {
      reader.at += 2; // a global: its type and mutability
    } else {
      reader.at++; // a tag: its attribute, then its type index
      reader.u32();
    }
  }
  return functions;
}

/** The function names of the name section's subsection 1, by function index. */
function functionNames(bytes: Uint8Array, section: Section | undefined): Map<number, string> {
  const names = new Map<number, string>();
  if (!section) return names;
  const reader = new Reader(bytes, section.start);
  reader.name();
  while (reader.at < section.start + section.size) {
    const subsection = bytes[reader.at++]!;
    const end = reader.u32() + reader.at;
    if (subsection === 1) for (let count = reader.u32(); count > 0; count--) names.set(reader.u32(), reader.name());
    reader.at = end;
  }
  return names;
}

export function kernelSimd(bytes: Uint8Array, pattern: RegExp): KernelSimd[] {
  const sections = sectionsOf(bytes);
  const code = sections.find((section) => section.id === CODE_SECTION);
  if (!code) throw new Error('The file has no code section: not a wasm module with functions.');
  const firstDefined = importedFunctions(bytes, sections.find((section) => section.id === IMPORT_SECTION));
  const names = functionNames(bytes, sections.find((section) => section.name === 'name'));
  const reader = new Reader(bytes, code.start);
  const found: KernelSimd[] = [];
  for (let index = 0, count = reader.u32(); index < count; index++) {
    const bodyBytes = reader.u32();
    const end = reader.at + bodyBytes;
    const name = names.get(firstDefined + index) ?? '';
    if (pattern.test(name)) {
      let v128Locals = 0;
      for (let groups = reader.u32(); groups > 0; groups--) {
        const locals = reader.u32();
        if (bytes[reader.at++] === V128) v128Locals += locals;
      }
      let simdPrefixBytes = 0;
      for (let at = reader.at; at < end; at++) if (bytes[at] === SIMD_PREFIX) simdPrefixBytes++;
      found.push({ name, v128Locals, simdPrefixBytes, bodyBytes });
    }
    reader.at = end;
  }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path = DEFAULT_WASM, pattern] = process.argv.slice(2);
  const kernels = kernelSimd(readFileSync(path), pattern ? new RegExp(pattern) : DEFAULT_PATTERN);
  console.log(`${path}: ${kernels.length} functions matched`);
  for (const kernel of kernels.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const simd = kernel.v128Locals > 0 || kernel.simdPrefixBytes > 16 ? 'SIMD' : 'scalar';
    console.log(`  ${kernel.name.padEnd(30)} ${simd.padEnd(6)} v128 locals ${String(kernel.v128Locals).padStart(3)}, 0xFD bytes ${String(kernel.simdPrefixBytes).padStart(4)}, body ${kernel.bodyBytes} bytes`);
  }
}
