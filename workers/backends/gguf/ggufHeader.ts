// A GGUF file's header: checked before a file is called a model, and read for the memory figure
// of the WebGPU layer setting. The check (before llama.cpp is handed the file) refuses what is no
// model with what is wrong: not a GGUF (an HTML page saved as one), a version llama.cpp does not
// read, counts no real header has (2^60 keys), no architecture, no vocabulary, tensor data past
// the file's end. The reading gives the scalar metadata (architecture, block count, attention
// shape), each array's length, the few vocabulary entries the tool-call grammar names
// (VOCABULARY_WATCH), and each tensor's name and size; sizes come from the gaps between
// the tensors' offsets in the data section (the last one from the file's end), each with its
// alignment padding, at most 31 bytes. Split files (llama-gguf-split) are each a GGUF: pass every
// part.
//
// GGUF v2/v3 (ggml's gguf.h): magic, version, tensor and key counts (u64), the key/values, the
// tensor infos (name, dimensions, type, offset), then the data section, aligned.

export interface GgufHeader {
  version: number;
  /** Scalar metadata only (arrays such as the vocabulary are skipped). */
  metadata: ReadonlyMap<string, string | number | boolean>;
  /** Each array's element type and length (the vocabulary is `tokenizer.ggml.tokens`). */
  arrays: ReadonlyMap<string, { type: number; length: number }>;
  /** Of VOCABULARY_WATCH, the texts the vocabulary (`tokenizer.ggml.tokens`) has as a token: their
   * id and llama.cpp token type (`tokenizer.ggml.token_type`; 1, normal, where none is listed). */
  vocabulary: ReadonlyMap<string, { id: number; type: number }>;
  tensors: ReadonlyArray<{ name: string; bytes: number }>;
}

/** The token texts whose ids and types a header read gives (the tool-call grammar's thinking
 * block is matched by these tokens: toolCallGrammar.ts). */
export const VOCABULARY_WATCH: readonly string[] = ['<think>', '</think>'];

/** What the arrays' reading keeps: each array's type and length, the watched tokens' ids, and
 * where the token types (i32, one per token) lie. */
interface ArrayFinds {
  arrays: Map<string, { type: number; length: number }>;
  ids: Map<string, number>;
  types?: { at: number; count: number };
}

/** Bytes of a fixed-size value type, by its GGUF type id (8 string and 9 array vary). */
const FIXED: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
/** The most a header may take here: a real model's vocabulary is a few MB. */
export const GGUF_HEADER_MAX_BYTES = 64 * 1024 * 1024;

/** Counts no real model comes near (a large model has about 50 keys and 2,000 tensors, a
 * vocabulary 260,000 entries): a header claiming more is damaged or forged. */
export const GGUF_LIMITS = { keys: 65_536, tensors: 1_048_576, arrayLength: 16_777_216, dimensions: 4 } as const;

/** The GGUF versions llama.cpp reads. */
const VERSIONS = [2, 3];

/** Elements per block and bytes per block of each ggml tensor type (ggml's type traits, as
 * gguf-py's GGML_QUANT_SIZES lists them), by type id. */
const TENSOR_TYPES: Record<number, [elements: number, bytes: number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 40],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110], 22: [256, 82], 23: [256, 136],
  24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8], 29: [256, 56], 30: [1, 2], 34: [256, 54], 35: [256, 66], 39: [32, 17],
};

class NeedMore extends Error {}

const count = (value: bigint | number) => value.toLocaleString('en-US');

class Cursor {
  offset = 0;
  private view: DataView;
  constructor(private bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private take(length: number): number {
    if (this.offset + length > this.bytes.length) throw new NeedMore();
    const at = this.offset;
    this.offset += length;
    return at;
  }
  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }
  /** A u64 as it is, for a count to be checked before it is believed. */
  big(): bigint {
    return this.view.getBigUint64(this.take(8), true);
  }
  u64(): number {
    const value = this.big();
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('This GGUF header holds a number too large to be real.');
    return Number(value);
  }
  /** A count, refused past `limit` with what it claims. */
  countOf(what: string, limit: number): number {
    const value = this.big();
    if (value > BigInt(limit)) throw new Error(`This GGUF header claims ${count(value)} ${what}; a model has at most ${count(limit)}: the file is damaged or not a model.`);
    return Number(value);
  }
  i32At(offset: number): number {
    return this.view.getInt32(offset, true);
  }
  string(): string {
    const length = this.u64();
    const at = this.take(length);
    return new TextDecoder().decode(this.bytes.subarray(at, at + length));
  }
  value(type: number, key: string, finds: ArrayFinds): string | number | boolean | undefined {
    switch (type) {
      case 0:
        return this.view.getUint8(this.take(1));
      case 1:
        return this.view.getInt8(this.take(1));
      case 2:
        return this.view.getUint16(this.take(2), true);
      case 3:
        return this.view.getInt16(this.take(2), true);
      case 4:
        return this.u32();
      case 5:
        return this.view.getInt32(this.take(4), true);
      case 6:
        return this.view.getFloat32(this.take(4), true);
      case 7:
        return this.view.getUint8(this.take(1)) !== 0;
      case 8:
        return this.string();
      case 9: {
        const itemType = this.u32();
        const length = this.countOf(`entries in "${key}"`, GGUF_LIMITS.arrayLength);
        const watch = key === 'tokenizer.ggml.tokens';
        if (itemType === 8) {
          for (let index = 0; index < length; index++) {
            const text = this.string();
            if (watch && VOCABULARY_WATCH.includes(text) && !finds.ids.has(text)) finds.ids.set(text, index);
          }
        } else if (FIXED[itemType] !== undefined) {
          const at = this.take(FIXED[itemType] * length);
          // Token types listed in another type than i32 are not read by llama.cpp either.
          if (key === 'tokenizer.ggml.token_type' && itemType === 5) finds.types = { at, count: length };
        } else throw new Error(`This GGUF header has an array of unknown type ${itemType}.`);
        finds.arrays.set(key, { type: itemType, length });
        return undefined;
      }
      case 10:
        return this.u64();
      default:
        if (FIXED[type] === undefined) throw new Error(`This GGUF header has a value of unknown type ${type}.`);
        this.take(FIXED[type]);
        return undefined;
    }
  }
}

/** Why the start of a file is not a GGUF's, in words a person can act on. */
function notGguf(bytes: Uint8Array): string {
  const start = new TextDecoder().decode(bytes.subarray(0, 256)).trimStart().toLowerCase();
  if (start.startsWith('<?xml')) return 'This is not a GGUF file: it is an XML document (an error page from the host?).';
  if (start.startsWith('<')) return 'This is not a GGUF file: it is an HTML page (the address of a web page about the model, not of the file itself?).';
  return 'This is not a GGUF file (it does not start with "GGUF").';
}

/** The bytes of a tensor of these dimensions and type, or null for a type this table lacks. */
function tensorBytes(dimensions: readonly number[], type: number): number | null {
  const traits = TENSOR_TYPES[type];
  if (!traits) return null;
  const elements = dimensions.reduce((product, dimension) => product * dimension, 1);
  return (elements / traits[0]) * traits[1];
}

/** Parses a header from the file's first bytes; throws NeedMore when they end too soon, and an
 * Error saying what is wrong when it is no GGUF, or its tensors lie past the file's end. */
function parse(bytes: Uint8Array, fileBytes: number): GgufHeader {
  const cursor = new Cursor(bytes);
  if (bytes.length < 4) throw new NeedMore();
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== 'GGUF') throw new Error(notGguf(bytes));
  cursor.offset = 4;
  const version = cursor.u32();
  if (!VERSIONS.includes(version)) throw new Error(`GGUF version ${version} is not read here (versions ${VERSIONS.join(' and ')} are): the file is damaged, or of another GGUF.`);
  const tensorCount = cursor.countOf('tensors', GGUF_LIMITS.tensors);
  const keyCount = cursor.countOf('metadata keys', GGUF_LIMITS.keys);
  const metadata = new Map<string, string | number | boolean>();
  const finds: ArrayFinds = { arrays: new Map(), ids: new Map() };
  for (let index = 0; index < keyCount; index++) {
    const key = cursor.string();
    const value = cursor.value(cursor.u32(), key, finds);
    if (value !== undefined) metadata.set(key, value);
  }
  const { arrays, ids, types } = finds;
  const vocabulary = new Map([...ids].map(([text, id]) => [text, { id, type: types && id < types.count ? cursor.i32At(types.at + 4 * id) : 1 }]));
  const infos: Array<{ name: string; offset: number; bytes: number | null }> = [];
  for (let index = 0; index < tensorCount; index++) {
    const name = cursor.string();
    const rank = cursor.u32();
    if (rank > GGUF_LIMITS.dimensions) throw new Error(`Tensor "${name.slice(0, 80)}" claims ${count(rank)} dimensions; ggml has at most ${GGUF_LIMITS.dimensions}.`);
    const dimensions: number[] = [];
    for (let dimension = 0; dimension < rank; dimension++) dimensions.push(cursor.u64());
    const type = cursor.u32();
    infos.push({ name, offset: cursor.u64(), bytes: tensorBytes(dimensions, type) });
  }
  const alignment = Number(metadata.get('general.alignment') ?? 32) || 32;
  const dataStart = Math.ceil(cursor.offset / alignment) * alignment;
  const dataBytes = fileBytes - dataStart;
  for (const info of infos) {
    const end = dataStart + info.offset + (info.bytes ?? 0);
    if (info.offset > dataBytes || end > fileBytes) {
      throw new Error(
        `Tensor "${info.name.slice(0, 80)}"'s data ends past the end of the file (byte ${count(end)} of ${count(fileBytes)}): the file is cut short or damaged.`,
      );
    }
  }
  // Each offset's next one, by a map: a hostile header can list millions of tensors.
  const ends = [...new Set([...infos.map((info) => info.offset), dataBytes])].sort((a, b) => a - b);
  const nextOffset = new Map(ends.map((offset, index) => [offset, ends[index + 1] ?? offset]));
  const tensors = infos.map((info) => ({ name: info.name, bytes: nextOffset.get(info.offset)! - info.offset }));
  return { version, metadata, arrays, vocabulary, tensors };
}

/**
 * Whether the parts of a model (one file, or every file of a split one, in order) make a model
 * llama.cpp can run: the first names its architecture and holds a vocabulary; a split model has
 * all its parts. Throws with what is missing. (Each part's own structure was checked as it was read.)
 */
export function checkGgufModel(parts: readonly GgufHeader[]): void {
  const first = parts[0];
  if (!first) throw new Error('No GGUF file was given.');
  const architecture = first.metadata.get('general.architecture');
  if (typeof architecture !== 'string' || architecture.trim() === '') {
    throw new Error('This GGUF names no architecture (general.architecture): it is no model llama.cpp can run.');
  }
  const vocabulary = first.arrays.get('tokenizer.ggml.tokens');
  if (!vocabulary || vocabulary.type !== 8 || vocabulary.length === 0) {
    throw new Error('This GGUF has no vocabulary (tokenizer.ggml.tokens): it is no model llama.cpp can run.');
  }
  const split = first.metadata.get('split.count');
  if (typeof split === 'number' && split > 1 && parts.length !== split) {
    throw new Error(`This GGUF is part 1 of ${split}, and ${parts.length} part${parts.length === 1 ? ' was' : 's were'} found.`);
  }
  if (first.tensors.length === 0 && parts.length === 1) throw new Error('This GGUF holds no tensor: it is no model llama.cpp can run.');
}

/** Reads the header of a GGUF file, asking `read` for more of its start until it is whole. */
export async function readGgufHeader(read: (length: number) => Promise<Uint8Array>, fileBytes: number): Promise<GgufHeader> {
  for (let length = Math.min(fileBytes, 1024 * 1024); ; length = Math.min(fileBytes, length * 4)) {
    try {
      return parse(await read(length), fileBytes);
    } catch (error) {
      if (!(error instanceof NeedMore)) throw error;
      if (length >= fileBytes || length >= GGUF_HEADER_MAX_BYTES) throw new Error('This GGUF header is cut short or larger than 64 MB.', { cause: error });
    }
  }
}

/** The header of a Blob or File (a local file, or a part wllama keeps in its cache). */
export function readGgufBlobHeader(blob: Blob): Promise<GgufHeader> {
  return readGgufHeader(async (length) => new Uint8Array(await blob.slice(0, length).arrayBuffer()), blob.size);
}

/** The file's size a response states: the total of a 206's Content-Range, or a 200's length. */
function statedSize(response: Response): number | null {
  const range = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
  const stated = response.status === 206 ? range?.[1] : response.headers.get('content-length');
  const size = stated ? Number(stated) : Number.NaN;
  return Number.isSafeInteger(size) ? size : null;
}

/**
 * The header of a GGUF at an address, from its first bytes only: asked for by Range (a host that
 * ignores it sends the whole file, of which only the start is read before the request is
 * cancelled). So an address that serves a web page, or a forged header, is refused before
 * anything is downloaded or kept.
 */
export async function readGgufUrlHeader(url: string, signal?: AbortSignal): Promise<GgufHeader> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Range: `bytes=0-${GGUF_HEADER_MAX_BYTES - 1}` }, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    // A host whose CORS answer does not allow Range: the plain request, read only at its start.
    response = await fetch(url, { signal });
  }
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}${response.statusText ? ` (${response.statusText})` : ''}.`);
  const size = statedSize(response);
  const reader = response.body?.getReader();
  if (!reader) throw new Error(`${url} sent no file.`);
  const chunks: Uint8Array[] = [];
  let received = 0;
  let tryAt = 1024 * 1024;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value) {
        chunks.push(value);
        received += value.length;
      }
      if (!done && received < tryAt && received < GGUF_HEADER_MAX_BYTES) continue;
      const bytes = new Uint8Array(received);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      try {
        // Without a stated size, the file is taken to end where the response did.
        return parse(bytes, size ?? (done ? received : Number.MAX_SAFE_INTEGER));
      } catch (error) {
        if (!(error instanceof NeedMore)) throw error;
        if (done || received >= GGUF_HEADER_MAX_BYTES) throw new Error('This GGUF header is cut short or larger than 64 MB.', { cause: error });
        tryAt = received * 4;
      }
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/** What `gpuLayers` layers on WebGPU take (llama.cpp offloads the last layers first, and the
 * output layer too once every block is asked for; the token embeddings stay on the CPU): their
 * tensors across every part of the model, and their KV cache (f16 keys and values) at the window.
 * An estimate: llama.cpp's compute buffers come on top. */
export function gpuLayersMemory(parts: readonly GgufHeader[], gpuLayers: number, contextWindow: number): { asked: number; blocks: number; estimateBytes: number } {
  const first = parts.find((part) => part.metadata.has('general.architecture'));
  if (!first) throw new Error('No part of this GGUF names its architecture.');
  const arch = String(first.metadata.get('general.architecture'));
  const number = (key: string) => {
    const value = first.metadata.get(`${arch}.${key}`);
    return typeof value === 'number' ? value : undefined;
  };
  const blocks = number('block_count') ?? 0;
  const heads = number('attention.head_count') ?? 1;
  const kvHeads = number('attention.head_count_kv') ?? heads;
  const headSize = (number('embedding_length') ?? 0) / heads;
  const kvPerToken = kvHeads * ((number('attention.key_length') ?? headSize) + (number('attention.value_length') ?? headSize)) * 2;
  const onGpu = Math.max(0, Math.min(gpuLayers, blocks));
  const firstOnGpu = blocks - onGpu;
  let weights = 0;
  for (const part of parts) {
    for (const tensor of part.tensors) {
      const block = /^blk\.(\d+)\./.exec(tensor.name);
      if (block ? Number(block[1]) >= firstOnGpu : gpuLayers > blocks && tensor.name.startsWith('output')) weights += tensor.bytes;
    }
  }
  return { asked: gpuLayers, blocks, estimateBytes: weights + onGpu * contextWindow * kvPerToken };
}
