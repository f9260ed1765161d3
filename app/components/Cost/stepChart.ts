// The per-step cost chart's drawing, from its points and its size in pixels: the bars as one SVG
// path, the cumulative line as another, and where the axes' labels go. Pure, so a redraw while a
// run streams is a few strings, not a chart library's components and stores (docs/benchmarks.md).

import { niceTicks, type ChartPoint } from './costData.ts';

/** Widest bar, px (a short run's few bars stay bars, not blocks). */
const MAX_BAR_PX = 28;
/** A bar takes this share of its slot; the rest is the gap between bars. */
const BAR_SHARE = 0.8;
/** Past this many points the line has no dots. */
const MAX_DOTS = 30;
/** At most this many step numbers under the chart. */
const MAX_STEP_TICKS = 6;

export interface StepChartDrawing {
  /** One subpath per point (a point without cost is a bar of no height): "M… Z M… Z". */
  bars: string;
  /** The cumulative cost through the points' centres. */
  line: string;
  /** A dot on the line per point (zero-length subpaths, drawn with round caps); empty on long runs. */
  dots: string;
  /** Dashed horizontal lines at the dollar ticks above $0. */
  grid: string;
  /** Dollar ticks from $0 up, evenly spaced over the height. */
  yTicks: number[];
  /** Step numbers under the chart, each at its place on the x axis (0–1 of the width). */
  xTicks: Array<{ step: number; at: number }>;
  /** Width of one point's slot, px. */
  slot: number;
}

const px = (value: number) => Math.round(value * 10) / 10;

export function drawStepChart(points: readonly ChartPoint[], width: number, height: number): StepChartDrawing {
  const yTicks = niceTicks(Math.max(0, ...points.map((point) => Math.max(point.usd, point.cumulativeUsd))));
  const top = yTicks.at(-1) ?? 1;
  const y = (usd: number) => px(height * (1 - usd / top));
  const slot = points.length > 0 ? width / points.length : width;
  const barWidth = Math.min(MAX_BAR_PX, slot * BAR_SHARE);
  const bars: string[] = [];
  const line: string[] = [];
  const dots: string[] = [];
  points.forEach((point, i) => {
    const left = px(i * slot + (slot - barWidth) / 2);
    bars.push(`M${left} ${height}V${y(point.usd)}H${px(left + barWidth)}V${height}Z`);
    const centre = px((i + 0.5) * slot);
    line.push(`${i === 0 ? 'M' : 'L'}${centre} ${y(point.cumulativeUsd)}`);
    if (points.length <= MAX_DOTS) dots.push(`M${centre} ${y(point.cumulativeUsd)}h0`);
  });
  const grid = yTicks
    .slice(1)
    .map((tick) => `M0 ${y(tick)}H${px(width)}`)
    .join('');
  return { bars: bars.join(''), line: line.join(''), dots: dots.join(''), grid, yTicks, xTicks: stepTicks(points), slot };
}

/** Round step numbers for the x axis (1, 2, 3 … or 100, 200 …), each placed in the slot of the
 * point (or bin of steps) that holds it. */
export function stepTicks(points: readonly ChartPoint[], maxTicks = MAX_STEP_TICKS): Array<{ step: number; at: number }> {
  const first = points[0]?.first;
  const last = points.at(-1)?.last;
  if (first === undefined || last === undefined) return [];
  const every = niceStep((last - first + 1) / maxTicks);
  const steps: number[] = [];
  for (let step = Math.ceil(first / every) * every; step <= last; step += every) steps.push(step);
  if ((steps[0] ?? Infinity) > first + every / 2) steps.unshift(first);
  const ticks: Array<{ step: number; at: number }> = [];
  for (const step of steps) {
    const index = points.findIndex((point) => point.last >= step);
    const point = points[index];
    // A step with no cost has no point: it is not on the axis.
    if (!point || point.first > step) continue;
    const within = (step - point.first + 0.5) / (point.last - point.first + 1);
    ticks.push({ step, at: (index + within) / points.length });
  }
  return ticks;
}

/** 1, 2, 5, 10, 20, 25, 50, 100 … : the smallest at least `rough` (and at least 1). */
function niceStep(rough: number): number {
  if (rough <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  return ([1, 2, 2.5, 5, 10].map((multiple) => multiple * magnitude).find((step) => step >= rough && Number.isInteger(step)) ?? 10 * magnitude);
}

/** The point under `x` px of a chart `width` px wide with `count` points. */
export function pointAt(x: number, width: number, count: number): number | null {
  if (count === 0 || width <= 0) return null;
  return Math.min(count - 1, Math.max(0, Math.floor((x / width) * count)));
}
