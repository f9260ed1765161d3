// Which side tab is open (Task, History, Evaluate, Setup, Models, Documents, Tools). The trace and the cost stay on
// screen whichever it is. Kept for the tab's session, so a reload comes back to the same tab.

import { create } from 'zustand';

export const SIDE_TABS = ['task', 'history', 'evaluate', 'setup', 'models', 'documents', 'tools'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

const STORAGE_KEY = 'orchestra-playground:side-tab';

function storedTab(): SideTab {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    return SIDE_TABS.find((tab) => tab === stored) ?? 'task';
  } catch {
    // Storage can be refused (a sandboxed frame, some privacy settings): start on the task.
    return 'task';
  }
}

export interface ViewState {
  sideTab: SideTab;
  /** The text in the task box ("Try the demo" fills it in, so Run repeats the demo's task). */
  task: string;
}

export const useViewStore = create<ViewState>()(() => ({ sideTab: storedTab(), task: '' }));

export const viewActions = {
  setTask(task: string): void {
    useViewStore.setState({ task });
  },
  openSideTab(sideTab: SideTab): void {
    useViewStore.setState({ sideTab });
    try {
      sessionStorage.setItem(STORAGE_KEY, sideTab);
    } catch {
      // Not remembered across a reload; nothing else depends on it.
    }
  },
};
