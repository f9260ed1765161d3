// The preference vector the sliders edit. It applies to the next run: the session copies it into
// the config when Run is pressed. Kept on this device (it holds no secret).

import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { PREFERENCE_PRESETS, preferenceInstruction, type PreferencePresetName, type PreferenceVector } from '../../workers/engine/preferences.ts';
import type { validatePreference } from '../../workers/engine/preferenceSchema.ts';
import { migratePersisted } from './persistedVersions.ts';
import { makeStore, type Bound } from './storeKit.ts';

export type ObjectiveName = 'outcome' | 'cost' | 'latency';

export interface PreferencesState {
  /** The preset the vector equals, or 'custom' once a slider moved. */
  preset: PreferencePresetName | 'custom';
  vector: PreferenceVector;
  /** Whether the plain-words instruction is added to the task. */
  instructionEnabled: boolean;
}

/** The check of a kept vector, once the checks have loaded (hydrate). */
interface Validator {
  validate?: typeof validatePreference;
}

function createPersistedPreferences(storage: () => Storage, checks: Validator) {
  return createStore<PreferencesState>()(
    persist(
      (): PreferencesState => ({ preset: 'balanced', vector: PREFERENCE_PRESETS.balanced, instructionEnabled: true }),
      {
        name: 'orchestra-playground:preferences',
        storage: createJSONStorage(storage),
        version: 1,
        // One shape so far; a newer version's saved vector is kept aside and the defaults are used.
        migrate: (saved, version) => migratePersisted('orchestra-playground:preferences', 1, {}, saved, version).state,
        // Read back once the check (which needs zod) has loaded: hydrate.
        skipHydration: true,
        // A stored value that no longer validates is dropped rather than trusted.
        merge: (stored, current) => {
          const candidate = stored as Partial<PreferencesState> | undefined;
          const checked = checks.validate?.(candidate?.vector);
          if (!checked?.ok) return current;
          return {
            ...current,
            vector: checked.value,
            preset: candidate?.preset ?? 'custom',
            instructionEnabled: candidate?.instructionEnabled ?? true,
          };
        },
      },
    ),
  );
}

type Store = StoreApi<PreferencesState>;

const preferenceActions = {
  choosePreset(store: Store, preset: PreferencePresetName): void {
    // Tool weights are the user's own; a preset sets the objectives.
    store.setState((state) => ({
      preset,
      vector: { ...PREFERENCE_PRESETS[preset], tools: state.vector.tools },
    }));
  },
  setObjective(store: Store, name: ObjectiveName, weight: number): void {
    store.setState((state) => ({ preset: 'custom', vector: { ...state.vector, [name]: weight } }));
  },
  /** -1 avoid … +1 prefer; 0 removes the entry. */
  setToolWeight(store: Store, toolOrAlias: string, weight: number): void {
    store.setState((state) => {
      const tools = { ...state.vector.tools };
      if (weight === 0) delete tools[toolOrAlias];
      else tools[toolOrAlias] = weight;
      return { preset: 'custom', vector: { ...state.vector, tools } };
    });
  },
  setInstructionEnabled(store: Store, enabled: boolean): void {
    store.setState({ instructionEnabled: enabled });
  },
  /** Adopts an imported config's preference. */
  load(store: Store, vector: PreferenceVector, preset: PreferencePresetName | 'custom', instructionEnabled: boolean): void {
    store.setState({ vector, preset, instructionEnabled });
  },
};

export type PreferencesStore = Store & {
  actions: Bound<typeof preferenceActions>;
  /** Reads the kept preferences back, checked by `validate` (the draft checks call this when they
   * load, before any panel that shows the preferences renders). Once is enough. */
  hydrate(validate: typeof validatePreference): void;
};

/** The preferences store, kept in `storage` (the browser's localStorage), read back by `hydrate`. */
export function createPreferencesStore(storage: () => Storage): PreferencesStore {
  const checks: Validator = {};
  const store = createPersistedPreferences(storage, checks);
  const hydrate = (validate: typeof validatePreference) => {
    if (checks.validate) return;
    checks.validate = validate;
    void store.persist.rehydrate();
  };
  return makeStore(store, { hydrate }, preferenceActions);
}

/** The instruction the next run will add to the task, or null. */
export function selectInstruction(state: PreferencesState): string | null {
  return state.instructionEnabled ? preferenceInstruction(state.vector) : null;
}
