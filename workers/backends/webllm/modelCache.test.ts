import { describe, expect, it } from 'vitest';
import { findLocalModel } from './catalogue.ts';
import { deleteModelFromCache, describeStorage, isModelCached, storageEstimate } from './modelCache.ts';

// The Cache API, IndexedDB and navigator.storage exist only in browsers; their behaviour there is
// for a browser test. Here: what these helpers do where there is no storage at all.
const model = findLocalModel('Qwen3-0.6B-q4f32_1-MLC');
if (!model) throw new Error('catalogue lost Qwen3-0.6B');

describe('model cache helpers without browser storage', () => {
  it('say nothing is cached, refuse to delete with a reason, and give no estimate', async () => {
    expect(await isModelCached(model)).toBe(false);
    expect(await isModelCached(model, { cacheBackend: 'indexeddb' })).toBe(false);
    await expect(deleteModelFromCache(model)).rejects.toThrow('This context has no cache storage, so nothing of Qwen3 0.6B (q4f32) is stored here.');
    expect(await storageEstimate()).toBeUndefined();
  });

  it('describes storage use in plain words', () => {
    expect(describeStorage({ usageBytes: 9.6e9, quotaBytes: 10e9, freeBytes: 0.4e9 })).toBe(
      'This site stores 9.6 GB of the 10.0 GB the browser allows it (0.4 GB free).',
    );
  });
});
