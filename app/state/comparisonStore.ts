// "You against the orchestrator": the person's finished manual run, kept while the orchestrator
// runs the same task, so the two can be compared. Only app/state/session.ts changes it.

import { create } from 'zustand';
import type { RunView } from './runView.ts';

export interface ComparisonState {
  /** The person's run, once they asked the orchestrator to try the same task. */
  you: RunView | null;
  /** The orchestrator's run of that task. */
  orchestratorRunId: string | null;
}

export const useComparisonStore = create<ComparisonState>()(() => ({ you: null, orchestratorRunId: null }));

export const comparisonActions = {
  started(you: RunView, orchestratorRunId: string): void {
    useComparisonStore.setState({ you, orchestratorRunId });
  },
  cleared(): void {
    useComparisonStore.setState({ you: null, orchestratorRunId: null });
  },
};
