// The running total, time and tokens of the current run, the counterfactual "strongest model on
// every call", and where the money went (a table at once, the charts once their chunk arrives).

import { StoredRunTag } from '../StoredRun/StoredRunTag.tsx';
import { lazy, memo, Suspense, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LedgerEntry, RunTotals } from '../../../workers/engine/events.ts';
import { formatCount, formatMs } from '../../format.ts';
import { useShownSteps } from '../../hooks/useShownSteps.ts';
import { ColumnHeads } from '../ColumnHeads/index.tsx';
import { ErrorBoundary } from '../ErrorBoundary/index.tsx';
import {
  chartSeries,
  compareWithActual,
  costByTool,
  describeCost,
  stepCostSeries,
  summarizeLedger,
  timeBreakdown,
  callsEndMs,
  laterBreakdown,
  userCostSplit,
  type LedgerSummary,
} from './costData.ts';
import { seriesColor } from './series.ts';
import { useElapsedMs } from '../../hooks/useElapsedMs.ts';
import { whenIdle } from '../../idle.ts';
import './Cost.css';
import { useCompareStore, useRunStore, useViewStore } from '../../state/context.tsx';

// The charts' module is small (no chart library) but not needed for the first screen: it loads
// once the page is idle after it, at the latest when a run has a cost to draw.
const loadCostCharts = () => import('./CostCharts.tsx');
const CostCharts = lazy(() => loadCostCharts().then((module) => ({ default: module.CostCharts })));
const IDLE_LOAD_TIMEOUT_MS = 10_000;
const IDLE_FALLBACK_MS = 3_000;

const NO_ENTRIES: LedgerEntry[] = [];

export function CostPanel() {
  const headingId = useId();
  useEffect(() => whenIdle(() => void loadCostCharts().catch(() => undefined), { timeoutMs: IDLE_LOAD_TIMEOUT_MS, fallbackMs: IDLE_FALLBACK_MS }), []);
  const liveLedger = useRunStore((state) => state.run?.ledger ?? NO_ENTRIES);
  const running = useRunStore((state) => state.run?.status === 'running');
  // While a run streams, the panel redraws from its ledger at a lower priority than the stream
  // (React renders it in slices between the events); the run's end is drawn at once, with the
  // status that says it ended.
  const deferredLedger = useDeferredValue(liveLedger);
  const runLedger = running ? deferredLedger : liveLedger;
  // Presenter view counts only the steps it has shown: the total waits for the class.
  const { shown, held } = useShownSteps();
  const ledger = useMemo(() => (held > 0 ? runLedger.filter((entry) => entry.step <= shown) : runLedger), [runLedger, held, shown]);
  const runTotals = useRunStore((state) => state.run?.totals);
  const totals = held > 0 ? undefined : runTotals;
  const hasRun = useRunStore((state) => state.run !== null);
  const pricingAsOf = useRunStore((state) => state.run?.pricingAsOf);
  const summary = useMemo(() => summarizeLedger(ledger), [ledger]);
  // While runs are compared the trace column shows them, not this run: its figures would read as theirs.
  const comparedRuns = useCompareStore((state) => state.compared?.length ?? 0);

  if (comparedRuns > 0) {
    return (
      <section className="panel cost-panel" aria-labelledby={headingId}>
        <h2 id={headingId}>Cost and latency</h2>
        <p className="muted cost-intro">
          Comparing {comparedRuns} runs: each one’s cost, time and reward are in the comparison. This panel shows a run again
          when you close it.
        </p>
      </section>
    );
  }

  return (
    <section className="panel cost-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>
        Cost and latency <StoredRunTag />
      </h2>
      <TotalCost summary={summary} totals={totals} hasRun={hasRun} />
      <UserCostSplit ledger={ledger} />
      {hasRun ? (
        <>
          <RunFigures summary={summary} stepCount={shown} />
          <Breakdown ledger={ledger} summary={summary} totals={totals} />
          {pricingAsOf && <p className="muted cost-footnote">Prices as of {pricingAsOf}; edit them in Setup.</p>}
        </>
      ) : (
        <p className="muted cost-intro">
          Run a task to see what every call costs as it streams: each step’s dollars, tokens and time, what the same run
          would have cost on the strongest model, and where the money went.
        </p>
      )}
    </section>
  );
}

/** A τ² conversation's simulated user, priced apart from the agent (absent for other runs). */
const UserCostSplit = memo(function UserCostSplit({ ledger }: { ledger: readonly LedgerEntry[] }) {
  const split = useMemo(() => userCostSplit(ledger), [ledger]);
  if (!split) return null;
  return (
    <div className="cost-user-split">
      <dl className="cost-counterfactual" aria-label="Agent and simulated user">
        <dt>Agent (orchestrator, experts, tools)</dt>
        <dd>{describeCost(split.agentUsd, split.agentUnknown)}</dd>
        <dt>Simulated user</dt>
        <dd>{describeCost(split.userUsd, split.userUnknown)}</dd>
      </dl>
      <p className="muted cost-counterfactual-note">The simulated user is the benchmark’s, not the agent’s: the reward’s cost counts the agent alone.</p>
    </div>
  );
});

const TotalCost = memo(function TotalCost({ summary, totals, hasRun }: { summary: LedgerSummary; totals: RunTotals | undefined; hasRun: boolean }) {
  const counterfactualModel = useRunStore((state) => state.run?.counterfactualModel ?? null);
  const labelId = useId();
  const noteId = useId();
  // The engine's totals are the final word once the run finished; until then, the ledger so far.
  const knownUsd = totals?.costUsd ?? summary.knownUsd;
  const unknownEntries = totals?.unknownCostEntries ?? summary.unknownEntries;
  const hasEstimates = totals?.hasEstimates ?? summary.hasEstimates;
  const counterfactualUsd = totals ? totals.counterfactualUsd : summary.counterfactualUsd;
  const hasFigures = summary.entries > 0;
  const comparison = counterfactualUsd !== null && unknownEntries === 0 ? compareWithActual(counterfactualUsd, knownUsd) : '';

  const totalText = hasFigures ? describeCost(knownUsd, unknownEntries, hasEstimates) : hasRun ? describeCost(0, 0) : '—';
  const [knownPart, unknownPart] = totalText.split(' + ');

  return (
    <div className="cost-total">
      <dl className="cost-headline">
        <dt id={labelId}>Total cost</dt>
        <dd>
          <output aria-labelledby={labelId} aria-describedby={noteId} aria-live="off" className="cost-total-value">
            {knownPart}
            {unknownPart && <span className="cost-total-unknown"> + {unknownPart}</span>}
          </output>
        </dd>
      </dl>
      <div id={noteId} className="cost-notes">
        {hasFigures && (
          <p>
            {hasEstimates ? (
              <span className="cost-badge cost-badge-estimate">includes estimates</span>
            ) : (
              <span className="cost-badge cost-badge-measured">measured</span>
            )}{' '}
            <span className="muted">
              {hasEstimates
                ? 'Some figures are estimates (tokens we counted, or a per-second or per-call rate); the rest is the providers’ reported usage × the price table.'
                : 'From the providers’ reported usage × the price table.'}
            </span>
          </p>
        )}
        {unknownEntries > 0 && (
          <p className="cost-unknown">
            {unknownEntries} {unknownEntries === 1 ? 'call has' : 'calls have'} no known price: not counted in the total. Add
            the model’s price in Setup.
          </p>
        )}
      </div>
      {hasRun && (
        <>
          <dl className="cost-counterfactual">
            <dt>Strongest model on every call</dt>
            <dd>
              <span className="cost-counterfactual-value">{hasFigures ? describeCost(counterfactualUsd, 0) : '—'}</span>
              {hasFigures && totals === undefined && <span className="muted"> so far</span>}
              {comparison && <span className="muted"> · {comparison}</span>}
            </dd>
          </dl>
          <p className="muted cost-counterfactual-note">
            Every expert call priced at {counterfactualModel ? <code>{counterfactualModel}</code> : 'the costliest configured expert model'}
            , same tokens: what the run would cost without routing.
          </p>
        </>
      )}
    </div>
  );
});

const RunFigures = memo(function RunFigures({ summary, stepCount }: { summary: LedgerSummary; stepCount: number }) {
  // The run keeps its slowest step; presenter view, holding steps back, looks among those shown.
  const slowestStep = useRunStore(
    useShallow((state) => {
      const run = state.run;
      if (!run) return null;
      return stepCount >= run.steps.length ? run.slowestStep : slowestStepOf(run.steps.slice(0, stepCount));
    }),
  );
  const elapsedMs = useElapsedMs();
  const { tokens } = summary;
  const extras = [
    tokens.cachedPrompt > 0 ? `${formatCount(tokens.cachedPrompt)} cached` : '',
    tokens.reasoning > 0 ? `${formatCount(tokens.reasoning)} reasoning` : '',
    tokens.estimated ? 'some estimated' : '',
  ].filter(Boolean);
  return (
    <dl className="cost-figures">
      <div>
        <dt>Elapsed</dt>
        <dd>{formatMs(elapsedMs)}</dd>
      </div>
      <div>
        <dt>Steps</dt>
        <dd>
          {formatCount(stepCount)}
          {slowestStep && (
            <span className="muted cost-figure-note">
              slowest: {slowestStep.step} ({formatMs(slowestStep.latencyMs)})
            </span>
          )}
        </dd>
      </div>
      <div>
        <dt>Tokens in / out</dt>
        <dd>
          {formatCount(tokens.prompt)} / {formatCount(tokens.completion)}
          {extras.length > 0 && <span className="muted cost-figure-note">{extras.join(' · ')}</span>}
        </dd>
      </div>
    </dl>
  );
});

/** The slowest finished step (compared shallowly, so streaming deltas do not re-render). */
function slowestStepOf(steps: ReadonlyArray<{ step: number; latencyMs?: number }>): { step: number; latencyMs: number } | null {
  let slowest: { step: number; latencyMs: number } | null = null;
  for (const step of steps) {
    if (step.latencyMs !== undefined && (slowest === null || step.latencyMs > slowest.latencyMs)) {
      slowest = { step: step.step, latencyMs: step.latencyMs };
    }
  }
  return slowest;
}

const chartsLoading = <p className="muted cost-chart-loading">Loading the charts…</p>;

/** Rows a table lists: a hostile run file can name 100,000 aliases or steps, and a row each took seconds to draw. */
const LISTED_ROWS = 500;

const Breakdown = memo(function Breakdown({ ledger, summary, totals }: { ledger: LedgerEntry[]; summary: LedgerSummary; totals: RunTotals | undefined }) {
  const large = useViewStore((state) => state.presenter);
  const running = useRunStore((state) => state.run?.status === 'running');
  // The clock, like the ledger, redraws the breakdown at a lower priority while the run streams.
  const liveWallMs = useElapsedMs() ?? 0;
  const deferredWallMs = useDeferredValue(liveWallMs);
  const wallMs = running ? deferredWallMs : liveWallMs;
  const tools = useMemo(() => costByTool(ledger), [ledger]);
  // Shared out once per ledger; the clock ticking on only adds to "between calls".
  const atCallsEnd = useMemo(() => timeBreakdown(ledger, callsEndMs(ledger)), [ledger]);
  const time = useMemo(() => laterBreakdown(atCallsEnd, wallMs) ?? timeBreakdown(ledger, wallMs), [atCallsEnd, ledger, wallMs]);
  const chartSteps = useMemo(() => chartSeries(stepCostSeries(ledger)), [ledger]);
  if (ledger.length === 0) return <p className="muted">No calls charged yet.</p>;
  return (
    <>
      <ErrorBoundary
        what="The chart"
        fallback={<p className="muted">The chart could not be loaded; the table below has the same figures.</p>}
      >
        <Suspense fallback={chartsLoading}>
          <CostCharts steps={chartSteps} tools={tools} large={large} />
        </Suspense>
      </ErrorBoundary>
      <WhereItWent tools={tools} time={time} entries={ledger.length} summary={summary} totals={totals} />
      <p className="muted cost-footnote">
        The times add up to the run’s {running ? 'time so far' : 'wall time'}. Calls that ran at once share the time they
        overlapped. A sandbox’s start-up (Python’s takes seconds the first time) is counted apart and not charged.
        Between calls: the orchestrator’s own work, waits, calls that failed before they were charged
        {running ? ', and the call in progress' : ''}.
      </p>
      <StepCosts ledger={ledger} />
    </>
  );
});

interface WhereItWentProps {
  tools: ReturnType<typeof costByTool>;
  time: ReturnType<typeof timeBreakdown>;
  entries: number;
  summary: LedgerSummary;
  totals: RunTotals | undefined;
}

/** The run's cost and time by alias or tool, with the sandboxes' start-ups and the time between calls. */
const WhereItWent = memo(function WhereItWent({ tools, time, entries, summary, totals }: WhereItWentProps) {
  const tableCaptionId = useId();
  let pricedIndex = 0;
  return (
    <table className="cost-table" aria-labelledby={tableCaptionId}>
      <caption id={tableCaptionId}>Where it went</caption>
      <ColumnHeads names={['Alias or tool', 'Calls', 'Time', 'Cost']} />
      <tbody>
        {tools.slice(0, LISTED_ROWS).map((row) => {
          const color = row.usd === null ? undefined : seriesColor(pricedIndex++);
          return (
            <tr key={row.label}>
              <th scope="row">
                <span className="cost-swatch" style={color ? { background: color } : undefined} aria-hidden="true" />
                {row.label}
              </th>
              <td>{formatCount(row.entries)}</td>
              <td>{formatMs(time.byLabel[row.label] ?? 0)}</td>
              <td className={row.usd === null || row.unknownEntries > 0 ? 'cost-unknown' : undefined}>
                {describeCost(row.usd, row.unknownEntries, row.estimated)}
              </td>
            </tr>
          );
        })}
        {tools.length > LISTED_ROWS && (
          <tr className="cost-time-only">
            <th scope="row" colSpan={4} className="muted">
              {formatCount(tools.length - LISTED_ROWS)} more aliases and tools, not listed
            </th>
          </tr>
        )}
        {time.startups.map((startup) => (
          <tr key={startup.label} className="cost-time-only">
            <th scope="row">
              <span className="cost-swatch" aria-hidden="true" />
              {startup.label}
            </th>
            <td>{startup.count}</td>
            <td>{formatMs(startup.ms)}</td>
            <td className="muted">free</td>
          </tr>
        ))}
        <tr className="cost-time-only">
          <th scope="row">
            <span className="cost-swatch" aria-hidden="true" />
            Between calls
          </th>
          <td />
          <td>{formatMs(time.betweenMs)}</td>
          <td />
        </tr>
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>{entries}</td>
          <td>{formatMs(time.wallMs)}</td>
          <td>
            {describeCost(
              totals?.costUsd ?? summary.knownUsd,
              totals?.unknownCostEntries ?? summary.unknownEntries,
              totals?.hasEstimates ?? summary.hasEstimates,
            )}
          </td>
        </tr>
      </tfoot>
    </table>
  );
});

/** Cost per step, in a table rendered only while open (a row per step on every update adds up on
 * long runs). */
function StepCosts({ ledger }: { ledger: LedgerEntry[] }) {
  const [stepsOpen, setStepsOpen] = useState(false);
  const steps = useMemo(() => (stepsOpen ? stepCostSeries(ledger) : []), [stepsOpen, ledger]);
  return (
    <details className="cost-steps" onToggle={(event) => setStepsOpen(event.currentTarget.open)}>
      <summary>Cost per step</summary>
      {/* Rendered only while open: a row per step on every update adds up on long runs. */}
      {stepsOpen && (
      <table className="cost-table">
        <ColumnHeads names={['Step', 'Cost', 'Cumulative']} />
        <tbody>
          {steps.slice(0, LISTED_ROWS).map((point) => (
            <tr key={point.step}>
              <th scope="row">{point.step}</th>
              <td className={point.unknownEntries > 0 ? 'cost-unknown' : undefined}>
                {describeCost(point.usd, point.unknownEntries, point.estimated)}
              </td>
              <td>{describeCost(point.cumulativeUsd, point.cumulativeUnknownEntries)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      )}
      {stepsOpen && steps.length > LISTED_ROWS && <p className="muted">The first {formatCount(LISTED_ROWS)} of {formatCount(steps.length)} steps; the chart above covers them all.</p>}
    </details>
  );
}
