// State kept in localStorage (zustand's persist) carries the version of its shape. Each store
// lists how to take a saved shape one version forward; this walks them. A shape saved by a newer
// version of the app (opened again in an older one, e.g. a cached build offline) is not forced
// into this one: it is copied aside, untouched, under `<key>:saved-by-version-<n>`, and the store
// starts from its defaults, saying so (nothing the user saved is overwritten and lost).

/** steps[v] takes a state saved at version v to version v + 1. */
export type PersistedSteps = Readonly<Record<number, (state: Record<string, unknown>) => Record<string, unknown>>>;

export interface Migrated {
  state: Record<string, unknown>;
  /** Why the saved state was not used, or null when it was. */
  setAside: string | null;
}

/** Where a state from a newer version is kept aside. */
export const asideKey = (key: string, version: number) => `${key}:saved-by-version-${version}`;

export function migratePersisted(
  key: string,
  current: number,
  steps: PersistedSteps,
  saved: unknown,
  version: number,
  keepAside: (key: string, value: string) => void = writeLocalStorage,
): Migrated {
  const state = saved && typeof saved === 'object' ? (saved as Record<string, unknown>) : {};
  if (version > current || !Number.isInteger(version)) {
    keepAside(asideKey(key, version), JSON.stringify({ state: saved, version }));
    return {
      state: {},
      setAside: `It was saved by a newer version of the playground (format ${version}; this one reads up to ${current}). It is kept unchanged in this browser under "${asideKey(key, version)}"; reload the newer version to use it.`,
    };
  }
  let migrated = state;
  for (let from = version; from < current; from++) {
    const step = steps[from];
    // A version this code never wrote (no step from it) starts over rather than guessing.
    if (!step) return { state: {}, setAside: `It was saved in format ${version}, which this version cannot read.` };
    migrated = step(migrated);
  }
  return { state: migrated, setAside: null };
}

function writeLocalStorage(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage full or refused: the state is lost either way, and the message still says why.
  }
}
