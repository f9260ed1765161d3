// What a tool or an expert hands back is untrusted and unbounded: a custom tool can return
// megabytes, an expert can answer with a whole book. Each result is cut here, once, before it
// enters the orchestrator's context, the events or the page, and says that it was cut and by how
// much (the note: format.ts, `cutText`). docs/security.md explains the figures.

import { cutNote, formatCount } from './format.ts';

/** Characters of one tool result (or expert answer) the orchestrator reads and the trace shows:
 * above any normal result (five Wikipedia pages of 8,000 characters are 40,000), about 30,000
 * tokens, a tenth of the reply cap. */
export const MAX_TOOL_RESULT_CHARS = 100_000;

/** Characters of all the strings in one result's `detail` (what the trace shows beside it). */
export const MAX_DETAIL_CHARS = 4 * MAX_TOOL_RESULT_CHARS;

/** Items kept of one list inside a `detail`, and how deep it is read. */
const MAX_DETAIL_ITEMS = 200;
const MAX_DETAIL_DEPTH = 8;

/** A copy of a result's detail (plain data) within MAX_DETAIL_CHARS: long strings cut with a
 * note, long lists shortened, deep nesting replaced by a note. Small details come back as they are. */
export function cutDetail(detail: unknown): unknown {
  let budget = MAX_DETAIL_CHARS;
  const visit = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      const kept = Math.max(0, Math.min(value.length, budget, MAX_TOOL_RESULT_CHARS));
      budget -= kept;
      return kept === value.length ? value : `${value.slice(0, kept)}\n${cutNote(kept, value.length)}`;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_DETAIL_DEPTH) return '[… cut: nested too deep to show]';
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_DETAIL_ITEMS).map((item) => visit(item, depth + 1));
      if (value.length > MAX_DETAIL_ITEMS) items.push(`[… cut: ${formatCount(value.length - MAX_DETAIL_ITEMS)} more items not shown]`);
      return items;
    }
    const copy: Record<string, unknown> = {};
    // defineProperty, not assignment: a key named "__proto__" stays data.
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, { value: visit(item, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };
  return visit(detail, 0);
}
