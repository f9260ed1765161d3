// Charts drawn once off screen before anyone needs them. recharts' first mount in a page compiles
// its code, builds its stores and measures its text, and it commits in one task that no transition
// slices (its stores update in layout effects and re-render at once): with a run's or an
// evaluation's first results that was a 50–270 ms long task (docs/benchmarks.md). Drawn here in
// small steps, an idle moment each, each step compiles part of the code, so no step is a long task
// and the real first mount is the cheap kind. Imported only by the chart modules (it imports
// recharts, which stays out of the first load).

import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Bar, BarChart, CartesianGrid, Legend, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import { usePart } from '../../state/context.tsx';
import { createWarmUps } from './warmUps.ts';
import './ChartWarmUp.css';

const tick = { fontSize: 11 };
const POINTS = [{ x: 0.5, y: 0.5 }];
const BARS = [{ label: 'warm-up', value: 1 }];

/** recharts' core in three steps, for a chart module's warm-up to begin with: a chart and its
 * axes, then a series, a grid and a tooltip in it, then a bar chart with a category axis. */
export const RECHARTS_CORE_STEPS: readonly ReactNode[] = [
  <ScatterChart key="chart" width={300} height={200}>
    <XAxis type="number" dataKey="x" tick={tick} />
    <YAxis type="number" dataKey="y" tick={tick} />
  </ScatterChart>,
  <ScatterChart key="chart" width={300} height={200}>
    <XAxis type="number" dataKey="x" tick={tick} />
    <YAxis type="number" dataKey="y" tick={tick} />
    <CartesianGrid strokeDasharray="3 3" />
    <Tooltip />
    <Scatter data={POINTS} isAnimationActive={false} />
  </ScatterChart>,
  <BarChart key="bars" width={300} height={100} layout="vertical" data={BARS}>
    <XAxis type="number" domain={[0, 1]} tick={tick} />
    <YAxis type="category" dataKey="label" tick={tick} />
    <Legend />
    <Bar dataKey="value" stackId="stack" isAnimationActive={false} />
  </BarChart>,
];

/**
 * Draws `steps` one after another, each in an idle moment of its own, in a box laid out (so
 * recharts can measure) but hidden, outside the page's own tree (a portal on body, inert and hidden
 * from assistive technology); then calls onDone, and the caller unmounts it. A step with the same
 * element type and key as the one before updates it, so only what it adds is mounted.
 */
export function ChartWarmUp({ steps, onDone }: { steps: readonly ReactNode[]; onDone(): void }) {
  // -1: nothing drawn yet; the first step waits for its turn too.
  const [step, setStep] = useState(-1);
  const turns = usePart(createWarmUps);
  useEffect(() => turns.nextTurn(() => (step >= steps.length - 1 ? onDone() : startTransition(() => setStep(step + 1)))), [turns, step, steps.length, onDone]);
  return createPortal(
    <div className="chart-warmup" aria-hidden="true" inert>
      {steps[step]}
    </div>,
    document.body,
  );
}
