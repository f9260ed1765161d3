import { describe, expect, it } from 'vitest';
import { asideKey, migratePersisted } from './persistedVersions.ts';

describe('migratePersisted', () => {
  const steps = {
    0: (state: Record<string, unknown>) => ({ ...state, rememberedProviders: [] }),
    1: (state: Record<string, unknown>) => ({ ...state, trustedAddresses: [] }),
  };

  it('walks every step from the saved version to the current one', () => {
    const kept: string[] = [];
    const result = migratePersisted('k', 2, steps, { draft: 'd' }, 0, (key) => kept.push(key));
    expect(result).toEqual({ state: { draft: 'd', rememberedProviders: [], trustedAddresses: [] }, setAside: null });
    expect(kept).toEqual([]);
  });

  it('leaves a state of the current version as it is', () => {
    expect(migratePersisted('k', 2, steps, { draft: 'd' }, 2, () => undefined)).toEqual({ state: { draft: 'd' }, setAside: null });
  });

  it('keeps a newer version’s state aside, untouched, and starts from the defaults saying why', () => {
    const kept = new Map<string, string>();
    const saved = { draft: { future: true } };
    const result = migratePersisted('orchestra:setup', 2, steps, saved, 5, (key, value) => kept.set(key, value));
    expect(result.state).toEqual({});
    expect(result.setAside).toContain('newer version of the playground (format 5');
    expect(result.setAside).toContain(asideKey('orchestra:setup', 5));
    expect(JSON.parse(kept.get('orchestra:setup:saved-by-version-5')!)).toEqual({ state: saved, version: 5 });
  });

  it('starts over from a version it has no step for', () => {
    const result = migratePersisted('k', 2, { 1: steps[1] }, { draft: 'd' }, 0, () => undefined);
    expect(result).toEqual({ state: {}, setAside: 'It was saved in format 0, which this version cannot read.' });
  });

  it('reads a saved value that is not an object as nothing saved', () => {
    expect(migratePersisted('k', 1, {}, 'garbage', 1, () => undefined)).toEqual({ state: {}, setAside: null });
  });
});
