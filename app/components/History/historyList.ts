// The History list's filter and sort, pure so the 5,000-run benchmark measures exactly what the
// panel does.

import type { RunSummary } from '../../../workers/history/runLog.ts';

export type HistorySort = 'newest' | 'oldest' | 'dearest' | 'cheapest' | 'longest';

export const SORT_LABELS: Record<HistorySort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  dearest: 'Dearest first',
  cheapest: 'Cheapest first',
  longest: 'Longest first',
};

/** Each run's searchable text, lower-cased once (a summary object is replaced, never changed, when
 * its run changes): the History panel keeps one for its life. */
export type Haystacks = WeakMap<RunSummary, string>;

function haystackOf(haystacks: Haystacks, run: RunSummary): string {
  let text = haystacks.get(run);
  if (text === undefined) {
    text = `${run.name ?? ''}\n${run.task}\n${run.answer ?? ''}\n${run.orchestratorModel}\n${run.protocol}\n${run.preset ?? ''}`.toLowerCase();
    haystacks.set(run, text);
  }
  return text;
}

/** Runs whose name, task, answer, orchestrator, protocol or preset contain every word of `query`
 * (any case), in the order asked for. `runs` arrive newest first; `haystacks` keeps their text
 * lower-cased between calls. */
export function filterRuns(runs: readonly RunSummary[], query: string, sort: HistorySort, haystacks: Haystacks = new WeakMap()): RunSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matching =
    words.length === 0
      ? runs.slice()
      : runs.filter((run) => {
          const haystack = haystackOf(haystacks, run);
          return words.every((word) => haystack.includes(word));
        });
  switch (sort) {
    case 'newest':
      return matching;
    case 'oldest':
      return matching.reverse();
    case 'dearest':
      return matching.sort((a, b) => b.costUsd - a.costUsd);
    case 'cheapest':
      return matching.sort((a, b) => a.costUsd - b.costUsd);
    case 'longest':
      return matching.sort((a, b) => b.latencyMs - a.latencyMs);
  }
}
