import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticSite, type StaticSite } from '../../../e2e/fixtures/staticSite.ts';
import { tinyQwen3Gguf, tinyQwen3GgufSplits } from '../../../e2e/fixtures/tinyGguf.ts';
import { checkGgufModel, gpuLayersMemory, readGgufBlobHeader, readGgufHeader, readGgufUrlHeader } from './ggufHeader.ts';

// The tiny model: 2 blocks, hidden 64, 4 heads of 16, 2 KV heads, feed-forward 128, 265 tokens, f32.
const BLOCK_BYTES = 4 * (64 + 64 * 64 + 64 * 32 + 64 * 32 + 64 * 64 + 16 + 16 + 64 + 3 * 64 * 128);
const OUTPUT_BYTES = 4 * (64 * 265 + 64);
/** 2 KV heads × (16 + 16) × 2 bytes (f16), per token and layer. */
const KV_PER_TOKEN = 2 * 32 * 2;

const header = (bytes: Buffer) => readGgufBlobHeader(new Blob([new Uint8Array(bytes)]));

describe('the GGUF header', () => {
  it('gives the scalar metadata and every tensor with its size, from the gaps between offsets', async () => {
    const bytes = tinyQwen3Gguf();
    const { metadata, tensors } = await header(bytes);
    expect(metadata.get('general.architecture')).toBe('qwen3');
    expect(metadata.get('qwen3.block_count')).toBe(2);
    expect(metadata.has('tokenizer.ggml.tokens')).toBe(false);
    expect(tensors).toHaveLength(3 + 2 * 11);
    expect(tensors.find((tensor) => tensor.name === 'blk.1.ffn_down.weight')?.bytes).toBe(4 * 64 * 128);
    expect(tensors.find((tensor) => tensor.name === 'token_embd.weight')?.bytes).toBe(4 * 64 * 265);
    const blocks = tensors.filter((tensor) => tensor.name.startsWith('blk.0.')).reduce((sum, tensor) => sum + tensor.bytes, 0);
    expect(blocks).toBe(BLOCK_BYTES);
  });

  it('gives the id and token type of the thinking tokens where the vocabulary has them', async () => {
    // After the 256 byte tokens: <|endoftext|>, <|im_start|>, <|im_end|>, then <think> and </think>, user-defined (4).
    expect([...(await header(tinyQwen3Gguf())).vocabulary]).toEqual([
      ['<think>', { id: 259, type: 4 }],
      ['</think>', { id: 260, type: 4 }],
    ]);
    expect((await header(tinyQwen3Gguf({ thinkTokens: false }))).vocabulary.size).toBe(0);
    // A split model's vocabulary is in its first part.
    const parts = await Promise.all(tinyQwen3GgufSplits(2).map(header));
    expect(parts.map((part) => part.vocabulary.size)).toEqual([2, 0]);
  });

  it('asks for more of the file until the header is whole, and refuses what is not a GGUF', async () => {
    const bytes = tinyQwen3Gguf();
    const asked: number[] = [];
    // A file of 10 MB whose reads give only the first 1,000 bytes: the header never completes.
    const cut = readGgufHeader(async (length) => {
      asked.push(length);
      return new Uint8Array(bytes.subarray(0, 1000));
    }, 10 * 1024 * 1024);
    await expect(cut).rejects.toThrow('This GGUF header is cut short or larger than 64 MB.');
    expect(asked).toEqual([1024 * 1024, 4 * 1024 * 1024, 10 * 1024 * 1024]);
    await expect(header(Buffer.from('not a model at all'))).rejects.toThrow('This is not a GGUF file');
    await expect(header(bytes.subarray(0, 200))).rejects.toThrow('cut short');
  });
});

describe('the memory the WebGPU layers take', () => {
  it('counts the last layers first, the output layer once every block is asked for, and their KV cache', async () => {
    const parts = [await header(tinyQwen3Gguf())];
    expect(gpuLayersMemory(parts, 1, 8192)).toEqual({ asked: 1, blocks: 2, estimateBytes: BLOCK_BYTES + 8192 * KV_PER_TOKEN });
    expect(gpuLayersMemory(parts, 2, 8192).estimateBytes).toBe(2 * BLOCK_BYTES + 2 * 8192 * KV_PER_TOKEN);
    expect(gpuLayersMemory(parts, 999, 8192)).toEqual({ asked: 999, blocks: 2, estimateBytes: 2 * BLOCK_BYTES + OUTPUT_BYTES + 2 * 8192 * KV_PER_TOKEN });
    expect(gpuLayersMemory(parts, 0, 8192).estimateBytes).toBe(0);
  });

  it('is the same for the model split in parts, each part a GGUF of its own', async () => {
    const whole = gpuLayersMemory([await header(tinyQwen3Gguf())], 999, 4096);
    const splits = tinyQwen3GgufSplits(2);
    const parts = await Promise.all(splits.map(header));
    expect(parts[0]!.metadata.get('split.count')).toBe(2);
    expect(parts[1]!.metadata.get('split.no')).toBe(1);
    expect(parts[1]!.metadata.has('general.architecture')).toBe(false);
    expect(parts.reduce((sum, part) => sum + part.tensors.length, 0)).toBe(25);
    expect(gpuLayersMemory(parts, 999, 4096)).toEqual(whole);
  });

  it('reads a header listing 200,000 tensors (a hostile file) without work that grows with their square', async () => {
    const count = 200_000;
    const bytes = new Uint8Array(24 + count * 25);
    const view = new DataView(bytes.buffer);
    bytes.set(new TextEncoder().encode('GGUF'));
    view.setUint32(4, 3, true);
    view.setBigUint64(8, BigInt(count), true);
    view.setBigUint64(16, 0n, true);
    for (let index = 0, at = 24; index < count; index++, at += 25) {
      view.setBigUint64(at, 1n, true);
      bytes[at + 8] = 0x61; // "a"
      view.setUint32(at + 9, 0, true);
      view.setUint32(at + 13, 0, true);
      view.setBigUint64(at + 17, BigInt(index * 32), true);
    }
    const file = new Uint8Array(bytes.length + 8 + count * 32);
    file.set(bytes);
    const { tensors } = await readGgufBlobHeader(new Blob([file]));
    expect(tensors).toHaveLength(count);
    expect(tensors.every((tensor) => tensor.bytes === 32)).toBe(true);
  });
});

describe('a GGUF is checked before it is called a model', () => {
  const good = tinyQwen3Gguf();
  /** The tiny model with a u32 or u64 of its header replaced (version at 4, tensor count at 8, key count at 16). */
  const patched = (offset: number, value: bigint, width: 4 | 8) => {
    const copy = Buffer.from(good);
    if (width === 4) copy.writeUInt32LE(Number(value), offset);
    else copy.writeBigUInt64LE(value, offset);
    return copy;
  };
  const checked = async (bytes: Buffer) => checkGgufModel([await header(bytes)]);

  it('passes the tiny model, whole and split', async () => {
    await expect(checked(good)).resolves.toBeUndefined();
    const parts = await Promise.all(tinyQwen3GgufSplits(2).map(header));
    expect(() => checkGgufModel(parts)).not.toThrow();
    expect(() => checkGgufModel(parts.slice(0, 1))).toThrow('This GGUF is part 1 of 2, and 1 part was found.');
  });

  it('names what is wrong with each broken file', async () => {
    await expect(checked(Buffer.from('<!doctype html><title>model.gguf · Hugging Face</title>'))).rejects.toThrow('This is not a GGUF file: it is an HTML page');
    await expect(checked(Buffer.from('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>'))).rejects.toThrow('it is an XML document');
    await expect(checked(Buffer.concat([Buffer.from('GGML'), good.subarray(4)]))).rejects.toThrow('This is not a GGUF file (it does not start with "GGUF").');
    await expect(checked(patched(4, 1n, 4))).rejects.toThrow('GGUF version 1 is not read here (versions 2 and 3 are)');
    await expect(checked(patched(16, 2n ** 60n, 8))).rejects.toThrow('This GGUF header claims 1,152,921,504,606,846,976 metadata keys; a model has at most 65,536');
    await expect(checked(patched(8, 2n ** 60n, 8))).rejects.toThrow('This GGUF header claims 1,152,921,504,606,846,976 tensors');
    await expect(checked(tinyQwen3Gguf({ omitKeys: ['general.architecture'] }))).rejects.toThrow('This GGUF names no architecture (general.architecture)');
    await expect(checked(tinyQwen3Gguf({ omitKeys: ['tokenizer.ggml.tokens'] }))).rejects.toThrow('This GGUF has no vocabulary (tokenizer.ggml.tokens)');
    await expect(checked(good.subarray(0, good.length - 4096))).rejects.toThrow(/^Tensor "[^"]+"'s data ends past the end of the file/);
  });
});

describe('a GGUF at an address', () => {
  let folder: string;
  let site: StaticSite;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'gguf-header-'));
    await writeFile(join(folder, 'tiny.gguf'), tinyQwen3Gguf());
    await writeFile(join(folder, 'page.gguf'), '<!doctype html><p>not a model</p>');
    site = await startStaticSite(folder);
  });
  afterAll(async () => {
    await site.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('is read from its first bytes, and a web page is refused before anything more is read', async () => {
    const read = await readGgufUrlHeader(`${site.url}/tiny.gguf`);
    expect(read.metadata.get('general.architecture')).toBe('qwen3');
    expect(() => checkGgufModel([read])).not.toThrow();
    await expect(readGgufUrlHeader(`${site.url}/page.gguf`)).rejects.toThrow('it is an HTML page');
    await expect(readGgufUrlHeader(`${site.url}/missing.gguf`)).rejects.toThrow('answered HTTP 404');
  });
});
