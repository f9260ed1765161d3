import { useMemo } from 'react';
import { checkDraft, useSetupStore } from '../../state/setupStore.ts';
import { usePreferencesStore } from '../../state/preferencesStore.ts';
import { weighedTargets, type WeighedTargets } from './preferenceRows.ts';

/** The tools and aliases of the config being edited, plus any weighted name it lacks. `valid`
 * is false while the setup does not validate (then only weighted names are listed). */
export function useWeighedTargets(): WeighedTargets & { valid: boolean } {
  const draft = useSetupStore((state) => state.draft);
  const weights = usePreferencesStore((state) => state.vector.tools);
  const check = useMemo(() => checkDraft(draft), [draft]);
  const config = check.ok ? check.config : null;
  return useMemo(() => ({ ...weighedTargets(config, weights), valid: config !== null }), [config, weights]);
}
