import { describe, expect, it } from 'vitest';
import type { ChartPoint } from './costData.ts';
import { drawStepChart, pointAt, stepTicks } from './stepChart.ts';

const point = (first: number, usd: number, cumulativeUsd: number, last = first): ChartPoint => ({
  label: first === last ? String(first) : `${first}–${last}`,
  first,
  last,
  usd,
  cumulativeUsd,
});

/** The subpaths of a path: each starts with M. */
const subpaths = (d: string) => d.split('M').filter(Boolean).map((part) => `M${part}`);

describe('drawStepChart', () => {
  const points = [point(1, 0.001, 0.001), point(2, 0.002, 0.003), point(3, 0, 0.003)];

  it('draws one bar per point, from the axis to its cost, on round dollar ticks', () => {
    const drawing = drawStepChart(points, 300, 100);
    expect(drawing.yTicks).toEqual([0, 0.001, 0.002, 0.003]);
    expect(drawing.slot).toBe(100);
    // 28 px wide (the widest), centred in each 100 px slot; $0.001 of $0.003 is a third of the height.
    expect(subpaths(drawing.bars)).toEqual(['M36 100V66.7H64V100Z', 'M136 100V33.3H164V100Z', 'M236 100V100H264V100Z']);
  });

  it('draws the cumulative cost through the slots’ centres, with a dot each on short runs', () => {
    const drawing = drawStepChart(points, 300, 100);
    expect(drawing.line).toBe('M50 66.7L150 0L250 0');
    expect(subpaths(drawing.dots)).toEqual(['M50 66.7h0', 'M150 0h0', 'M250 0h0']);
    // A dashed line at each tick above $0.
    expect(subpaths(drawing.grid)).toEqual(['M0 66.7H300', 'M0 33.3H300', 'M0 0H300']);
  });

  it('keeps narrow bars and no dots on a long run', () => {
    let cumulative = 0;
    const many = Array.from({ length: 60 }, (_, i) => {
      cumulative += 0.001;
      return point(i * 9 + 1, 0.001, cumulative, i * 9 + 9);
    });
    const drawing = drawStepChart(many, 300, 100);
    expect(subpaths(drawing.bars)).toHaveLength(60);
    expect(drawing.dots).toBe('');
    // Bars take 80% of a 5 px slot.
    expect(subpaths(drawing.bars)[0]).toMatch(/^M0\.5 100V[\d.]+H4\.5V100Z$/);
  });

  it('draws nothing but the axis for no points', () => {
    const drawing = drawStepChart([], 300, 100);
    expect(drawing.bars).toBe('');
    expect(drawing.line).toBe('');
    expect(drawing.xTicks).toEqual([]);
    expect(drawing.yTicks).toEqual([0, 1]);
  });
});

describe('stepTicks', () => {
  it('numbers every step of a short run, in the middle of its bar', () => {
    expect(stepTicks([point(1, 1, 1), point(2, 1, 2), point(3, 1, 3)])).toEqual([
      { step: 1, at: 1 / 6 },
      { step: 2, at: 3 / 6 },
      { step: 3, at: 5 / 6 },
    ]);
  });

  it('puts round step numbers inside the bins of a long run, with the first step', () => {
    const bins = Array.from({ length: 50 }, (_, i) => point(i * 10 + 1, 1, i + 1, i * 10 + 10));
    const ticks = stepTicks(bins);
    expect(ticks.map((tick) => tick.step)).toEqual([1, 100, 200, 300, 400, 500]);
    // Step 100 is the last of the tenth bin (91–100).
    expect(ticks[1]?.at).toBeCloseTo((9 + 9.5 / 10) / 50, 9);
    expect(ticks.at(-1)?.at).toBeCloseTo((49 + 9.5 / 10) / 50, 9);
  });

  it('leaves out a step that has no point (no cost)', () => {
    expect(stepTicks([point(1, 1, 1), point(3, 1, 2)]).map((tick) => tick.step)).toEqual([1, 3]);
  });
});

describe('pointAt', () => {
  it('finds the slot under the pointer, clamped to the chart', () => {
    expect(pointAt(0, 300, 3)).toBe(0);
    expect(pointAt(150, 300, 3)).toBe(1);
    expect(pointAt(299.9, 300, 3)).toBe(2);
    expect(pointAt(400, 300, 3)).toBe(2);
    expect(pointAt(-5, 300, 3)).toBe(0);
    expect(pointAt(10, 300, 0)).toBeNull();
  });
});
