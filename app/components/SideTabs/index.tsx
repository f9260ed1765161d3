// The side column's tabs: the task (with the preferences and Run), the run history, Evaluate, Setup, Models, Documents and
// Tools. Every panel stays mounted (a half-typed key or tool survives a switch); the ones not
// shown are hidden, as the tab pattern wants.

import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { SIDE_TABS, type SideTab } from '../../state/viewStore.ts';
import './SideTabs.css';
import { useLoadedDraftChecks, useRunStore, useSetupStore, useViewActions, useViewStore } from '../../state/context.tsx';

const LABELS: Record<SideTab, string> = {
  task: 'Task',
  history: 'History',
  evaluate: 'Evaluate',
  setup: 'Setup',
  models: 'Models',
  documents: 'Documents',
  tools: 'Tools',
};

export function SideTabs({ panels }: { panels: Record<SideTab, ReactNode> }) {
  const viewActions = useViewActions();
  const active = useViewStore((state) => state.sideTab);
  const running = useRunStore((state) => state.phase !== 'idle');
  // Problems in the config, or a saved config that was set aside: Setup has something to say.
  // The draft's check loads right after the first screen; until then only a set-aside config shows.
  const checks = useLoadedDraftChecks();
  const setupHasProblems = useSetupStore((state) => state.setAside !== null || (checks !== undefined && !checks.checkDraft(state.draft).ok));
  const baseId = useId();
  const tabs = useRef<Partial<Record<SideTab, HTMLButtonElement | null>>>({});

  // Arrow keys, Home and End move along the tabs and open the one they land on.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = SIDE_TABS.indexOf(active);
    const next =
      event.key === 'ArrowRight' ? SIDE_TABS[(index + 1) % SIDE_TABS.length]
      : event.key === 'ArrowLeft' ? SIDE_TABS[(index - 1 + SIDE_TABS.length) % SIDE_TABS.length]
      : event.key === 'Home' ? SIDE_TABS[0]
      : event.key === 'End' ? SIDE_TABS[SIDE_TABS.length - 1]
      : undefined;
    if (!next) return;
    event.preventDefault();
    viewActions.openSideTab(next);
    tabs.current[next]?.focus();
  };

  return (
    <div className="side-tabs" data-tab={active}>
      <div className="side-tab-list" role="tablist" aria-label="Side panels" onKeyDown={onKeyDown}>
        {SIDE_TABS.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              tabs.current[tab] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab}-tab`}
            aria-controls={`${baseId}-${tab}-panel`}
            aria-selected={tab === active}
            tabIndex={tab === active ? 0 : -1}
            className="side-tab"
            // Said in words too: the mark is only a dot on screen.
            aria-label={tab === 'setup' && setupHasProblems ? `${LABELS[tab]}, has problems` : undefined}
            onClick={() => viewActions.openSideTab(tab)}
          >
            {LABELS[tab]}
            {tab === 'task' && running && tab !== active ? (
              <span className="side-tab-mark side-tab-running" title="A run is going" aria-hidden="true" />
            ) : null}
            {tab === 'setup' && setupHasProblems ? (
              <span className="side-tab-mark side-tab-problem" title="The setup has problems" aria-hidden="true" />
            ) : null}
          </button>
        ))}
      </div>
      {SIDE_TABS.map((tab) => (
        <div
          key={tab}
          role="tabpanel"
          id={`${baseId}-${tab}-panel`}
          aria-labelledby={`${baseId}-${tab}-tab`}
          className="side-tab-panel"
          hidden={tab !== active}
        >
          {panels[tab]}
        </div>
      ))}
    </div>
  );
}
