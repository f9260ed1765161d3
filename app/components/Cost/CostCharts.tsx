// The cost charts. This, the evaluation's charts (Evaluate/EvalCharts.tsx) and the warm-up they
// share (Charts/ChartWarmUp.tsx) are the only modules that import recharts, and the panels load
// the first two with React.lazy, so recharts stays out of the first screen's JavaScript. Colours
// are CSS variables (SVG paint takes var()), so the charts follow the light or dark theme without
// re-rendering.

import { memo } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { formatUsd } from '../../format.ts';
import { ChartWarmUp, RECHARTS_CORE_STEPS } from '../Charts/ChartWarmUp.tsx';
import { niceTicks, type ChartPoint, type ToolCostRow } from './costData.ts';
import { seriesColor } from './series.ts';

const axisTick = { fill: 'var(--text-muted)', fontSize: 11 };
const tooltipStyle = {
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 'var(--radius)', fontSize: 12 },
  labelStyle: { color: 'var(--text)', fontWeight: 600 },
  itemStyle: { color: 'var(--text)' },
  cursor: { fill: 'var(--muted-background)' },
};
const usdTick = (value: number) => formatUsd(value);
const usdValue = (value: unknown) => (typeof value === 'number' ? formatUsd(value) : String(value));

interface CostChartsProps {
  /** One bar per step, or per bin of steps on a long run. */
  steps: ChartPoint[];
  tools: ToolCostRow[];
}

export const CostCharts = memo(function CostCharts({ steps, tools }: CostChartsProps) {
  const pricedTools = tools.filter((row): row is ToolCostRow & { usd: number } => row.usd !== null);
  // Round dollar ticks of our own: recharts' own split the axis at fractions like $0.00085.
  const stepTicks = niceTicks(Math.max(0, ...steps.map((point) => Math.max(point.usd, point.cumulativeUsd))));
  return (
    <div className="cost-charts">
      <figure className="cost-chart">
        <figcaption>
          Cost per step{' '}
          <span className="cost-legend">
            <span className="cost-swatch" style={{ background: seriesColor(0) }} aria-hidden="true" /> step
            <span className="cost-swatch cost-swatch-line" style={{ background: seriesColor(1) }} aria-hidden="true" /> cumulative
          </span>
        </figcaption>
        <ComposedChart
          responsive
          style={{ width: '100%', height: 170 }}
          data={steps}
          margin={{ top: 6, right: 8, bottom: 0, left: 0 }}
          desc="Bars: the cost of each step. Line: the cumulative cost of the run."
        >
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={axisTick} stroke="var(--border)" tickLine={false} />
          <YAxis
            tick={axisTick}
            stroke="var(--border)"
            tickFormatter={usdTick}
            width={64}
            tickLine={false}
            ticks={stepTicks}
            domain={[0, stepTicks.at(-1) ?? 1]}
            interval={0}
          />
          <Tooltip {...tooltipStyle} formatter={usdValue} labelFormatter={(label) => (String(label).includes('–') ? `Steps ${String(label)}` : `Step ${String(label)}`)} />
          <Bar dataKey="usd" name="Step" fill={seriesColor(0)} isAnimationActive={false} maxBarSize={28} />
          <Line
            dataKey="cumulativeUsd"
            name="Cumulative"
            stroke={seriesColor(1)}
            strokeWidth={2}
            dot={steps.length <= 30 ? { r: 2, fill: seriesColor(1) } : false}
            isAnimationActive={false}
            type="monotone"
          />
        </ComposedChart>
      </figure>
      {pricedTools.length > 0 && <ToolCostChart pricedTools={pricedTools} />}
    </div>
  );
});

/** The run's cost by the alias, tool or kind of call it was spent on (priced ones only). */
function ToolCostChart({ pricedTools }: { pricedTools: Array<ToolCostRow & { usd: number }> }) {
  const toolTicks = niceTicks(Math.max(0, ...pricedTools.map((row) => row.usd)));
  return (
    <figure className="cost-chart">
      <figcaption>Cost by tool or alias</figcaption>
      <BarChart
        responsive
        layout="vertical"
        style={{ width: '100%', height: 24 + pricedTools.length * 26 }}
        data={pricedTools}
        margin={{ top: 0, right: 8, bottom: 0, left: 0 }}
        desc="The run's cost split by the alias, tool or kind of call it was spent on."
      >
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" horizontal={false} />
        <XAxis
          type="number"
          tick={axisTick}
          stroke="var(--border)"
          tickFormatter={usdTick}
          tickLine={false}
          ticks={toolTicks}
          domain={[0, toolTicks.at(-1) ?? 1]}
          interval="preserveStartEnd"
        />
        <YAxis type="category" dataKey="label" tick={axisTick} stroke="var(--border)" width={96} tickLine={false} />
        <Tooltip {...tooltipStyle} formatter={usdValue} />
        <Bar dataKey="usd" name="Cost" isAnimationActive={false} maxBarSize={18}>
          {pricedTools.map((row, index) => (
            <Cell key={row.label} fill={seriesColor(index)} />
          ))}
        </Bar>
      </BarChart>
    </figure>
  );
}

/** What the warm-up draws: two steps and two priced tools, so every part of both charts is drawn. */
const WARM_UP_STEPS_DATA: ChartPoint[] = [
  { label: '1', usd: 0.001, cumulativeUsd: 0.001 },
  { label: '2', usd: 0.002, cumulativeUsd: 0.003 },
];
const WARM_UP_TOOLS: ToolCostRow[] = ['orchestrator', 'answer'].map((label) => ({
  label,
  kind: 'orchestrator',
  entries: 1,
  usd: 0.001,
  unknownEntries: 0,
  estimated: false,
  latencyMs: 1,
}));

/** The charts drawn once off screen while the page is idle (ChartWarmUp): recharts' core, the
 * per-step chart alone (no priced tool, no second chart), then both. Unwarmed, their first mount
 * was the one long task of a 500-step run's stream (53 ms of CPU); both in one warm-up step, 41–52 ms
 * (npm run bench -- --only stream and --only eval-ui, docs/benchmarks.md). */
const WARM_UP = [
  ...RECHARTS_CORE_STEPS,
  <CostCharts key="charts" steps={WARM_UP_STEPS_DATA} tools={[]} />,
  <CostCharts key="charts" steps={WARM_UP_STEPS_DATA} tools={WARM_UP_TOOLS} />,
];

export function CostChartsWarmUp({ onDone }: { onDone(): void }) {
  return <ChartWarmUp steps={WARM_UP} onDone={onDone} />;
}
