// The Evaluate tab's state: the suite and policies chosen, the evaluation going on, and the
// results on screen (run here, or imported from the CLI). Only app/state/evaluation.ts changes
// what concerns the worker; a selection is set through these actions directly.

import type { StoreApi } from 'zustand/vanilla';
import { noticeActions, makeStore, plainStore, type Notice, type StoreWithActions } from './storeKit.ts';
import type { BuiltInSuite } from '../../workers/eval/builtInSuites.ts';
import type { Tau2SuiteName } from '../../workers/domains/tau2/suiteNames.ts';
import type { EvalReport, EvalSummary, PolicyDescription, RolloutRecord } from '../../workers/eval/results.ts';
import type { EvalProgress } from '../../workers/eval/runner.ts';
import type { EvalEnd, EvalRequest, SuiteReading } from '../../workers/hosts/messages.ts';
import type { PolicyChoice } from '../components/Evaluate/evalView.ts';

export type SuiteChoice = { kind: 'builtin'; name: BuiltInSuite | Tau2SuiteName } | { kind: 'file'; name: string; text: string; bytes: number };

export type EvalPhase = 'idle' | 'starting' | 'running' | 'stopping';

/** The evaluation on screen. */
export interface EvalResults {
  origin: 'run' | 'import';
  /** Where the suite came from (builtin:corpus, a file's name), or the imported file's name. */
  source: string;
  /** Run here or imported from a results file: every rollout's record (drill-down, resume); of an
   * import, the first SAVED_LIMITS.records in list order (the report counts them all). */
  records: RolloutRecord[];
  /** How many rollouts an imported results file holds, when the page keeps fewer. */
  recordCount?: number;
  /** What the report needs to be recomputed from the records (absent for an imported summary). */
  plan?: { taskIds: string[]; policies: PolicyDescription[]; rollouts: number };
  /** A summary or report drawn as it is: imported, or the last results restored after a reload. */
  imported?: EvalSummary | EvalReport;
  /** Restored after a reload: when these results were saved (ISO). */
  savedAt?: string;
  /** The request that ran it, for a resume after Stop. */
  request?: EvalRequest;
  end?: EvalEnd;
}

export interface EvalState {
  suite: SuiteChoice;
  /** What the worker read of the chosen suite; null while it reads. */
  reading: SuiteReading | null;
  readingId: string | null;
  policies: PolicyChoice;
  /** Who plays a τ² suite's user: `scripted`, or an expert alias of the config (`--user`). */
  user: string;
  /** Prompted Qwen3 (local): the id of the model loaded in this browser to run as orchestrator, or null (off). */
  qwen3: string | null;
  rollouts: number;
  concurrency: number;
  /** The suite's first this many tasks, as typed: empty for all (the CLI's --limit). */
  limit: string;
  /** As typed: empty for no budget. */
  budget: string;
  seed: string;
  phase: EvalPhase;
  evalId: string | null;
  progress: EvalProgress | null;
  /** Why it could not start or broke, or what ended it early, in words. */
  notice: Notice | null;
  results: EvalResults | null;
}

const initialEvalState: EvalState = {
  suite: { kind: 'builtin', name: 'corpus' },
  reading: null,
  readingId: null,
  policies: { orchestrator: true, sweep: 'none', strongest: true, cheapest: true, random: false },
  user: 'scripted',
  qwen3: null,
  rollouts: 1,
  concurrency: 4,
  limit: '',
  budget: '',
  seed: '0',
  phase: 'idle',
  evalId: null,
  progress: null,
  notice: null,
  results: null,
};

type Store = StoreApi<EvalState>;

const evalActions = {
  setPolicies(store: Store, policies: Partial<PolicyChoice>): void {
    store.setState((state) => ({ policies: { ...state.policies, ...policies } }));
  },
  setQwen3(store: Store, modelId: string | null): void {
    store.setState({ qwen3: modelId });
  },
  setOptions(store: Store, options: Partial<Pick<EvalState, 'rollouts' | 'concurrency' | 'budget' | 'seed' | 'user' | 'limit'>>): void {
    store.setState(options);
  },
  ...noticeActions,
};

export type EvalStore = StoreWithActions<EvalState, typeof evalActions>;

export function createEvalStore(): EvalStore {
  return makeStore(plainStore(initialEvalState), {}, evalActions);
}
