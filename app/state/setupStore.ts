// The configuration being edited: the same file the CLI reads (docs/configuration.md). The
// preference lives in the preferences store while editing and is merged back on export and run.
// Which providers have a key, and the origin each key is bound to, is mirrored from the worker;
// the keys themselves never enter here.

import type { z } from 'zod';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import paperVllmExample from '../../cli/examples/paper-vllm.json' with { type: 'json' };
import type { OrchestraConfig } from '../../workers/engine/config.ts';
import type { configSchema } from '../../workers/hosts/config.ts';
import { configBoundsProblems } from '../../workers/engine/configBasics.ts';
import type { HeldKey } from '../../workers/hosts/keys.ts';
import { migratePersisted, type PersistedSteps } from './persistedVersions.ts';
import { makeStore, type Bound } from './storeKit.ts';

/** A config as written in the file (defaults not yet filled in). */
export type ConfigDraft = z.input<typeof configSchema>;

export interface SetupState {
  draft: ConfigDraft;
  /** Where the draft came from: the built-in example, an imported file's name, edits, or "Try the
   * demo" (with the draft it replaced, which "Back to your config" restores). */
  source: { kind: 'example' } | { kind: 'imported'; fileName: string } | { kind: 'edited' } | DemoSource;
  /** Providers whose key the worker holds right now, with the origin each key is bound to. */
  heldKeys: HeldKey[];
  /** Providers whose key is also kept in this browser's localStorage, by the user's choice. */
  rememberedProviders: string[];
  /** Why the config saved in this browser was not loaded (it broke the config's bounds), or null. */
  setAside: string[] | null;
  /** Addresses outside web-llm's catalogue (custom weights, model libraries) the user agreed to
   * load models from. Kept with the config they chose: a new config starts with none. */
  trustedAddresses: string[];
}

export interface DemoSource {
  kind: 'demo';
  previous: { draft: ConfigDraft; source: Exclude<SetupState['source'], DemoSource> };
}

export const EXAMPLE_CONFIG = withoutPreference(paperVllmExample as ConfigDraft);

/** The last draft within the config's bounds: the one kept on this device (one per store). */
interface SafeDraft {
  draft: ConfigDraft;
}

function persistableDraft(safe: SafeDraft, draft: ConfigDraft): ConfigDraft {
  if (draft !== safe.draft && configBoundsProblems(draft).length === 0) safe.draft = draft;
  return safe.draft;
}

type Persisted = Pick<SetupState, 'draft' | 'source' | 'rememberedProviders' | 'trustedAddresses'>;

const SETUP_KEY = 'orchestra-playground:setup';
/** The version of the saved shape. A change to Persisted that an older saved state lacks bumps it
 * and adds the step from the old shape to SETUP_STEPS. */
const SETUP_VERSION = 1;
const SETUP_STEPS: PersistedSteps = {};

/** The config being edited, kept in `storage` (the browser's localStorage). */
function createPersistedSetup(storage: () => Storage): StoreApi<SetupState> {
  const safe: SafeDraft = { draft: EXAMPLE_CONFIG };
  return createStore<SetupState>()(
    persist(
      (): SetupState => ({ draft: EXAMPLE_CONFIG, source: { kind: 'example' }, heldKeys: [], rememberedProviders: [], setAside: null, trustedAddresses: [] }),
      {
        name: SETUP_KEY,
        storage: createJSONStorage(storage),
        version: SETUP_VERSION,
        migrate: (saved, version) => {
          const { state, setAside } = migratePersisted(SETUP_KEY, SETUP_VERSION, SETUP_STEPS, saved, version);
          return setAside ? { setAside: [setAside] } : state;
        },
        // Only the config (which holds no keys) and where it came from are kept on this device, and
        // only a config within its bounds: a draft that outgrew them (in edits) is not written.
        partialize: (state): Persisted => ({
          draft: persistableDraft(safe, state.draft),
          source: state.source,
          rememberedProviders: state.rememberedProviders,
          // Trust goes with the config it was given for, so it is kept only while that one is.
          trustedAddresses: state.draft === safe.draft ? state.trustedAddresses : [],
        }),
        // What was saved is checked before use: a config out of bounds (saved by an earlier version,
        // or written by hand) is set aside with the reason, instead of freezing every page load.
        merge: (persisted, current): SetupState => {
          const saved = (persisted ?? {}) as Partial<Persisted> & Pick<Partial<SetupState>, 'setAside'>;
          if (saved.setAside) return { ...current, setAside: saved.setAside };
          const rememberedProviders = Array.isArray(saved.rememberedProviders) ? saved.rememberedProviders : current.rememberedProviders;
          if (saved.draft === undefined) return { ...current, rememberedProviders };
          const problems = configBoundsProblems(saved.draft);
          if (problems.length > 0) return { ...current, rememberedProviders, setAside: problems };
          safe.draft = saved.draft;
          // The config "Try the demo" replaced is restored later: it must be within bounds too.
          const previous = saved.source?.kind === 'demo' ? (saved.source.previous as Partial<DemoSource['previous']> | undefined)?.draft : undefined;
          const source =
            saved.source?.kind === 'demo' && (typeof previous !== 'object' || previous === null || configBoundsProblems(previous).length > 0)
              ? ({ kind: 'edited' } as const)
              : saved.source;
          const trustedAddresses = Array.isArray(saved.trustedAddresses) ? saved.trustedAddresses.filter((url) => typeof url === 'string') : [];
          return { ...current, draft: saved.draft, source: source ?? current.source, rememberedProviders, trustedAddresses };
        },
      },
    ),
  );
}

/** A draft checked the way the worker and the CLI will (draftCheck.ts, which loads the schema). */
export type DraftCheck = { ok: true; config: OrchestraConfig } | { ok: false; problems: string[] };

/** The draft without its preference fields, which the preferences store owns while editing. */
export function withoutPreference(draft: ConfigDraft): ConfigDraft {
  const { preference: _preference, preferenceInstruction: _instruction, ...rest } = draft;
  return rest;
}

type Store = StoreApi<SetupState>;

const setupActions = {
  setDraft(store: Store, draft: ConfigDraft): void {
    store.setState({ draft: withoutPreference(draft), source: { kind: 'edited' } });
  },
  /** A new config: the addresses trusted for the last one are not trusted for it. */
  imported(store: Store, draft: ConfigDraft, fileName: string): void {
    store.setState({ draft: withoutPreference(draft), source: { kind: 'imported', fileName }, trustedAddresses: [] });
  },
  /** "Try the demo": the scripted demo's config, keeping the one it replaces to go back to. */
  startDemo(store: Store, draft: ConfigDraft): void {
    store.setState((state) => ({
      draft: withoutPreference(draft),
      source: state.source.kind === 'demo' ? state.source : { kind: 'demo', previous: { draft: state.draft, source: state.source } },
    }));
  },
  leaveDemo(store: Store): void {
    store.setState((state) => (state.source.kind === 'demo' ? { draft: state.source.previous.draft, source: state.source.previous.source } : {}));
  },
  useExample(store: Store): void {
    store.setState({ draft: EXAMPLE_CONFIG, source: { kind: 'example' }, trustedAddresses: [] });
  },
  trustAddresses(store: Store, urls: readonly string[]): void {
    store.setState((state) => ({ trustedAddresses: [...new Set([...state.trustedAddresses, ...urls])] }));
  },
  dismissSetAside(store: Store): void {
    store.setState({ setAside: null });
  },
  keysHeld(store: Store, heldKeys: HeldKey[]): void {
    store.setState({ heldKeys });
  },
  setRemembered(store: Store, provider: string, remembered: boolean): void {
    store.setState((state) => ({
      rememberedProviders: remembered
        ? [...new Set([...state.rememberedProviders, provider])]
        : state.rememberedProviders.filter((name) => name !== provider),
    }));
  },
};

export type SetupStore = StoreApi<SetupState> & { actions: Bound<typeof setupActions> };

/** The setup store, read back from and kept in `storage` (the browser's localStorage). */
export function createSetupStore(storage: () => Storage): SetupStore {
  return makeStore(createPersistedSetup(storage), {}, setupActions);
}
