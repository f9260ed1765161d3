// The trace: one card per orchestrator turn, streaming as the run goes, the final answer at the
// end, and "What the model saw" for each turn. Long traces are virtualised.

import { useCallback, useEffect, useRef, useState } from 'react';
import { formatCount } from '../../format.ts';
import { useShownSteps } from '../../hooks/useShownSteps.ts';
import { HeldSteps, PresenterControls } from '../Presenter/PresenterControls.tsx';
import { StoredRunTag } from '../StoredRun/StoredRunTag.tsx';
import { FinalAnswer } from './FinalAnswer.tsx';
import { ModelSawDialog } from './ModelSawDialog.tsx';
import { StepList } from './StepList.tsx';
import { useTraceUiStore } from './useTraceUi.ts';
import { useFollowTail } from './useFollowTail.ts';
import { useStepDeepLink } from './useStepDeepLink.ts';
import { useTraceKeyboard } from './useTraceKeyboard.ts';
import './Trace.css';
import { useRunStore, useViewStore } from '../../state/context.tsx';

export function Trace() {
  const traceUi = useTraceUiStore();
  const runId = useRunStore((state) => state.run?.runId ?? null);
  // Presenter view shows the steps it has let through (app/state/pacing.ts); otherwise all.
  const { shown: stepCount, held } = useShownSteps();
  const presenter = useViewStore((state) => state.presenter);
  const running = useRunStore((state) => state.run?.status === 'running');
  const hasEstimates = useRunStore((state) => (state.run?.firstEstimated ?? null) !== null);
  const sectionRef = useRef<HTMLElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  // The virtualiser needs the scroller as state: a child's layout effects run before its parent's
  // ref is set, so a trace that mounts with all its steps (a stored run) would find no scroller and
  // render no card until something else re-rendered it.
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const attachScroller = useCallback((element: HTMLDivElement | null) => {
    scrollerRef.current = element;
    setScroller(element);
  }, []);

  // Presenter view starts with the cards collapsed: a line of reasoning and the choice each.
  useEffect(() => traceUi.actions.showRun(runId, !presenter), [traceUi, runId, presenter]);
  useTraceKeyboard(sectionRef, stepCount);
  useStepDeepLink(stepCount);
  useFollowTail(scrollerRef, contentRef, running);

  if (runId === null) return null;
  return (
    <>
      <section ref={sectionRef} className="panel trace" aria-label="Trace">
        <div className="trace-toolbar">
          <h2>
            Trace <StoredRunTag />
          </h2>
          {presenter ? (
            <PresenterControls />
          ) : (
            <span className="muted">
              {formatCount(stepCount)} step{stepCount === 1 ? '' : 's'}
            </span>
          )}
          {hasEstimates ? <span className="trace-legend muted">≈ includes estimates</span> : null}
          <span className="trace-keys muted keyboard-hint" aria-hidden="true">
            <kbd>j</kbd> <kbd>k</kbd> move · <kbd>Enter</kbd> open/close · <kbd>Esc</kbd> close
          </span>
          <div className="trace-actions">
            <button type="button" className="small" onClick={traceUi.actions.expandAll} disabled={stepCount === 0}>
              Expand all
            </button>
            <button type="button" className="small" onClick={traceUi.actions.collapseAll} disabled={stepCount === 0}>
              Collapse all
            </button>
          </div>
        </div>
        <div ref={attachScroller} className="trace-scroller">
          <div ref={contentRef}>
            {stepCount === 0 ? (
              <p className="muted trace-empty">{running ? 'Waiting for the first step…' : 'No steps.'}</p>
            ) : (
              <StepList count={stepCount} scroller={scroller} />
            )}
            <HeldSteps />
          </div>
        </div>
        {held === 0 ? <FinalAnswer /> : null}
      </section>
      <ModelSawDialog />
    </>
  );
}
