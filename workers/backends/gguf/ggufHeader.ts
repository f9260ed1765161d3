// A GGUF file's header, read for the memory figure of the WebGPU layer setting and for the
// tool-call grammar: the scalar metadata (architecture, block count, attention shape), the few
// vocabulary entries the grammar names (VOCABULARY_WATCH), and each tensor's name and size. Sizes
// come from the gaps between the tensors' offsets in the data section (the last one from the
// file's end), so no table of ggml's quantisation types is needed; each includes its alignment
// padding, at most 31 bytes. Split files (llama-gguf-split) are each a GGUF: pass every part.
//
// GGUF v2/v3 (ggml's gguf.h): magic, version, tensor and key counts (u64), the key/values, the
// tensor infos (name, dimensions, type, offset), then the data section, aligned.

export interface GgufHeader {
  /** Scalar metadata only (arrays such as the vocabulary are skipped). */
  metadata: ReadonlyMap<string, string | number | boolean>;
  /** Of VOCABULARY_WATCH, the texts the vocabulary (`tokenizer.ggml.tokens`) has as a token: their
   * id and llama.cpp token type (`tokenizer.ggml.token_type`; 1, normal, where none is listed). */
  vocabulary: ReadonlyMap<string, { id: number; type: number }>;
  tensors: ReadonlyArray<{ name: string; bytes: number }>;
}

/** The token texts whose ids and types a header read gives (the tool-call grammar's thinking
 * block is matched by these tokens: toolCallGrammar.ts). */
export const VOCABULARY_WATCH: readonly string[] = ['<think>', '</think>'];

/** Bytes of a fixed-size value type, by its GGUF type id (8 string and 9 array vary). */
const FIXED: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
/** The most a header may take here: a real model's vocabulary is a few MB. */
export const GGUF_HEADER_MAX_BYTES = 64 * 1024 * 1024;

class NeedMore extends Error {}

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
  /** Skips `length` bytes and says where they start. */
  skip(length: number): number {
    return this.take(length);
  }
  i32At(offset: number): number {
    return this.view.getInt32(offset, true);
  }
  u64(): number {
    const value = this.view.getBigUint64(this.take(8), true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('This GGUF header holds a number too large to be real.');
    return Number(value);
  }
  string(): string {
    const length = this.u64();
    const at = this.take(length);
    return new TextDecoder().decode(this.bytes.subarray(at, at + length));
  }
  value(type: number): string | number | boolean | undefined {
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
        const count = this.u64();
        if (itemType === 8) for (let index = 0; index < count; index++) this.string();
        else if (FIXED[itemType] !== undefined) this.take(FIXED[itemType] * count);
        else throw new Error(`This GGUF header has an array of unknown type ${itemType}.`);
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

/** Parses a header from the file's first bytes; throws NeedMore when they end too soon. */
function parse(bytes: Uint8Array, fileBytes: number): GgufHeader {
  const cursor = new Cursor(bytes);
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== 'GGUF') {
    if (bytes.length < 4) throw new NeedMore();
    throw new Error('This is not a GGUF file (it does not start with "GGUF").');
  }
  cursor.offset = 4;
  const version = cursor.u32();
  if (version < 2) throw new Error(`GGUF version ${version} is not read here (2 and later are).`);
  const tensorCount = cursor.u64();
  const keyCount = cursor.u64();
  const metadata = new Map<string, string | number | boolean>();
  const ids = new Map<string, number>();
  let types: { at: number; count: number } | undefined;
  for (let index = 0; index < keyCount; index++) {
    const key = cursor.string();
    const type = cursor.u32();
    if (type === 9 && key === 'tokenizer.ggml.tokens') readWatchedTokens(cursor, ids);
    else if (type === 9 && key === 'tokenizer.ggml.token_type') types = readTokenTypes(cursor);
    else {
      const value = cursor.value(type);
      if (value !== undefined) metadata.set(key, value);
    }
  }
  const vocabulary = new Map([...ids].map(([text, id]) => [text, { id, type: types && id < types.count ? cursor.i32At(types.at + 4 * id) : 1 }]));
  const infos: Array<{ name: string; offset: number }> = [];
  for (let index = 0; index < tensorCount; index++) {
    const name = cursor.string();
    const dimensions = cursor.u32();
    for (let dimension = 0; dimension < dimensions; dimension++) cursor.u64();
    cursor.u32();
    infos.push({ name, offset: cursor.u64() });
  }
  const alignment = Number(metadata.get('general.alignment') ?? 32) || 32;
  const dataStart = Math.ceil(cursor.offset / alignment) * alignment;
  const dataBytes = fileBytes - dataStart;
  // Each offset's next one, by a map: a hostile header can list millions of tensors.
  const ends = [...new Set([...infos.map((info) => info.offset), dataBytes])].sort((a, b) => a - b);
  const nextOffset = new Map(ends.map((offset, index) => [offset, ends[index + 1] ?? offset]));
  const tensors = infos.map((info) => ({ name: info.name, bytes: nextOffset.get(info.offset)! - info.offset }));
  return { metadata, vocabulary, tensors };
}

/** The vocabulary's strings, keeping the id of each watched text (the first, if one repeats). */
function readWatchedTokens(cursor: Cursor, ids: Map<string, number>): void {
  const itemType = cursor.u32();
  const count = cursor.u64();
  if (itemType !== 8) throw new Error(`This GGUF's vocabulary is an array of type ${itemType}, not of strings.`);
  for (let id = 0; id < count; id++) {
    const text = cursor.string();
    if (VOCABULARY_WATCH.includes(text) && !ids.has(text)) ids.set(text, id);
  }
}

/** Where the token types (i32, one per token) lie, read once the watched tokens' ids are known;
 * undefined when they are listed in another type, as llama.cpp would not read them. */
function readTokenTypes(cursor: Cursor): { at: number; count: number } | undefined {
  const itemType = cursor.u32();
  const count = cursor.u64();
  const size = FIXED[itemType];
  if (size === undefined) throw new Error(`This GGUF's token types are an array of type ${itemType}.`);
  const at = cursor.skip(size * count);
  return itemType === 5 ? { at, count } : undefined;
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
