// "You against the orchestrator": the person's finished manual run, kept while the orchestrator
// runs the same task, so the two can be compared. Only app/state/session.ts changes it.

import type { StoreApi } from 'zustand/vanilla';
import { makeStore, plainStore, type StoreWithActions } from './storeKit.ts';
import type { RunView } from './runView.ts';

export interface ComparisonState {
  /** The person's run, once they asked the orchestrator to try the same task. */
  you: RunView | null;
  /** The orchestrator's run of that task. */
  orchestratorRunId: string | null;
}

type Store = StoreApi<ComparisonState>;

const comparisonActions = {
  started(store: Store, you: RunView, orchestratorRunId: string): void {
    store.setState({ you, orchestratorRunId });
  },
  cleared(store: Store): void {
    store.setState({ you: null, orchestratorRunId: null });
  },
};

export type ComparisonStore = StoreWithActions<ComparisonState, typeof comparisonActions>;

export function createComparisonStore(): ComparisonStore {
  return makeStore(plainStore({ you: null, orchestratorRunId: null }), {}, comparisonActions);
}

