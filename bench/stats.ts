// Summaries of repeated measurements, as the benchmarks print them.

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** Every measurement, in the order it was taken. */
  values: number[];
}

/** The middle value; the mean of the two middle values when there is an even number of them. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no measurements');
  if (values.some((value) => !Number.isFinite(value))) throw new Error(`median of a measurement that is not a finite number: ${values.join(', ')}`);
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

export function summarize(values: readonly number[]): Summary {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values: [...values] };
}
