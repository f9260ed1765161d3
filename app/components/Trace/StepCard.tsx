import { memo, useEffect, useId, useRef, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { clipForDisplay, formatCount, formatMs } from '../../format.ts';
import type { ToolSchema } from '../../../workers/engine/types.ts';
import { callsOfStep, type CallView, type StepView } from '../../state/runView.ts';
import { Disclosure } from './Disclosure.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import { RetryNotice } from './RetryNotice.tsx';
import { costFigure, entriesCost, formatSpeeds, formatTokens, reasoningGist, splitThinking, sumTokens, type CostFigure } from './summary.ts';
import { ToolCallCard } from './ToolCallCard.tsx';
import { ToolMenu } from './ToolMenu.tsx';
import { menuChoices } from './toolMenu.ts';
import { detailKey, isExpanded, stepAnchor, type TraceUiStore } from './traceUiStore.ts';
import { useTraceUi, useTraceUiStore } from './useTraceUi.ts';
import { useRunStore, useViewStore } from '../../state/context.tsx';

const NO_CALLS: CallView[] = [];
const NO_TOOLS: ToolSchema[] = [];

/**
 * One orchestrator turn. It reads its own step and calls from the store, so a streamed delta
 * re-renders only the card it belongs to.
 */
export const StepCard = memo(function StepCard({ index }: { index: number }) {
  const traceUi = useTraceUiStore();
  const step = useRunStore((state) => state.run?.steps[index]);
  const calls = useRunStore(
    useShallow((state) => {
      const run = state.run;
      const own = run?.steps[index];
      return run && own ? callsOfStep(run, own) : NO_CALLS;
    }),
  );
  const runTools = useRunStore((state) => state.run?.tools);
  const orchestratorModel = useRunStore((state) => state.run?.orchestratorModel ?? '');
  const notice = useRunStore((state) => state.run?.orchestratorNotice);
  const runStartedAt = useRunStore((state) => state.run?.startedAt ?? '');
  const runActive = useRunStore((state) => state.run?.status === 'running');
  const stepNumber = step?.step ?? index + 1;
  const expanded = useTraceUi((state) => isExpanded(state, stepNumber));
  const tabbable = useTraceUi((state) => state.focusedStep === stepNumber || (state.focusedStep === null && index === 0));
  const focusSeq = useTraceUi((state) => (state.focusRequest?.step === stepNumber ? state.focusRequest.seq : 0));
  const presenter = useViewStore((state) => state.presenter);
  const articleRef = useRef<HTMLElement>(null);
  const headingId = useId();
  const bodyId = useId();

  useTakeFocus(articleRef, focusSeq, traceUi);

  if (!step) return null;
  const topCalls = calls.filter((call) => !call.parentCallId);
  const failed =
    step.errors.some((error) => error.fatal) || calls.some((call) => call.errors.length > 0 || call.result?.ok === false);
  const warned = !failed && step.errors.length > 0;

  return (
    <article
      ref={articleRef}
      id={stepAnchor(stepNumber)}
      className={`step status-${step.status}${failed ? ' failed' : warned ? ' warned' : ''}`}
      aria-labelledby={headingId}
      tabIndex={tabbable ? 0 : -1}
      data-step={stepNumber}
      onFocus={() => traceUi.actions.focused(stepNumber)}
    >
      <header className="step-header">
        <h3 className="step-title" id={headingId}>
          <button type="button" aria-expanded={expanded} aria-controls={bodyId} onClick={() => traceUi.actions.toggle(stepNumber)}>
            <span className="chevron" aria-hidden="true" />
            <span className="step-number">Step {stepNumber}</span>{' '}
            <span className="step-summary">{summarise(step, topCalls)}</span>
          </button>
        </h3>
        <StatusBadge step={step} failed={failed} warned={warned} runActive={runActive} />
        {notice ? <span className="step-notice">{notice.toLowerCase()}</span> : null}
        <a className="step-link" href={`#${stepAnchor(stepNumber)}`} title={`Link to step ${stepNumber}`} aria-label={`Link to step ${stepNumber}`}>
          #
        </a>
        <StepMetrics index={index} step={step} calls={calls} />
      </header>
      {presenter && !expanded ? <StepGist step={step} topCalls={topCalls} runTools={runTools ?? NO_TOOLS} /> : null}
      {step.errors.map((error, i) => (
        <ErrorNotice key={i} error={error} />
      ))}
      <div id={bodyId} className="step-body" hidden={!expanded}>
        {expanded ? (
          <StepBody
            step={step}
            calls={calls}
            topCalls={topCalls}
            runTools={runTools ?? NO_TOOLS}
            orchestratorModel={orchestratorModel}
            runStartedAt={runStartedAt}
            runActive={runActive}
            presenter={presenter}
          />
        ) : null}
      </div>
    </article>
  );
});

/** The card takes keyboard focus when asked (j/k, a deep link), once per request. */
function useTakeFocus(articleRef: RefObject<HTMLElement | null>, focusSeq: number, traceUi: TraceUiStore): void {
  useEffect(() => {
    if (focusSeq === 0) return;
    articleRef.current?.focus();
    traceUi.actions.focusTaken(focusSeq);
  }, [articleRef, focusSeq, traceUi]);
}

/** A step's tokens, latency, cost and the run's total at its end. Only these follow the run's
 * clock while the step runs, not the whole card. */
function StepMetrics({ index, step, calls }: { index: number; step: StepView; calls: CallView[] }) {
  const live = step.status !== 'done';
  // Only a running step follows the clock of the run.
  const elapsedMs = useRunStore((state) => (live ? (state.run?.elapsedMs ?? 0) : 0));
  // Whether this step or one before it has an estimated or unknown cost.
  const earlierFlags = useRunStore(
    useShallow((state) => {
      const steps = state.run?.steps.slice(0, index + 1) ?? [];
      return { estimated: steps.some((s) => s.hasEstimates), unknown: steps.some((s) => s.hasUnknownCost) };
    }),
  );
  const latency = step.latencyMs ?? (live ? Math.max(0, elapsedMs - step.startedAt) : undefined);
  const tokens = sumTokens([...step.orchestratorCosts, ...calls.flatMap((call) => call.costs)]);
  const stepCost = step.orchestratorCosts.length > 0 || calls.some((c) => c.costs.length > 0) || step.status === 'done'
    ? costFigure(step.costUsd, { estimated: step.hasEstimates, unknown: step.hasUnknownCost })
    : null;
  return (
    <dl className="step-metrics">
      <Metric label="Tokens" value={tokens.withUsage > 0 ? formatTokens(tokens) : '—'} />
      <Metric label="Latency" value={formatMs(latency)} />
      <Metric label="Step cost" figure={stepCost} />
      <Metric label="Total" figure={costFigure(step.cumulativeUsd, earlierFlags)} />
    </dl>
  );
}

interface StepBodyProps {
  step: StepView;
  calls: CallView[];
  topCalls: CallView[];
  runTools: ToolSchema[];
  orchestratorModel: string;
  runStartedAt: string;
  runActive: boolean;
  presenter: boolean;
}

/** The turn's reasoning so far: the parsed reply's once it is in, else what has streamed. */
function reasoningOf(step: StepView): { reasoning: string; streamed: ReturnType<typeof splitThinking> | null } {
  const streamed = step.output ? null : splitThinking(step.content);
  const reasoning = step.output ? step.output.reasoning : [step.reasoning, streamed?.reasoning].filter(Boolean).join('\n\n');
  return { reasoning, streamed };
}

/** The menu the turn chose from (none before its request or reply is in). */
function choicesOf(step: StepView, topCalls: CallView[], runTools: ToolSchema[]) {
  const offered = topCalls[0]?.offered ?? null;
  return step.request || step.output ? menuChoices(step.request?.tools ?? runTools, offered, topCalls) : [];
}

/** A collapsed card in presenter view: one line of the turn's reasoning, and the aliases of the
 * tool it chose with each one's price and latency (the whole menu is in the open card). */
function StepGist({ step, topCalls, runTools }: { step: StepView; topCalls: CallView[]; runTools: ToolSchema[] }) {
  const gist = reasoningGist(reasoningOf(step).reasoning);
  const choices = choicesOf(step, topCalls, runTools);
  const chosenTools = new Set(choices.filter((choice) => choice.chosen).map((choice) => choice.tool));
  return (
    <div className="step-gist">
      {gist ? (
        <p className="step-gist-reasoning" aria-label="Reasoning, in one line">
          {gist}
        </p>
      ) : null}
      <ToolMenu choices={chosenTools.size > 0 ? choices.filter((choice) => chosenTools.has(choice.tool)) : choices} figures />
    </div>
  );
}

function StepBody({ step, calls, topCalls, runTools, orchestratorModel, runStartedAt, runActive, presenter }: StepBodyProps) {
  const traceUi = useTraceUiStore();
  const notice = useRunStore((state) => state.run?.orchestratorNotice);
  const { output } = step;
  const { reasoning, streamed } = reasoningOf(step);
  const choices = choicesOf(step, topCalls, runTools);
  const turnTokens = formatTokens(sumTokens(step.orchestratorCosts));
  const turnCost = entriesCost(step.orchestratorCosts);
  const thinking = runActive && !output;
  return (
    <>
      {reasoning ? (
        <Disclosure
          detailKey={detailKey(`step-${step.step}`, 'reasoning')}
          label="Reasoning"
          meta={thinking ? 'streaming' : `${formatCount(reasoning.length)} chars`}
          openByDefault={thinking}
          className="reasoning"
        >
          <p className="reasoning-text">{clipForDisplay(reasoning)}</p>
        </Disclosure>
      ) : null}
      {streamed?.rest ? <pre className="stream" aria-label="Streaming output">{clipForDisplay(streamed.rest)}</pre> : null}
      {thinking && !reasoning && !streamed?.rest ? <p className="muted waiting">Waiting for the orchestrator…</p> : null}
      {step.retries.map((retry, i) => (
        <RetryNotice key={i} retry={retry} runStartedAt={runStartedAt} live={thinking && i === step.retries.length - 1} />
      ))}
      {output?.message ? (
        <div className="step-message">
          <span className="section-label">Message</span>
          <p>{clipForDisplay(output.message)}</p>
        </div>
      ) : null}
      {output?.rejected.map((rejected, i) => (
        <div key={i} className="rejected" role="note">
          <p>
            <span className="section-label">Rejected call</span> {rejected.reason}
          </p>
          {rejected.raw ? <pre>{clipForDisplay(rejected.raw)}</pre> : null}
        </div>
      ))}
      <ToolMenu choices={choices} figures={presenter} />
      {calls.map((call) => (
        <ToolCallCard key={call.callId} call={call} runStartedAt={runStartedAt} runActive={runActive} />
      ))}
      <footer className="turn-footer">
        <span className="turn-facts">
          <span className="section-label">Orchestrator</span> {orchestratorModel}
          {notice ? ` (${notice.toLowerCase()})` : ''}
          {turnTokens ? ` · ${turnTokens}` : ''}
          {formatSpeeds(step.orchestratorCosts) ? ` · ${formatSpeeds(step.orchestratorCosts)}` : ''}
          {turnCost ? ` · ${turnCost.text}` : ''}
          {output ? ` · ${formatMs(output.latencyMs)}` : ''}
          {output?.timeToFirstTokenMs !== undefined ? ` (first token ${formatMs(output.timeToFirstTokenMs)})` : ''}
          {output && output.finishReason !== 'stop' && output.finishReason !== 'tool_calls' ? ` · finished: ${output.finishReason}` : ''}
        </span>
        {step.request ? (
          <button type="button" className="small" onClick={() => traceUi.actions.openDialog(step.step)}>
            What the model saw
          </button>
        ) : null}
      </footer>
    </>
  );
}

function summarise(step: StepView, topCalls: CallView[]): string {
  if (topCalls.length > 0) return topCalls.map((call) => (call.alias ? `${call.name} → ${call.alias}` : call.name)).join(', ');
  if (!step.output) return step.status === 'done' ? 'no output' : 'thinking…';
  if (step.output.rejected.length > 0 || step.output.calls.length > 0) return 'no valid call';
  if (step.output.message) return 'replied';
  return step.status === 'done' ? 'no call' : 'choosing…';
}

function StatusBadge({ step, failed, warned, runActive }: { step: StepView; failed: boolean; warned: boolean; runActive: boolean }) {
  if (failed) return <span className="status-badge error">error</span>;
  if (warned) return <span className="status-badge warning">warning</span>;
  if (step.status === 'done' || !runActive) return null;
  return <span className="status-badge live">{step.status === 'thinking' ? 'thinking' : 'calling'}</span>;
}

function Metric({ label, value, figure }: { label: string; value?: string; figure?: CostFigure | null }) {
  const text = figure ? figure.text : (value ?? '—');
  const note = figure?.estimated ? 'includes estimates' : figure?.unknown ? 'some prices unknown' : undefined;
  return (
    <div className={`metric${figure?.estimated ? ' estimate' : ''}${figure?.unknown ? ' unknown' : ''}`} title={note}>
      <dt>{label}</dt>
      <dd>{text}</dd>
    </div>
  );
}
