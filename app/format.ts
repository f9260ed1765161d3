// Number formats shared by every panel, so a figure reads the same everywhere: the engine's one
// formatting module (workers/engine/format.ts), which the CLI prints with too.

export { formatBytes, formatCount, formatMs, formatPercent, formatSeconds, formatUsd } from '../workers/engine/format.ts';
import { cutText } from '../workers/engine/format.ts';

/** Characters of one block of untrusted text (model output, a prompt, an error) the page renders:
 * a model reply may be up to 1,000,000 (workers/backends/http/limits.ts), and laying out that much on
 * every streamed update stalls the page. The rest is cut with a note; Copy buttons copy it all. */
export const MAX_DISPLAY_CHARS = 100_000;

export function clipForDisplay(text: string): string {
  return cutText(text, MAX_DISPLAY_CHARS);
}

/** Characters of a run's task or name where it titles something: a History row's heading, its
 * tooltip, its aria-label and its checkbox's label, Compare's columns. A task may be 50,000
 * characters (MAX_TASK_CHARS), one stored by an earlier version any length, and a heading or a
 * label is laid out (and read aloud) whole. */
export const MAX_TITLE_CHARS = 200;

/** `text` as one line of at most `max` characters, an ellipsis where it was cut. Reads only the
 * first `max` + 1 characters, however long the text. */
export function clipTitle(text: string, max = MAX_TITLE_CHARS): string {
  const head = text.slice(0, max * 2).replace(/\s+/g, ' ').trim();
  return head.length > max ? `${head.slice(0, max - 1).trimEnd()}…` : head;
}
