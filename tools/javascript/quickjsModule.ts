import RELEASE_SYNC from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

// QuickJS's own memory limit (runtime.setMemoryLimit) only refuses single allocations larger than
// the limit in this wasm build: it cannot measure what it has allocated (quickjs-emscripten
// issues #255, #271), so a loop of small allocations would grow without end. The real cap is the
// WebAssembly memory itself: created here with a fixed maximum, malloc fails past it and QuickJS
// throws "out of memory" inside the guest.

const PAGE_BYTES = 64 * 1024;
/** The wasm declares 16 MiB of initial memory: its C stack, static data and first heap. */
const BASE_PAGES = 256;

export interface LoadQuickJSOptions {
  /** Room for the guest's heap beyond QuickJS's own base memory. */
  memoryBytes: number;
  /** The compiled wasm, to instantiate without fetching or compiling again (both sandbox workers
   * compile it once). Without it, Emscripten loads and compiles the file itself. */
  wasmModule?: WebAssembly.Module;
}

/** A fresh QuickJS instance in its own capped memory. Cheap (a few ms with a compiled module),
 * so every run can get one and nothing a run leaves behind reaches the next. */
export function loadQuickJS(options: LoadQuickJSOptions): Promise<QuickJSWASMModule> {
  if (!(options.memoryBytes > 0)) throw new RangeError(`memoryBytes must be positive, got ${options.memoryBytes}`);
  const wasmMemory = new WebAssembly.Memory({
    initial: BASE_PAGES,
    maximum: BASE_PAGES + Math.ceil(options.memoryBytes / PAGE_BYTES),
  });
  const variant = newVariant(RELEASE_SYNC, {
    wasmMemory,
    ...(options.wasmModule ? { wasmModule: options.wasmModule } : {}),
  });
  return newQuickJSWASMModuleFromVariant(variant);
}
