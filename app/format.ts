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

/** A file size: "812 B", "14 kB", "2.3 MB" (decimal units, as file managers show them). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${Math.max(0, Math.round(bytes))} B`;
  if (bytes < 1e6) return `${Math.round(bytes / 1e3)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
