import { describe, expect, it } from 'vitest';
import { GGUF_CATALOGUE, ggufDownloadUrl, ggufFileName, ggufGpuLayersEstimate, ggufMemoryBytes, ggufUrlFromInput, needsSplit } from './catalogue.ts';

describe('the GGUF catalogue', () => {
  it('names the repository, file, licence and size of every entry, and says none was tried here', () => {
    expect(new Set(GGUF_CATALOGUE.map((entry) => entry.id)).size).toBe(GGUF_CATALOGUE.length);
    for (const entry of GGUF_CATALOGUE) {
      expect(entry.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.file).toMatch(/\.gguf$/);
      expect(entry.licence).not.toBe('');
      expect(entry.approxBytes).toBeGreaterThan(100_000_000);
      expect(entry.tried).toBe(false);
    }
    expect(GGUF_CATALOGUE.filter((entry) => entry.repo.includes('Orchestrator-8B')).length).toBeGreaterThan(0);
  });

  it('adds the KV cache of the window to the weights: 144 KiB a token for an 8B Qwen3', () => {
    const eight = GGUF_CATALOGUE.find((entry) => entry.id === 'Qwen3-8B-Q4_K_M.gguf')!;
    expect(eight.kvBytesPerToken).toBe(144 * 1024);
    expect(ggufMemoryBytes(eight, 4096)).toBe(eight.approxBytes + 4096 * 144 * 1024);
    expect(needsSplit(eight.approxBytes)).toBe(true);
    expect(needsSplit(GGUF_CATALOGUE[0]!.approxBytes)).toBe(false);
    expect(ggufDownloadUrl(eight)).toBe('https://huggingface.co/Qwen/Qwen3-8B-GGUF/resolve/main/Qwen3-8B-Q4_K_M.gguf');
  });

  it('reads a URL or a Hugging Face owner/repository/file the user typed', () => {
    expect(ggufUrlFromInput(' Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf ')).toBe('https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf');
    expect(ggufUrlFromInput('http://127.0.0.1:8080/models/tiny.gguf')).toBe('http://127.0.0.1:8080/models/tiny.gguf');
    expect(() => ggufUrlFromInput('https://user:pw@example.org/m.gguf')).toThrow(/user name or password/);
    expect(() => ggufUrlFromInput('https://example.org/model.bin')).toThrow(/\.gguf file/);
    expect(() => ggufUrlFromInput('just words')).toThrow(/owner\/repository\/file\.gguf/);
  });

  it('estimates the GPU memory of the layers on WebGPU before the file is read: its share of the file and of the KV cache', () => {
    const entry = GGUF_CATALOGUE.find((candidate) => candidate.id === 'Qwen3-8B-Q4_K_M.gguf')!;
    const all = ggufGpuLayersEstimate(entry, 999, 4096);
    expect(all).toEqual({ layers: 36, blocks: 36, bytes: ggufMemoryBytes(entry, 4096) });
    const half = ggufGpuLayersEstimate(entry, 18, 4096);
    expect(half.layers).toBe(18);
    expect(half.bytes).toBe(Math.round(ggufMemoryBytes(entry, 4096) / 2));
    expect(ggufGpuLayersEstimate(entry, 0, 4096)).toEqual({ layers: 0, blocks: 36, bytes: 0 });
  });

  it('names a model by the file its address ends in', () => {
    expect(ggufFileName('https://example.org/models/tiny%20one-00001-of-00002.gguf?download=1')).toBe('tiny one-00001-of-00002.gguf');
  });
});
