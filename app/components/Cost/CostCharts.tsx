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
// On a projector (presenter view) the labels are read from the back of a room: 20 px, and the
// axes and bars made room for them.
const LARGE = { tick: { fill: 'var(--text-muted)', fontSize: 20 }, usdAxis: 118, labelAxis: 190, stepHeight: 280, toolRow: 44, toolAxisRoom: 44, bar: 30, stepMargin: { top: 14, right: 16, bottom: 0, left: 0 }, toolMargin: { top: 0, right: 52, bottom: 0, left: 0 } };
const SMALL = { tick: axisTick, usdAxis: 64, labelAxis: 96, stepHeight: 170, toolRow: 26, toolAxisRoom: 24, bar: 18, stepMargin: { top: 6, right: 8, bottom: 0, left: 0 }, toolMargin: { top: 0, right: 8, bottom: 0, left: 0 } };
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
  /** Sized for a projector. */
  large?: boolean;
}

export const CostCharts = memo(function CostCharts({ steps, tools, large = false }: CostChartsProps) {
  const size = large ? LARGE : SMALL;
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
          style={{ width: '100%', height: size.stepHeight }}
          data={steps}
          margin={size.stepMargin}
          desc="Bars: the cost of each step. Line: the cumulative cost of the run."
        >
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={size.tick} stroke="var(--border)" tickLine={false} />
          <YAxis
            tick={size.tick}
            stroke="var(--border)"
            tickFormatter={usdTick}
            width={size.usdAxis}
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
      {pricedTools.length > 0 && <ToolCostChart pricedTools={pricedTools} size={size} />}
    </div>
  );
});

/** The run's cost by the alias, tool or kind of call it was spent on (priced ones only). */
function ToolCostChart({ pricedTools, size }: { pricedTools: Array<ToolCostRow & { usd: number }>; size: typeof SMALL }) {
  const toolTicks = niceTicks(Math.max(0, ...pricedTools.map((row) => row.usd)));
  return (
    <figure className="cost-chart">
      <figcaption>Cost by tool or alias</figcaption>
      <BarChart
        responsive
        layout="vertical"
        style={{ width: '100%', height: size.toolAxisRoom + pricedTools.length * size.toolRow }}
        data={pricedTools}
        margin={size.toolMargin}
        desc="The run's cost split by the alias, tool or kind of call it was spent on."
      >
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" horizontal={false} />
        <XAxis
          type="number"
          tick={size.tick}
          stroke="var(--border)"
          tickFormatter={usdTick}
          tickLine={false}
          ticks={toolTicks}
          domain={[0, toolTicks.at(-1) ?? 1]}
          interval="preserveStartEnd"
        />
        <YAxis type="category" dataKey="label" tick={size.tick} stroke="var(--border)" width={size.labelAxis} tickLine={false} />
        <Tooltip {...tooltipStyle} formatter={usdValue} />
        <Bar dataKey="usd" name="Cost" isAnimationActive={false} maxBarSize={size.bar}>
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
