import { lazy, Suspense, useState } from 'react';
import { ErrorBoundary } from './components/ErrorBoundary/index.tsx';
import { CostPanel } from './components/Cost/index.tsx';
import { PreferencesPanel } from './components/Preferences/index.tsx';
import { PresenterToggle } from './components/Presenter/PresenterToggle.tsx';
import { RunStatus } from './components/RunStatus/index.tsx';
import { ConfigFileButtons } from './components/Setup/ConfigFileButtons.tsx';
import { SideTabs } from './components/SideTabs/index.tsx';
import { TaskPanel } from './components/TaskPanel/index.tsx';
import { ToolsPanel } from './components/Tools/index.tsx';
import { Welcome } from './components/Welcome/index.tsx';
import { useWarnBeforeLeavingRun } from './hooks/useWarnBeforeLeavingRun.ts';
import { useCompareStore, useComparisonStore, useRunStore, useViewStore } from './state/context.tsx';
import type { SideTab } from './state/viewStore.ts';

// Manual mode's panel loads with the first manual run, not with the first screen.
const HumanTurnPanel = lazy(() => import('./components/HumanTurn/index.tsx').then((module) => ({ default: module.HumanTurnPanel })));
// Presenter view (large type, the trace paced step by step) loads when it is switched on.
const PresenterMode = lazy(() => import('./components/Presenter/index.tsx').then(({ PresenterMode }) => ({ default: PresenterMode })));
const PresenterQuestion = lazy(() => import('./components/Presenter/index.tsx').then(({ PresenterQuestion }) => ({ default: PresenterQuestion })));
// Only production builds register the offline service worker; its status loads with it.
const OfflineStatus = lazy(() => import('./components/OfflineStatus/index.tsx').then((module) => ({ default: module.OfflineStatus })));
// Panels that show the config's check (Welcome's next steps, Preferences, Setup) suspend until the check's
// chunk loads, just after the first paint (state/draftCheck.ts); "Try the demo" does not wait for it. The trace (and its virtualiser)
// has nothing to show before the first run, so its chunk loads when a run starts, not with the
// first screen (docs/benchmarks.md, first-load JavaScript).
// History (and the replay and files it drives) loads when its tab is first opened.
const HistoryPanel = lazy(() => import('./components/History/index.tsx').then((module) => ({ default: module.HistoryPanel })));
const StoredRunBanner = lazy(() => import('./components/StoredRun/index.tsx').then((module) => ({ default: module.StoredRunBanner })));
// Evaluate (its suites, the worker's evaluations and, with results, the charts) likewise.
const EvaluatePanel = lazy(() => import('./components/Evaluate/index.tsx').then((module) => ({ default: module.EvaluatePanel })));
// Its results take the centre while the tab is open (as Compare does), from the same chunk.
const EvalResultsView = lazy(() => import('./components/Evaluate/index.tsx').then((module) => ({ default: module.EvalResultsView })));
// This run against the one before: loaded once a second run has finished.
const BeforeAfterStrip = lazy(() => import('./components/BeforeAfter/index.tsx').then((module) => ({ default: module.BeforeAfterStrip })));
const CompareView = lazy(() => import('./components/Compare/index.tsx').then((module) => ({ default: module.CompareView })));
// Setup is a side tab the first screen does not show; it suspends on the check's chunk as well.
const SetupPanel = lazy(() => import('./components/Setup/index.tsx').then(({ SetupPanel }) => ({ default: SetupPanel })));
// Models, too, is a side tab the first screen does not show (the welcome's WebGPU report is its
// own module); it loads just after the first paint, and keeps the first load from growing with
// presenter view's toggle.
const ModelsPanel = lazy(() => import('./components/Models/index.tsx').then(({ ModelsPanel }) => ({ default: ModelsPanel })));
const Trace = lazy(() => import('./components/Trace/index.tsx').then(({ Trace }) => ({ default: Trace })));
// Documents, a side tab the first screen does not show either, loads just after the first paint.
const DocumentsPanel = lazy(() => import('./components/Documents/index.tsx').then(({ DocumentsPanel }) => ({ default: DocumentsPanel })));

/**
 * The workspace: a side column of tabs (the task and its preferences, Setup, Models, Documents,
 * Tools), the run's status and trace in the middle, its cost on the right. On a wide screen the
 * three fit the window and scroll each on its own; on a narrow one they stack.
 */
export function App() {
  useWarnBeforeLeavingRun();
  const sideTab = useViewStore((state) => state.sideTab);
  const presenter = useViewStore((state) => state.presenter);
  // Presenter view with a run on screen is the projector's: the question on top, the trace and the
  // cost chart, no side column (Presenter/Presenter.css). Before a run it keeps the Task tab, and
  // another tab opened (P, then History: to replay a run to the class) keeps its column.
  const projecting = useRunStore((state) => presenter && sideTab === 'task' && state.run !== null);
  return (
    <div className="app">
      <AppHeader presenter={presenter} />
      <main className="workspace" data-side-tab={sideTab} data-presenter={presenter || undefined} data-projecting={projecting || undefined}>
        {projecting && (
          <Suspense fallback={null}>
            <PresenterQuestion />
          </Suspense>
        )}
        <div className="column-side">
          <SidePanels sideTab={sideTab} />
        </div>
        <div className="column-trace">
          <TraceColumn />
        </div>
        <div className="column-cost">
          <ErrorBoundary what="Cost and latency">
            <CostPanel />
          </ErrorBoundary>
        </div>
      </main>
    </div>
  );
}

function AppHeader({ presenter }: { presenter: boolean }) {
  return (
    <header className="app-header">
      <h1>Orchestra Playground</h1>
      {/* Header controls that apply to the whole page go in this group. */}
      <div className="app-header-actions">
        <PresenterToggle />
        {presenter && (
          <Suspense fallback={null}>
            <PresenterMode />
          </Suspense>
        )}
        {import.meta.env.PROD && (
          <Suspense fallback={null}>
            <OfflineStatus />
          </Suspense>
        )}
        <ConfigFileButtons />
      </div>
    </header>
  );
}

/** The side column's tabs. History and Evaluate load when first opened, then stay mounted like
 * every tab (their filter and scroll survive a switch). */
function SidePanels({ sideTab }: { sideTab: SideTab }) {
  const [historyOpened, setHistoryOpened] = useState(false);
  if (sideTab === 'history' && !historyOpened) setHistoryOpened(true);
  const [evaluateOpened, setEvaluateOpened] = useState(false);
  if (sideTab === 'evaluate' && !evaluateOpened) setEvaluateOpened(true);
  return (
    <SideTabs
      panels={{
        task: (
          <>
            <ErrorBoundary what="The task panel">
              <TaskPanel />
            </ErrorBoundary>
            <ErrorBoundary what="Preferences">
              <Suspense fallback={null}>
                <PreferencesPanel />
              </Suspense>
            </ErrorBoundary>
          </>
        ),
        history:
          sideTab === 'history' || historyOpened ? (
            <ErrorBoundary what="History">
              <Suspense fallback={null}>
                <HistoryPanel />
              </Suspense>
            </ErrorBoundary>
          ) : null,
        evaluate:
          sideTab === 'evaluate' || evaluateOpened ? (
            <ErrorBoundary what="Evaluate">
              <Suspense fallback={null}>
                <EvaluatePanel />
              </Suspense>
            </ErrorBoundary>
          ) : null,
        setup: (
          <ErrorBoundary what="Setup">
            <Suspense fallback={null}>
              <SetupPanel />
            </Suspense>
          </ErrorBoundary>
        ),
        models: (
          <ErrorBoundary what="Models in this browser">
            <Suspense fallback={null}>
              <ModelsPanel />
            </Suspense>
          </ErrorBoundary>
        ),
        documents: (
          <ErrorBoundary what="Documents">
            <Suspense fallback={null}>
              <DocumentsPanel />
            </Suspense>
          </ErrorBoundary>
        ),
        tools: (
          <ErrorBoundary what="Tools">
            <ToolsPanel />
          </ErrorBoundary>
        ),
      }}
    />
  );
}

/** The middle column: a run (live, or from history) with its status, the person's turn and the
 * trace; or runs compared side by side; or, while the Evaluate tab is open, the evaluation's
 * results (until a rollout's stored run is opened from them). */
function TraceColumn() {
  const evaluating = useViewStore((state) => state.sideTab === 'evaluate');
  const manual = useRunStore((state) => state.manual);
  const comparing = useComparisonStore((state) => state.you !== null);
  const comparingRuns = useCompareStore((state) => state.compared !== null);
  const showingStored = useRunStore((state) => state.stored !== null);
  const hasRun = useRunStore((state) => state.run !== null || state.phase !== 'idle' || state.rejection !== null || state.stored !== null);
  const beforeAndAfter = useRunStore((state) => state.previous !== null && state.run?.status === 'finished' && state.stored === null);
  if (evaluating && !comparingRuns && !showingStored) {
    return (
      <ErrorBoundary what="Evaluation results">
        <Suspense fallback={null}>
          <EvalResultsView />
        </Suspense>
      </ErrorBoundary>
    );
  }
  return comparingRuns ? (
    <ErrorBoundary what="Compare runs">
      <Suspense fallback={null}>
        <CompareView />
      </Suspense>
    </ErrorBoundary>
  ) : (
    <>
      {showingStored && (
        <ErrorBoundary what="The recorded run">
          <Suspense fallback={null}>
            <StoredRunBanner />
          </Suspense>
        </ErrorBoundary>
      )}
      {hasRun ? (
        <RunStatus />
      ) : (
        <Suspense fallback={null}>
          <Welcome />
        </Suspense>
      )}
      {beforeAndAfter && (
        <ErrorBoundary what="Before and after">
          <Suspense fallback={null}>
            <BeforeAfterStrip />
          </Suspense>
        </ErrorBoundary>
      )}
      {(manual || comparing) && (
        <ErrorBoundary what="Your turn">
          <Suspense fallback={null}>
            <HumanTurnPanel />
          </Suspense>
        </ErrorBoundary>
      )}
      {hasRun ? (
        <ErrorBoundary what="The trace">
          <Suspense fallback={null}>
            <Trace />
          </Suspense>
        </ErrorBoundary>
      ) : null}
    </>
  );
}
