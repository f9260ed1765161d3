// The cost charts, drawn by us: the per-step chart is two SVG paths (bars, cumulative line) and its
// labels, the by-tool chart a bar of HTML per row. They redraw as a run streams, so a redraw must
// be cheap: recharts made one React element and one store update per bar on every redraw, the
// long tasks of a 500-step run (docs/benchmarks.md, streaming). Loaded with React.lazy in idle time
// (a small chunk); colours are CSS variables, so the theme changes them without a redraw.

import { memo, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatCount, formatUsd } from '../../format.ts';
import { niceTicks, type ChartPoint, type ToolCostRow } from './costData.ts';
import { seriesColor } from './series.ts';
import { drawStepChart, pointAt } from './stepChart.ts';

interface CostChartsProps {
  /** One bar per step, or per bin of steps on a long run. */
  steps: readonly ChartPoint[];
  tools: readonly ToolCostRow[];
  /** Sized for a projector (presenter view): labels read from the back of a room. */
  large?: boolean;
}

export const CostCharts = memo(function CostCharts({ steps, tools, large = false }: CostChartsProps) {
  const pricedTools = tools.filter((row): row is ToolCostRow & { usd: number } => row.usd !== null);
  return (
    <div className={large ? 'cost-charts cost-charts-large' : 'cost-charts'}>
      <figure className="cost-chart">
        <figcaption>
          Cost per step{' '}
          <span className="cost-legend">
            <span className="cost-swatch" style={{ background: seriesColor(0) }} aria-hidden="true" /> step
            <span className="cost-swatch cost-swatch-line" style={{ background: seriesColor(1) }} aria-hidden="true" /> cumulative
          </span>
        </figcaption>
        <StepCostChart points={steps} />
      </figure>
      {pricedTools.length > 0 && <ToolCostChart rows={pricedTools} />}
    </div>
  );
});

const pointName = (point: ChartPoint) => (point.first === point.last ? `Step ${point.label}` : `Steps ${point.label}`);

function describeSteps(points: readonly ChartPoint[]): string {
  const last = points.at(-1);
  if (!last) return 'No step has a cost yet.';
  const costliest = points.reduce((most, point) => (point.usd > most.usd ? point : most), last);
  const steps = last.last === 1 ? '1 step' : `${formatCount(last.last)} steps`;
  return `${steps}, ${formatUsd(last.cumulativeUsd)} in all; the costliest: ${pointName(costliest).toLowerCase()}, ${formatUsd(costliest.usd)}. Bars: each step's cost; line: the cumulative cost.`;
}

/** The plot's size in pixels: measured before the first paint, then followed as it resizes. */
function usePlotSize(): [React.RefObject<HTMLDivElement | null>, { width: number; height: number }] {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = (width: number, height: number) =>
      setSize((previous) => (previous.width === width && previous.height === height ? previous : { width, height }));
    update(element.clientWidth, element.clientHeight);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) update(Math.round(entry.contentRect.width), Math.round(entry.contentRect.height));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}

/** The step the chart's cursor is on: moved by the pointer, or by the arrow keys, Home and End;
 * Escape, leaving or blurring the chart puts it away. */
function useStepCursor(points: readonly ChartPoint[]) {
  const [active, setActive] = useState<number | null>(null);
  const shown = active === null ? undefined : points[Math.min(active, points.length - 1)];
  const shownIndex = shown ? points.indexOf(shown) : -1;
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setActive(pointAt(event.clientX - box.left, box.width, points.length));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const lastIndex = points.length - 1;
    const from = shownIndex < 0 ? null : shownIndex;
    const next: Record<string, number> = {
      ArrowLeft: from === null ? lastIndex : Math.max(0, from - 1),
      ArrowRight: from === null ? 0 : Math.min(lastIndex, from + 1),
      Home: 0,
      End: lastIndex,
    };
    if (event.key === 'Escape') setActive(null);
    else if (event.key in next && lastIndex >= 0) {
      event.preventDefault();
      setActive(next[event.key] ?? null);
    }
  };
  return { shown, shownIndex, onPointerMove, onKeyDown, clear: () => setActive(null) };
}

/** Bars for each step's cost and a line for the running total. Hover, or focus and use the arrow
 * keys, to read a bar's figures. */
function StepCostChart({ points }: { points: readonly ChartPoint[] }) {
  const [plotRef, { width, height }] = usePlotSize();
  const drawing = drawStepChart(points, width, height);
  const { shown, shownIndex, onPointerMove, onKeyDown, clear } = useStepCursor(points);

  return (
    <div className="step-chart">
      <div className="step-chart-y" aria-hidden="true">
        {drawing.yTicks.map((tick) => (
          <span key={tick} className="cost-chart-y-tick">
            {formatUsd(tick)}
          </span>
        ))}
      </div>
      <div
        ref={plotRef}
        className="step-chart-plot"
        role="img"
        aria-label={describeSteps(points)}
        tabIndex={0}
        onPointerMove={onPointerMove}
        onPointerLeave={clear}
        onKeyDown={onKeyDown}
        onBlur={clear}
      >
        {width > 0 && (
          <svg width={width} height={height} aria-hidden="true">
            <path className="step-chart-grid" d={drawing.grid} />
            {shownIndex >= 0 && <rect className="step-chart-cursor" x={shownIndex * drawing.slot} y={0} width={drawing.slot} height={height} />}
            <path className="step-chart-bars" d={drawing.bars} fill={seriesColor(0)} />
            <path className="step-chart-line" d={drawing.line} stroke={seriesColor(1)} />
            {drawing.dots && <path className="step-chart-dots" d={drawing.dots} stroke={seriesColor(1)} />}
          </svg>
        )}
        {shown && (
          <div
            className="chart-tooltip"
            style={{ left: `${((shownIndex + 0.5) / points.length) * 100}%` }}
            data-side={(shownIndex + 0.5) / points.length > 0.5 ? 'left' : 'right'}
          >
            <strong>{pointName(shown)}</strong>
            <span>Step: {formatUsd(shown.usd)}</span>
            <span>Cumulative: {formatUsd(shown.cumulativeUsd)}</span>
          </div>
        )}
      </div>
      <div className="step-chart-x" aria-hidden="true">
        {drawing.xTicks.map((tick) => (
          <span key={tick.step} style={{ left: `${tick.at * 100}%` }}>
            {tick.step}
          </span>
        ))}
      </div>
      {/* What the tooltip shows, said once it moves by keyboard or pointer. */}
      <span className="visually-hidden" aria-live="polite">
        {shown ? `${pointName(shown)}: ${formatUsd(shown.usd)}, cumulative ${formatUsd(shown.cumulativeUsd)}` : ''}
      </span>
    </div>
  );
}

/** The run's cost by the alias, tool or kind of call it was spent on (priced ones only): a bar of
 * HTML per row, as long as its share of the axis. */
function ToolCostChart({ rows }: { rows: ReadonlyArray<ToolCostRow & { usd: number }> }) {
  const ticks = niceTicks(Math.max(0, ...rows.map((row) => row.usd)));
  const top = ticks.at(-1) ?? 1;
  const share = (usd: number) => `${(usd / top) * 100}%`;
  return (
    <figure className="cost-chart">
      <figcaption>Cost by tool or alias</figcaption>
      <div
        className="tool-chart"
        role="img"
        aria-label={rows.map((row) => `${row.label}: ${formatUsd(row.usd)}`).join('; ')}
        style={{ '--intervals': ticks.length - 1 } as React.CSSProperties}
      >
        {rows.map((row, index) => (
          <div key={row.label} className="tool-chart-row">
            <span className="tool-chart-label">{row.label}</span>
            <span className="tool-chart-track" title={`${row.label}: ${formatUsd(row.usd)}`}>
              <span className="tool-chart-bar" style={{ width: share(row.usd), background: seriesColor(index) }} />
            </span>
          </div>
        ))}
        <div className="tool-chart-row tool-chart-axis" aria-hidden="true">
          <span className="tool-chart-label" />
          <span className="tool-chart-x">
            {ticks.map((tick) => (
              <span key={tick} style={{ left: share(tick) }}>
                {formatUsd(tick)}
              </span>
            ))}
          </span>
        </div>
      </div>
    </figure>
  );
}
