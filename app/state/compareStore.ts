// The runs being compared side by side (two to four, from history), or null when none are.

import type { StoreApi } from 'zustand/vanilla';
import { makeStore, plainStore, type StoreWithActions } from './storeKit.ts';
import type { ComparedRun } from './compareModel.ts';

export interface CompareState {
  compared: ComparedRun[] | null;
}

type Store = StoreApi<CompareState>;

const compareActions = {
  show(store: Store, compared: ComparedRun[]): void {
    store.setState({ compared });
  },
  close(store: Store): void {
    store.setState({ compared: null });
  },
};

export type CompareStore = StoreWithActions<CompareState, typeof compareActions>;

export function createCompareStore(): CompareStore {
  return makeStore(plainStore({ compared: null }), {}, compareActions);
}

