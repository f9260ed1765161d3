// The evaluation's charts (recharts, loaded with this module when results first show): accuracy
// against mean cost per task, one point per policy, with the Pareto front drawn through the
// points no other beats (the paper's Fig. 6 shape); and each policy's tool-call shares as stacked
// bars (its Fig. 3/5 shape). Colours are the cost charts' CSS variables.

import { memo, startTransition, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Bar, BarChart, CartesianGrid, ErrorBar, LabelList, Legend, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import { PREFERENCE_PRESETS } from '../../../workers/engine/preferences.ts';
import { RESULTS_VERSION, type EvalSummary } from '../../../workers/eval/results.ts';
import { formatUsd } from '../../format.ts';
import { ChartWarmUp, RECHARTS_CORE_STEPS } from '../Charts/ChartWarmUp.tsx';
import { niceTicks } from '../Cost/costData.ts';
import { seriesColor } from '../Cost/series.ts';
import { downloadChartPng, downloadChartSvg } from './chartExport.ts';
import { chartedPolicies, scatterPoints, shareBars } from './evalView.ts';

const axisTick = { fill: 'var(--text-muted)', fontSize: 11 };

/** Pixels that the longest of `names` takes at the charts' 11 px labels, so none is cut. */
function nameRoom(names: readonly string[]): number {
  const longest = Math.max(0, ...names.map((name) => name.length));
  return Math.min(260, Math.max(24, 16 + Math.ceil(longest * 6.6)));
}
const tooltipStyle = {
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 'var(--radius)', fontSize: 12 },
  labelStyle: { color: 'var(--text)', fontWeight: 600 },
  itemStyle: { color: 'var(--text)' },
};
const percentTick = (value: number) => `${Math.round(value * 100)}%`;

/** SVG and PNG downloads of the chart in `figure`, named `fileStem`.svg / .png. */
function ChartDownloads({ figure, fileStem, what }: { figure: RefObject<HTMLElement | null>; fileStem: string; what: string }) {
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (format: 'svg' | 'png') => {
    const element = figure.current;
    if (!element) return;
    setProblem(null);
    try {
      if (format === 'svg') downloadChartSvg(element, `${fileStem}.svg`);
      else await downloadChartPng(element, `${fileStem}.png`);
    } catch (error) {
      setProblem(`The chart could not be saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <span className="eval-chart-downloads">
      <button type="button" className="link-button" aria-label={`Download ${what} as SVG`} onClick={() => void save('svg')}>
        SVG
      </button>
      <button type="button" className="link-button" aria-label={`Download ${what} as PNG`} onClick={() => void save('png')}>
        PNG
      </button>
      {problem && <span role="alert">{problem}</span>}
    </span>
  );
}

/** The accuracy chart's points, its front, each point with its interval as ErrorBar wants it (the
 * distance below and above the point), and the cost axis's ticks. */
function scatterData(summary: EvalSummary) {
  const { points, front } = scatterPoints(summary);
  const withError = points.map((point) => ({ ...point, error: [point.accuracy - point.low, point.high - point.accuracy] }));
  return { points, front, withError, costTicks: niceTicks(Math.max(0, ...points.map((point) => point.costUsd))) };
}

/** `stagger`: the second chart mounts a task after the first (see NextTask); the warm-up turns it
 * off, since it steps through the charts itself (ChartsWarmUp). */
export const EvalCharts = memo(function EvalCharts({ summary: all, stagger = true }: { summary: EvalSummary; stagger?: boolean }) {
  const scatterFigure = useRef<HTMLElement>(null);
  const sharesFigure = useRef<HTMLElement>(null);
  const { summary, total } = chartedPolicies(all);
  const { points, front, withError, costTicks } = scatterData(summary);
  const { rows, features } = shareBars(summary);
  return (
    <div className="eval-charts">
      {total > summary.policies.length && <DrawnNote drawn={summary.policies.length} total={total} />}
      <figure ref={scatterFigure} className="eval-chart" aria-label="Accuracy against cost">
        <figcaption>
          Accuracy against mean cost per task{' '}
          <span className="eval-legend">
            <span className="eval-swatch" style={{ background: seriesColor(0) }} aria-hidden="true" /> policy (95% interval)
            <span className="eval-swatch eval-swatch-line" style={{ background: seriesColor(1) }} aria-hidden="true" /> Pareto front
          </span>
          <ChartDownloads figure={scatterFigure} fileStem="accuracy-against-cost" what="the accuracy-against-cost chart" />
        </figcaption>
        <ScatterChart
          responsive
          style={{ width: '100%', height: 320 }}
          // Room on the right for the name beside the dearest policy's point.
          margin={{ top: 12, right: nameRoom(points.map((point) => point.name)), bottom: 12, left: 0 }}
          desc="One point per policy: its mean cost per task across, its accuracy up, with its 95% interval. The line joins the Pareto front, cheapest first."
        >
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="costUsd"
            name="Cost per task"
            tick={axisTick}
            stroke="var(--border)"
            tickFormatter={(value: number) => formatUsd(value)}
            ticks={costTicks}
            domain={[0, costTicks.at(-1) ?? 1]}
            interval={0}
          />
          <YAxis type="number" dataKey="accuracy" name="Accuracy" tick={axisTick} stroke="var(--border)" tickFormatter={percentTick} domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} width={44} />
          <Tooltip
            {...tooltipStyle}
            cursor={{ strokeDasharray: '3 3' }}
            formatter={(value: unknown, name: unknown) => (name === 'Cost per task' && typeof value === 'number' ? formatUsd(value) : typeof value === 'number' ? percentTick(value) : String(value))}
          />
          <Scatter name="Pareto front" data={front} fill={seriesColor(1)} line={{ stroke: seriesColor(1), strokeWidth: 2 }} shape={() => <g />} isAnimationActive={false} legendType="none" />
          <Scatter name="Policies" data={withError} fill={seriesColor(0)} isAnimationActive={false}>
            <ErrorBar dataKey="error" direction="y" width={4} stroke="var(--text-muted)" />
            <LabelList dataKey="name" position="right" style={{ fill: 'var(--text)', fontSize: 11 }} />
          </Scatter>
        </ScatterChart>
      </figure>
      {rows.length > 0 && (
        <NextTask enabled={stagger}>
          <figure ref={sharesFigure} className="eval-chart" aria-label="Tool-call shares">
            <figcaption>
              Tool-call shares per policy <ChartDownloads figure={sharesFigure} fileStem="tool-call-shares" what="the tool-call shares chart" />
            </figcaption>
            <BarChart
              responsive
              layout="vertical"
              data={rows}
              style={{ width: '100%', height: 56 + rows.length * 30 }}
              margin={{ top: 4, right: 16, bottom: 4, left: 0 }}
              desc="One bar per policy, split by each tool or alias's share of its tool calls."
            >
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={percentTick} tick={axisTick} stroke="var(--border)" />
              <YAxis type="category" dataKey="policy" tick={axisTick} stroke="var(--border)" width={nameRoom(rows.map((row) => String(row.policy)))} />
              <Tooltip {...tooltipStyle} cursor={{ fill: 'var(--muted-background)' }} formatter={(value: unknown) => (typeof value === 'number' ? percentTick(value) : String(value))} />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              {features.map((feature, index) => (
                <Bar key={feature} dataKey={feature} stackId="shares" fill={seriesColor(index)} isAnimationActive={false} />
              ))}
            </BarChart>
          </figure>
        </NextTask>
      )}
    </div>
  );
});

function DrawnNote({ drawn, total }: { drawn: number; total: number }) {
  return (
    <p className="muted eval-charts-drawn">
      The charts draw {drawn} of the {total} policies: the Pareto front, then the most accurate. The table lists every one.
    </p>
  );
}

/**
 * Its children, mounted one task after the rest of the view. The two charts' first mount in one
 * commit was the one long task left while an evaluation streams in (npm run bench -- --only
 * eval-ui): a commit cannot be sliced, but two commits are two tasks.
 */
function NextTask({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const [shown, setShown] = useState(!enabled);
  useEffect(() => {
    if (shown) return;
    const timer = setTimeout(() => startTransition(() => setShown(true)), 0);
    return () => clearTimeout(timer);
  }, [shown]);
  return shown ? children : null;
}

/** What the warm-up draws, off screen and never shown: one policy with a point, an interval and a
 * tool share, so every part of both charts is drawn once. */
const WARM_UP: EvalSummary = {
  type: 'eval_summary',
  version: RESULTS_VERSION,
  interval: 'wilson-95',
  tasks: 1,
  rolloutsPerTask: 1,
  pareto: ['warm-up'],
  policies: [
    {
      name: 'warm-up',
      label: 'warm-up',
      model: 'warm-up',
      tasks: 1,
      rollouts: 1,
      correct: 1,
      accuracy: 1,
      accuracyLow: 0.2,
      accuracyHigh: 1,
      costUsd: 0.001,
      totalCostUsd: 0.001,
      gradingCostUsd: 0,
      latencyMs: 1,
      costPerCorrect: 0.001,
      toolShares: { tool: 1 },
      toolCalls: { tool: 1 },
      modelShares: {},
      abnormalStops: 0,
      failedChecks: 0,
      unknownCostEntries: 0,
      hasEstimates: false,
      pareto: true,
      preference: PREFERENCE_PRESETS.balanced,
    },
  ],
};

/**
 * The charts drawn once off screen while the tab is idle (ChartWarmUp): recharts' core, then the
 * accuracy chart alone (a policy without tool calls has no bar), then both. Both charts' first
 * mount in one task was 70–90 ms, the accuracy chart's alone 50–60 ms; in these steps the longest
 * is 30–40 ms (npm run bench -- --only eval-ui, docs/benchmarks.md).
 */
const WARM_UP_STEPS = [
  ...RECHARTS_CORE_STEPS,
  <EvalCharts key="charts" summary={{ ...WARM_UP, policies: WARM_UP.policies.map((policy) => ({ ...policy, toolShares: {}, toolCalls: {} })) }} stagger={false} />,
  <EvalCharts key="charts" summary={WARM_UP} stagger={false} />,
];

export function ChartsWarmUp({ onDone }: { onDone(): void }) {
  return <ChartWarmUp steps={WARM_UP_STEPS} onDone={onDone} />;
}
