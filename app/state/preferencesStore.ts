// The preference vector the sliders edit. It applies to the next run: the session copies it into
// the config when Run is pressed. Kept on this device (it holds no secret).

import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { PREFERENCE_PRESETS, preferenceInstruction, type PreferencePresetName, type PreferenceVector } from '../../workers/engine/preferences.ts';
import type { validatePreference } from '../../workers/engine/preferenceSchema.ts';
import { migratePersisted } from './persistedVersions.ts';

export type ObjectiveName = 'outcome' | 'cost' | 'latency';

export interface PreferencesState {
  /** The preset the vector equals, or 'custom' once a slider moved. */
  preset: PreferencePresetName | 'custom';
  vector: PreferenceVector;
  /** Whether the plain-words instruction is added to the task. */
  instructionEnabled: boolean;
}

export const usePreferencesStore = create<PreferencesState>()(
  persist(
    (): PreferencesState => ({ preset: 'balanced', vector: PREFERENCE_PRESETS.balanced, instructionEnabled: true }),
    {
      name: 'orchestra-playground:preferences',
      version: 1,
      // One shape so far; a newer version's saved vector is kept aside and the defaults are used.
      migrate: (saved, version) => migratePersisted('orchestra-playground:preferences', 1, {}, saved, version).state,
      // Read back once the check (which needs zod) has loaded: hydratePreferences.
      skipHydration: true,
      // A stored value that no longer validates is dropped rather than trusted.
      merge: (stored, current) => {
        const candidate = stored as Partial<PreferencesState> | undefined;
        const checked = validateStored?.(candidate?.vector);
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

let validateStored: typeof validatePreference | undefined;

/** Reads the kept preferences back, checked by `validate` (draftCheck.ts calls this when the checks
 * load, before any panel that shows the preferences renders). Once is enough. */
export function hydratePreferences(validate: typeof validatePreference): void {
  if (validateStored) return;
  validateStored = validate;
  void usePreferencesStore.persist.rehydrate();
}

export const preferenceActions = {
  choosePreset(preset: PreferencePresetName): void {
    // Tool weights are the user's own; a preset sets the objectives.
    usePreferencesStore.setState((state) => ({
      preset,
      vector: { ...PREFERENCE_PRESETS[preset], tools: state.vector.tools },
    }));
  },
  setObjective(name: ObjectiveName, weight: number): void {
    usePreferencesStore.setState((state) => ({ preset: 'custom', vector: { ...state.vector, [name]: weight } }));
  },
  /** -1 avoid … +1 prefer; 0 removes the entry. */
  setToolWeight(toolOrAlias: string, weight: number): void {
    usePreferencesStore.setState((state) => {
      const tools = { ...state.vector.tools };
      if (weight === 0) delete tools[toolOrAlias];
      else tools[toolOrAlias] = weight;
      return { preset: 'custom', vector: { ...state.vector, tools } };
    });
  },
  setInstructionEnabled(enabled: boolean): void {
    usePreferencesStore.setState({ instructionEnabled: enabled });
  },
  /** Adopts an imported config's preference. */
  load(vector: PreferenceVector, preset: PreferencePresetName | 'custom', instructionEnabled: boolean): void {
    usePreferencesStore.setState({ vector, preset, instructionEnabled });
  },
};

/** The instruction the next run will add to the task, or null. */
export function selectInstruction(state: PreferencesState): string | null {
  return state.instructionEnabled ? preferenceInstruction(state.vector) : null;
}
