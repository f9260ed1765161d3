// The page's stores reach its components through React context: main.tsx makes one set
// (appStores.ts) and provides it around the app; a component reads a store with a selector, so
// it re-renders only when what it selected changes. The set never changes after the first render,
// so the provider itself causes no render.

import { createContext, use, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { AppStores } from './appStores.ts';
import type { ComparisonState } from './comparisonStore.ts';
import type { CompareState } from './compareStore.ts';
import type { CustomToolsState } from './customToolsStore.ts';
import type { DraftChecker } from './draftCheck.ts';
import type { HistoryState } from './historyStore.ts';
import type { ModelsState } from './modelsStore.ts';
import type { PreferencesState } from './preferencesStore.ts';
import type { RunState } from './runStore.ts';
import type { ConfigDraft, DraftCheck, SetupState } from './setupStore.ts';
import type { ViewState } from './viewStore.ts';

const StoresContext = createContext<AppStores | null>(null);

export function StoresProvider({ stores, children }: { stores: AppStores; children: ReactNode }) {
  return <StoresContext value={stores}>{children}</StoresContext>;
}

/** The set of stores this app was given. */
export function useAppStores(): AppStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('A component that reads the stores is rendered outside <StoresProvider>.');
  return stores;
}

/** A part loaded with its tab (history, replay, evaluation, the trace's store): see AppStores.part. */
export function usePart<T>(factory: (stores: AppStores) => T): T {
  return useAppStores().part(factory);
}

/** What `selector` picks of a store of this set; re-renders only when that changes. */
export function useSelected<S, T>(store: StoreApi<S>, selector: (state: S) => T): T {
  return useStore(store, selector);
}

export const useRunStore = <T,>(selector: (state: RunState) => T): T => useStore(useAppStores().run, selector);
export const useSetupStore = <T,>(selector: (state: SetupState) => T): T => useStore(useAppStores().setup, selector);
export const usePreferencesStore = <T,>(selector: (state: PreferencesState) => T): T => useStore(useAppStores().preferences, selector);
export const useModelsStore = <T,>(selector: (state: ModelsState) => T): T => useStore(useAppStores().models, selector);
export const useViewStore = <T,>(selector: (state: ViewState) => T): T => useStore(useAppStores().view, selector);
export const useCustomToolsStore = <T,>(selector: (state: CustomToolsState) => T): T => useStore(useAppStores().customTools, selector);
export const useComparisonStore = <T,>(selector: (state: ComparisonState) => T): T => useStore(useAppStores().comparison, selector);
export const useCompareStore = <T,>(selector: (state: CompareState) => T): T => useStore(useAppStores().compare, selector);
export const useHistoryStore = <T,>(selector: (state: HistoryState) => T): T => useStore(useAppStores().history, selector);

export const useSession = () => useAppStores().session;
export const useLocalModels = () => useAppStores().localModels;

/** The draft's check; suspends the calling component until the checks have loaded. */
export function useDraftCheck(draft: ConfigDraft): DraftCheck {
  const { checkDraft } = use(useAppStores().checks.load());
  return useMemo(() => checkDraft(draft), [checkDraft, draft]);
}

/** The checks once loaded, undefined before (re-rendering when they arrive): for a part of the
 * first screen that must not wait for them. */
export function useLoadedDraftChecks(): DraftChecker | undefined {
  const { checks: draftChecks } = useAppStores();
  const [checks, setChecks] = useState(draftChecks.loaded);
  useEffect(() => {
    if (!checks) void draftChecks.load().then(setChecks);
  }, [checks, draftChecks]);
  return checks;
}

export const useRunActions = () => useAppStores().run.actions;
export const useSetupActions = () => useAppStores().setup.actions;
export const usePreferenceActions = () => useAppStores().preferences.actions;
export const useModelsActions = () => useAppStores().models.actions;
export const useViewActions = () => useAppStores().view.actions;
export const useCustomToolsActions = () => useAppStores().customTools.actions;
export const useHistoryActions = () => useAppStores().history.actions;
