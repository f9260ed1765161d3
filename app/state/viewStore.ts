// Which side tab is open (Task, History, Evaluate, Setup, Models, Documents, Tools). The trace and the cost stay on
// screen whichever it is. Kept for the tab's session, so a reload comes back to the same tab.
// Presenter view (large type, the trace paced step by step) is kept the same way.

import type { StoreApi } from 'zustand/vanilla';
import { revealAll, revealedFor, revealNext, type Pacing } from './pacing.ts';
import type { RunStore } from './runStore.ts';
import { makeStore, plainStore, type Bound } from './storeKit.ts';

export const SIDE_TABS = ['task', 'history', 'evaluate', 'setup', 'models', 'documents', 'tools'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

const STORAGE_KEY = 'orchestra-playground:side-tab';
const PRESENTER_KEY = 'orchestra-playground:presenter';

function stored(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    // Storage can be refused (a sandboxed frame, some privacy settings): start as a fresh tab.
    return null;
  }
}

function keep(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value);
  } catch {
    // Not remembered across a reload; nothing else depends on it.
  }
}

function storedTab(storage: () => Storage): SideTab {
  const tab = stored(storage, STORAGE_KEY);
  return SIDE_TABS.find((candidate) => candidate === tab) ?? 'task';
}

export interface ViewState {
  sideTab: SideTab;
  /** The text in the task box ("Try the demo" fills it in, so Run repeats the demo's task). */
  task: string;
  /** The domain the task box's task runs in ('' for none): a built-in domain's name, or a τ² or
   * ToolScale suite's (tau2-retail, toolscale-bank…). */
  domain: string;
  /** Presenter view: large type, the cost beside the trace, the trace paced step by step. */
  presenter: boolean;
  /** How far the presenter has let the run on screen through (presenter view only). */
  pacing: Pacing;
}

/** The view store reads the run on screen (for the pacing) and keeps the tab in sessionStorage. */
type Store = StoreApi<ViewState> & { run: RunStore; storage: () => Storage };

function shownRun(store: Store): { runId: string | null; stepCount: number } {
  const run = store.run.getState().run;
  return { runId: run?.runId ?? null, stepCount: run?.steps.length ?? 0 };
}

const viewActions = {
  setTask(store: Store, task: string): void {
    store.setState({ task });
  },
  setDomain(store: Store, domain: string): void {
    store.setState({ domain });
  },
  openSideTab(store: Store, sideTab: SideTab): void {
    store.setState({ sideTab });
    keep(store.storage, STORAGE_KEY, sideTab);
  },
  /** Turned on mid-run, the steps already there stay on screen and the pacing starts from them. */
  setPresenter(store: Store, presenter: boolean): void {
    const { runId, stepCount } = shownRun(store);
    store.setState({ presenter, pacing: { runId, revealed: revealAll(stepCount) } });
    keep(store.storage, PRESENTER_KEY, presenter ? 'on' : 'off');
  },
  /** Presenter view's "Next step" (Space). */
  revealNextStep(store: Store): void {
    const { runId, stepCount } = shownRun(store);
    store.setState(({ pacing }) => ({ pacing: { runId, revealed: revealNext(revealedFor(pacing, runId), stepCount) } }));
  },
  /** Presenter view's "Show all": catches up with the run. */
  revealAllSteps(store: Store): void {
    const { runId, stepCount } = shownRun(store);
    store.setState({ pacing: { runId, revealed: revealAll(stepCount) } });
  },
};

export type ViewStore = Store & { actions: Bound<typeof viewActions> };

/** The view store of a set of stores: `storage` is the tab's sessionStorage. */
export function createViewStore(run: RunStore, storage: () => Storage): ViewStore {
  const view = plainStore<ViewState>({
    sideTab: storedTab(storage),
    task: '',
    domain: '',
    presenter: stored(storage, PRESENTER_KEY) === 'on',
    pacing: { runId: null, revealed: 1 },
  });
  // A run that leaves the screen takes its pacing with it: the next one (a new run, or a replay of
  // the same run) starts again at its first step.
  run.subscribe((state, previous) => {
    if (state.run === null && previous.run !== null) view.setState({ pacing: { runId: null, revealed: 1 } });
  });
  return makeStore(view, { run, storage }, viewActions);
}
