import { useMemo } from 'react';
import { toConfig } from '../../storage/customToolRecords.ts';
import { weighedTargets, type WeighedTargets } from './preferenceRows.ts';
import { useCustomToolsStore, useDraftCheck, usePreferencesStore, useSetupStore } from '../../state/context.tsx';

/** The tools (built-in and your own) and aliases of the config being edited, plus any weighted name it lacks. `valid`
 * is false while the setup does not validate (then only weighted names are listed). */
export function useWeighedTargets(): WeighedTargets & { valid: boolean } {
  const draft = useSetupStore((state) => state.draft);
  const customTools = useCustomToolsStore((state) => state.tools);
  const weights = usePreferencesStore((state) => state.vector.tools);
  // The tools you write join the run's config only at Run; they are weighed like the others.
  const withTools = useMemo(() => ({ ...draft, customTools: customTools.map(toConfig) }), [draft, customTools]);
  const check = useDraftCheck(withTools);
  const config = check.ok ? check.config : null;
  return useMemo(() => ({ ...weighedTargets(config, weights), valid: config !== null }), [config, weights]);
}
