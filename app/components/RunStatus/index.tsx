import { lazy, Suspense, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { describeStopReason, explainError, isAnswered } from '../../errors/explain.ts';
import { formatCount, formatMs } from '../../format.ts';
import { useElapsedMs } from '../../hooks/useElapsedMs.ts';
import { useShownSteps } from '../../hooks/useShownSteps.ts';
import { costFigure } from '../Trace/summary.ts';
import './RunStatus.css';
import { DEMO_NOTICE } from '../../../workers/backends/demo/notice.ts';
import { useSampleTasks } from '../TaskPanel/useSampleTasks.ts';
import { useRunStore, useViewActions, useViewStore } from '../../state/context.tsx';

// Presenter view's answer line loads with presenter view (its chunk is loaded while it is on).
const PresenterOutcome = lazy(() => import('../Presenter/index.tsx').then(({ PresenterOutcome }) => ({ default: PresenterOutcome })));

/**
 * One line on where the run is: starting, running (step, cost, time), stopping, or how it ended.
 * Only the phase and the outcome are announced to screen readers; the ticking cost and clock sit
 * outside the live region, or they would be read out several times a second.
 */
// eslint-disable-next-line max-lines-per-function -- one status line whose parts read the same run state; splitting it spreads one sentence over files
export function RunStatus() {
  const phase = useRunStore((state) => state.phase);
  const rejection = useRunStore((state) => state.rejection);
  const crash = useRunStore((state) => state.crash);
  const lastStopMs = useRunStore((state) => state.lastStopMs);
  const hasRun = useRunStore((state) => state.run !== null);
  const stepCount = useRunStore((state) => state.run?.steps.length ?? 0);
  const stopReason = useRunStore((state) => state.run?.stopReason);
  const fatal = useRunStore((state) => state.run?.fatalError);
  const totalCost = useTotalCost();
  const running = phase === 'running' || phase === 'starting' || phase === 'stopping';
  const elapsedMs = useElapsedMs();
  const pendingRunId = useRunStore((state) => state.pendingRunId);
  const storedMode = useRunStore((state) => state.stored?.mode ?? null);
  const interruptedAtStep = useRunStore((state) => state.stored?.interruptedAtStep ?? null);
  const reading = useRunStore((state) => state.stored?.reading === true);
  const notice = useRunStore((state) => state.run?.orchestratorNotice);
  // The scripted demo answers "unknown" to a question that is not one of its samples
  // (workers/backends/demo/demoModels.ts): that is no answer, and it is said so.
  const demoCouldNotAnswer = useRunStore((state) => state.run?.orchestratorNotice === DEMO_NOTICE && isAnswered(state.run.stopReason ?? 'error') && state.run.answer?.trim() === 'unknown');
  const presenter = useViewStore((state) => state.presenter);
  // Presenter view holds the outcome back until the class has seen every step.
  const { shown, held } = useShownSteps();
  const container = useRef<HTMLDivElement>(null);
  useIntoViewOnStart(container, pendingRunId);

  let tone: 'neutral' | 'success' | 'warning' | 'danger' = 'neutral';
  let announced: ReactNode = null;
  if (rejection) {
    tone = 'danger';
    announced = (
      <>
        <strong>The run could not start.</strong>
        <ul>
          {rejection.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </>
    );
  } else if (held > 0 && !crash) {
    announced = `${running ? 'Running' : 'Presenting'} · step ${shown} of ${stepCount} shown · Space for the next`;
  } else if (running) {
    announced = phase === 'stopping' ? 'Stopping…' : hasRun ? `Running · step ${Math.max(stepCount, 1)}` : 'Starting…';
  } else if (reading) {
    announced = `Recorded · opening: ${formatCount(stepCount)} ${stepCount === 1 ? 'step' : 'steps'} read so far…`;
  } else if (storedMode === 'replay' && !stopReason) {
    announced = `Replay · step ${stepCount} · ${totalCost.text}`;
  } else if (stopReason && demoCouldNotAnswer) {
    // Not green: the scripted demo reads only the sample questions, and says "unknown" to any other.
    tone = 'warning';
    announced = (
      <>
        <strong>The demo could not answer this</strong> · {formatCount(stepCount)} {stepCount === 1 ? 'step' : 'steps'} · {totalCost.text} · {formatMs(elapsedMs)}
        <DemoOnlySamples />
      </>
    );
  } else if (stopReason) {
    tone = interruptedAtStep !== null ? 'warning' : isAnswered(stopReason) ? 'success' : stopReason === 'aborted' ? 'neutral' : stopReason === 'error' ? 'danger' : 'warning';
    announced = (
      <>
        {storedMode ? <span className="run-status-recorded">{storedMode === 'replay' ? 'Replay' : 'Recorded'} · </span> : null}
        <strong>{interruptedAtStep !== null ? `Interrupted at step ${interruptedAtStep}` : describeStopReason(stopReason)}</strong>
        {stopReason === 'aborted' && lastStopMs !== null && <> in {formatMs(lastStopMs)}</>}
        {' · '}
        {formatCount(stepCount)} {stepCount === 1 ? 'step' : 'steps'} · {totalCost.text} · {formatMs(elapsedMs)}
        {fatal && !crash && <FatalError code={fatal.code} message={fatal.message} />}
        {presenter && (
          <Suspense fallback={null}>
            <PresenterOutcome />
          </Suspense>
        )}
      </>
    );
  }
  if (crash) tone = 'danger';

  return (
    <div ref={container} className={`run-status run-status-${tone}`}>
      <div role="status" aria-label="Run status" aria-live="polite" className="run-status-announced">
        {announced}
        {crash && <WorkerCrash crash={crash} />}
      </div>
      {running && hasRun && held === 0 && (
        <span className="run-status-meter" aria-hidden="true">
          {totalCost.text} · {formatMs(elapsedMs ?? 0)}
        </span>
      )}
      {notice && hasRun && <OrchestratorNotice notice={notice} />}
    </div>
  );
}

/** Why the demo had no answer, and a sample question to run instead (into the task box, in the Task tab). */
function DemoOnlySamples() {
  const viewActions = useViewActions();
  const samples = useSampleTasks();
  const sample = samples.status === 'ready' ? samples.tasks[0] : undefined;
  return (
    <span className="run-status-detail">
      The scripted demo reads only the built-in sample questions; a real model (Models or Setup) can take any task.{' '}
      {sample && (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            viewActions.openSideTab('task');
            viewActions.setTask(sample.question);
          }}
        >
          Use a sample question
        </button>
      )}
    </span>
  );
}

/** The error that ended the run, explained once: what kind of problem, what happened, what to do. */
function FatalError({ code, message }: { code: string; message: string }) {
  const { title, hint } = explainError(code);
  return (
    <span className="run-status-detail">
      <strong>{title}.</strong> {message}
      {hint ? <span className="run-status-hint"> {hint}</span> : null}
    </span>
  );
}

/** The run's cost so far, marked estimated or partly unknown where it is. */
function useTotalCost() {
  const totalUsd = useRunStore((state) => state.run?.totalUsd ?? 0);
  const hasEstimates = useRunStore((state) => state.run?.totals?.hasEstimates ?? (state.run?.firstEstimated ?? null) !== null);
  const hasUnknownCost = useRunStore((state) => (state.run?.totals ? state.run.totals.unknownCostEntries > 0 : (state.run?.firstUnknown ?? null) !== null));
  return costFigure(totalUsd, { estimated: hasEstimates, unknown: hasUnknownCost });
}

/** A run just started: where the status line is off screen (a phone, where the trace is below the
 * task and the preferences), bring it and the trace under it into view. */
function useIntoViewOnStart(container: RefObject<HTMLDivElement | null>, pendingRunId: string | null): void {
  useEffect(() => {
    const element = container.current;
    if (!pendingRunId || !element) return;
    const { top, bottom } = element.getBoundingClientRect();
    if (top >= 0 && bottom <= window.innerHeight) return;
    // At once: a smooth scroll is cut short by the layout changes a starting run makes.
    element.scrollIntoView({ block: 'start', behavior: 'instant' });
  }, [container, pendingRunId]);
}

/** The orchestrator is the scripted demo's (or another stand-in): said, with where to get a real one. */
function OrchestratorNotice({ notice }: { notice: string }) {
  const viewActions = useViewActions();
  return (
    <p className="run-status-notice" aria-label="About this run">
      <strong>{notice}:</strong> its choices follow rules written by hand. For a real orchestrator, load one in this
      browser (
      <button type="button" className="link-button" onClick={() => viewActions.openSideTab('models')}>
        Models
      </button>
      ) or connect an endpoint (
      <button type="button" className="link-button" onClick={() => viewActions.openSideTab('setup')}>
        Setup
      </button>
      ).
    </p>
  );
}

function WorkerCrash({ crash }: { crash: string }) {
  return (
    <span className="run-status-detail">
      The orchestrator worker stopped ({crash}). A fresh one starts with the next run; keys that were kept only in memory
      must be entered again in Setup.
    </span>
  );
}
