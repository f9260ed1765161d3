// The GGUF targets' report (formatGgufTargetsReport): what `npm run bench -- --only gguf` prints,
// checked on made-up figures so that a field the bench gained is printed, and a part the run left
// out (`--gguf anchor`) prints no empty heading and no NaN.
import { describe, expect, it } from 'vitest';
import { formatGgufTargetsReport, type GgufTargetsResult, type LoadMemory, type ProfileMemory } from './ggufTargets.bench.ts';
import { summarize } from './stats.ts';

const MB = 1e6;
const load = (baseline: number, peak: number, settled: number, stored: number, buffers: string[] = []): LoadMemory => ({
  baselineBytes: baseline * MB,
  peakBytes: peak * MB,
  settledBytes: settled * MB,
  storedBytes: stored * MB,
  buffers,
});
const profile = (extra: number): ProfileMemory => ({
  runtime: load(300, 310, 305, 0.4),
  single: load(300, 400 + extra, 380, 80),
  split: load(300, 405 + extra, 382, 80, ['CPU_Mapped model buffer size = 77.8 MiB']),
});

const measured = (overrides: Partial<GgufTargetsResult> = {}): GgufTargetsResult => ({
  modelBytes: 80 * MB,
  reuse: [
    { turn: 1, added: 'the problem', promptTokens: 1000, cachedTokens: 0, prefilledTokens: 1000, leastTokens: 1000, prefillMs: 2000, firstTokenMs: 2100 },
    { turn: 2, added: 'a search result', promptTokens: 1400, cachedTokens: 1000, prefilledTokens: 400, leastTokens: 399, prefillMs: 800, firstTokenMs: 900 },
  ],
  turnOnePer100Ms: 200,
  decode: [{ label: 'real vocabulary, the call the model agrees with', constrained: summarize([90, 95, 100]), free: summarize([100, 100, 100]), tokens: 64 }],
  native: [
    {
      model: 'mid-size (Q4_0)',
      threads: 2,
      wasmThreads: 1,
      promptTokens: 256,
      decodedTokens: 24,
      wasm: { prefill: summarize([50, 50, 50]), decode: summarize([10, 10, 10]), buffers: ['CPU model buffer size = 20 MiB'] },
      native: { prefill: summarize([200, 200, 200]), decode: summarize([20, 20, 20]), load: { backend: 'libggml-cpu-haswell.so', buffers: ['CPU_REPACK model buffer size = 18 MiB'], repacked: { q4_0_8x8: 56 } } },
    },
    {
      model: 'tiny, byte vocabulary',
      threads: 1,
      wasmThreads: 1,
      promptTokens: 300,
      decodedTokens: 64,
      wasm: { prefill: summarize([900, 1000, 1100]), decode: summarize([300, 300, 300]), buffers: [] },
      native: { error: 'node-llama-cpp could not be installed' },
    },
  ],
  nativeVersion: '3.0.0',
  crossOriginIsolated: false,
  memory: { parts: 3, modelBytes: 80 * MB, private: profile(0), disk: profile(10) },
  loadAverage: [1.5, 2.25],
  ...overrides,
});

describe('formatGgufTargetsReport', () => {
  it('prints every target with its ratio, and where each llama.cpp put the weights', () => {
    const report = formatGgufTargetsReport(measured());
    expect(report).toContain('prefilled 400 = 28.6% of the prompt; least possible 399 (28.5%): all the shared prefix reused');
    expect(report).toContain('— misses');
    expect(report).toContain('First token of turn 2: 900 ms against 200 ms for 100 tokens of turn 1\'s prefill: 4.50× (target <= 1.5×)');
    expect(report).toContain('95.0 (90.0–100) against 100 (100–100): 0.95× (64 tokens)');
    expect(report).toContain('the page is NOT cross-origin isolated');
    expect(report).toContain('mid-size (Q4_0), 2 threads (wllama ran 1), 256 prompt tokens, 24 decoded: prefill 50.0 (50.0–50.0) against 200 (200–200) tok/s = 0.25×; decode 10.0 (10.0–10.0) against 20.0 (20.0–20.0) tok/s = 0.50×');
    expect(report).toContain('native (libggml-cpu-haswell.so): CPU_REPACK model buffer size = 18 MiB; repacked 56 tensors as q4_0_8x8');
    expect(report).toContain('tiny, byte vocabulary, 1 thread: wasm prefill 1000 (900–1100), decode 300 (300–300) tok/s; native not measured: node-llama-cpp could not be installed');
    expect(report).toContain('one file: 300.0 MB before, +100.0 MB at the peak, +80.0 MB settled; the origin\'s storage 80.0 MB');
    expect(report).toContain('split in 3 files: 300.0 MB before, +115.0 MB at the peak, +82.0 MB settled; the origin\'s storage 80.0 MB; at the peak 5.0 MB more than one file (a second copy of the weights would be about +80.0 MB)');
    expect(report).toContain('load average (1 min): 1.50 before, 2.25 after');
    expect(report).not.toMatch(/NaN|undefined/);
  });

  it('with --gguf anchor, leaves out the parts not run: no empty heading, no NaN', () => {
    const report = formatGgufTargetsReport(measured({ reuse: [], turnOnePer100Ms: Number.NaN, decode: [] }));
    expect(report.split('\n')[0]).toContain('--gguf anchor');
    expect(report).not.toContain('Context reuse');
    expect(report).not.toContain('First token of turn 2');
    expect(report).not.toContain('Decode tok/s with the tool-call grammar');
    expect(report).toContain('= 0.25×');
    expect(report).not.toMatch(/NaN|undefined/);
  });
});
