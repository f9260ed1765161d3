// Which side tab is open (Task, History, Evaluate, Setup, Models, Documents, Tools). The trace and the cost stay on
// screen whichever it is. Kept for the tab's session, so a reload comes back to the same tab.
// Presenter view (large type, the trace paced step by step) is kept the same way.

import { create } from 'zustand';
import { revealAll, revealedFor, revealNext, type Pacing } from './pacing.ts';
import { useRunStore } from './runStore.ts';

export const SIDE_TABS = ['task', 'history', 'evaluate', 'setup', 'models', 'documents', 'tools'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

const STORAGE_KEY = 'orchestra-playground:side-tab';
const PRESENTER_KEY = 'orchestra-playground:presenter';

function stored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    // Storage can be refused (a sandboxed frame, some privacy settings): start as a fresh tab.
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Not remembered across a reload; nothing else depends on it.
  }
}

function storedTab(): SideTab {
  const tab = stored(STORAGE_KEY);
  return SIDE_TABS.find((candidate) => candidate === tab) ?? 'task';
}

export interface ViewState {
  sideTab: SideTab;
  /** The text in the task box ("Try the demo" fills it in, so Run repeats the demo's task). */
  task: string;
  /** Presenter view: large type, the cost beside the trace, the trace paced step by step. */
  presenter: boolean;
  /** How far the presenter has let the run on screen through (presenter view only). */
  pacing: Pacing;
}

export const useViewStore = create<ViewState>()(() => ({
  sideTab: storedTab(),
  task: '',
  presenter: stored(PRESENTER_KEY) === 'on',
  pacing: { runId: null, revealed: 1 },
}));

// A run that leaves the screen takes its pacing with it: the next one (a new run, or a replay of
// the same run) starts again at its first step.
useRunStore.subscribe((state, previous) => {
  if (state.run === null && previous.run !== null) useViewStore.setState({ pacing: { runId: null, revealed: 1 } });
});

function shownRun(): { runId: string | null; stepCount: number } {
  const run = useRunStore.getState().run;
  return { runId: run?.runId ?? null, stepCount: run?.steps.length ?? 0 };
}

export const viewActions = {
  setTask(task: string): void {
    useViewStore.setState({ task });
  },
  openSideTab(sideTab: SideTab): void {
    useViewStore.setState({ sideTab });
    store(STORAGE_KEY, sideTab);
  },
  /** Turned on mid-run, the steps already there stay on screen and the pacing starts from them. */
  setPresenter(presenter: boolean): void {
    const { runId, stepCount } = shownRun();
    useViewStore.setState({ presenter, pacing: { runId, revealed: revealAll(stepCount) } });
    store(PRESENTER_KEY, presenter ? 'on' : 'off');
  },
  /** Presenter view's "Next step" (Space). */
  revealNextStep(): void {
    const { runId, stepCount } = shownRun();
    useViewStore.setState(({ pacing }) => ({ pacing: { runId, revealed: revealNext(revealedFor(pacing, runId), stepCount) } }));
  },
  /** Presenter view's "Show all": catches up with the run. */
  revealAllSteps(): void {
    const { runId, stepCount } = shownRun();
    useViewStore.setState({ pacing: { runId, revealed: revealAll(stepCount) } });
  },
};
