import { describe, expect, it } from 'vitest';
import { tinyQwen3Gguf, tinyQwen3GgufSplits } from '../../../e2e/fixtures/tinyGguf.ts';
import { gpuLayersMemory, readGgufBlobHeader, readGgufHeader } from './ggufHeader.ts';

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
