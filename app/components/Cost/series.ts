// The chart series colours, as CSS variables so they follow the light or dark theme. The table
// beside the charts uses the same colours for its swatches.

const SERIES = ['var(--series-1)', 'var(--series-2)', 'var(--series-3)', 'var(--series-4)', 'var(--series-5)', 'var(--series-6)'];

export function seriesColor(index: number): string {
  return SERIES[index % SERIES.length] ?? 'var(--series-1)';
}
