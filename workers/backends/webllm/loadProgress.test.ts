import type { InitProgressReport } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { createLoadProgressTracker, type LoadProgress } from './loadProgress.ts';
import { webLlmLoadReports } from '../../../e2e/fixtures/doubles/fakeWebLlmEngine.ts';

const MIB = 1024 * 1024;
const TAIL = ' It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.';

// A first load as web-llm 0.2.86 reports it: 3 shards of 100 MiB, then the same shards from
// the cache onto the GPU, then 4 shader modules (texts as its source writes them).
const FIRST_LOAD: InitProgressReport[] = [
  { progress: 0, timeElapsed: 0, text: 'Start to fetch params' },
  { progress: 1 / 3, timeElapsed: 10, text: `Fetching param cache[1/3]: 100MB fetched. 33% completed, 10 secs elapsed.${TAIL}` },
  { progress: 2 / 3, timeElapsed: 20, text: `Fetching param cache[2/3]: 200MB fetched. 66% completed, 20 secs elapsed.${TAIL}` },
  { progress: 1, timeElapsed: 30, text: `Fetching param cache[3/3]: 300MB fetched. 100% completed, 30 secs elapsed.${TAIL}` },
  { progress: 1 / 3, timeElapsed: 32, text: 'Loading model from cache[1/3]: 100MB loaded. 33% completed, 32 secs elapsed.' },
  { progress: 2 / 3, timeElapsed: 34, text: 'Loading model from cache[2/3]: 200MB loaded. 66% completed, 34 secs elapsed.' },
  { progress: 1, timeElapsed: 36, text: 'Loading model from cache[3/3]: 300MB loaded. 100% completed, 36 secs elapsed.' },
  { progress: 0.25, timeElapsed: 1, text: 'Loading GPU shader modules[1/4]: 25% completed, 1 secs elapsed.' },
  { progress: 1, timeElapsed: 3, text: 'Loading GPU shader modules[4/4]: 100% completed, 3 secs elapsed.' },
  { progress: 1, timeElapsed: 41.2, text: 'Finish loading on WebGPU - NVIDIA H200' },
];

function track(reports: InitProgressReport[], options: { cached?: boolean } = {}): LoadProgress[] {
  const tracker = createLoadProgressTracker(options);
  return reports.map((report) => tracker.update(report));
}

function expectMonotonic(progress: LoadProgress[]): void {
  for (let i = 1; i < progress.length; i++) {
    expect(progress[i]?.fraction).toBeGreaterThanOrEqual(progress[i - 1]?.fraction ?? 0);
  }
  for (const p of progress) {
    expect(p.fraction).toBeGreaterThanOrEqual(0);
    expect(p.fraction).toBeLessThanOrEqual(1);
  }
}

describe('createLoadProgressTracker', () => {
  it('turns a first load into one bar over download, load to GPU and shader compilation', () => {
    const progress = track(FIRST_LOAD);
    expect(progress.map((p) => p.phase)).toEqual([
      'starting',
      'downloading',
      'downloading',
      'downloading',
      'loading',
      'loading',
      'loading',
      'compiling',
      'compiling',
      'ready',
    ]);
    expectMonotonic(progress);
    expect(progress.map((p) => Math.round(p.fraction * 1000) / 1000)).toEqual([0, 0.283, 0.567, 0.85, 0.883, 0.917, 0.95, 0.962, 1, 1]);
    expect(progress.every((p) => !p.fromCache)).toBe(true);
    expect(progress[1]).toMatchObject({ bytesLoaded: 100 * MIB, bytesTotal: 300 * MIB, secondsLeft: 20, phaseFraction: 1 / 3 });
    expect(progress[2]?.secondsLeft).toBe(10);
    expect(progress[3]?.secondsLeft).toBeUndefined();
    // Loading shares the download's clock: 2 s per shard from the end of the download.
    expect(progress[4]).toMatchObject({ bytesLoaded: 100 * MIB, bytesTotal: 300 * MIB, secondsLeft: 4 });
    expect(progress[7]?.secondsLeft).toBe(3);
    expect(progress[9]).toMatchObject({ phase: 'ready', fraction: 1, phaseFraction: 1, text: 'Finish loading on WebGPU - NVIDIA H200' });
  });

  it('learns a load from the cache when loading starts with no download, and gives it the whole bar', () => {
    const cachedLoad = FIRST_LOAD.filter((report) => !report.text.startsWith('Fetching'));
    const progress = track(cachedLoad);
    expect(progress.map((p) => p.phase)).toEqual(['starting', 'loading', 'loading', 'loading', 'compiling', 'compiling', 'ready']);
    expect(progress[0]?.fromCache).toBe(false);
    expect(progress.slice(1).every((p) => p.fromCache)).toBe(true);
    expectMonotonic(progress);
    expect(progress[3]?.fraction).toBeCloseTo(0.8);
    // The clock started when fetching did, so from cache it counts from zero.
    expect(progress[1]?.secondsLeft).toBe(64);
  });

  it('starts with the cached split when told the weights are cached', () => {
    const tracker = createLoadProgressTracker({ cached: true });
    expect(tracker.current).toMatchObject({ phase: 'starting', fraction: 0, fromCache: true });
  });

  it('stays monotonic over the reports of real loads of many shards, cached or not', () => {
    for (const cached of [false, true]) {
      const shardBytes = Array.from({ length: 57 }, (_, i) => (i === 0 ? 311 : 87) * MIB + i * 4096);
      const progress = track(webLlmLoadReports({ shardBytes, cached, shaderModules: 143 }));
      expectMonotonic(progress);
      expect(progress.at(-1)).toMatchObject({ phase: 'ready', fraction: 1, fromCache: cached });
      const total = shardBytes.reduce((a, b) => a + b, 0);
      const lastShard = progress.filter((p) => p.phase === (cached ? 'loading' : 'downloading')).at(-1);
      expect(Math.abs((lastShard?.bytesTotal ?? 0) - total)).toBeLessThanOrEqual(MIB);
    }
  });

  it('keeps the bar where it was on a line it does not know', () => {
    const tracker = createLoadProgressTracker();
    tracker.update(FIRST_LOAD[1] as InitProgressReport);
    const odd = tracker.update({ progress: 0.01, timeElapsed: 11, text: 'Something new in a later web-llm' });
    expect(odd).toMatchObject({ phase: 'downloading', text: 'Something new in a later web-llm' });
    expect(odd.fraction).toBeCloseTo(0.283, 3);
  });
});
