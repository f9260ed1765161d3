// Number formats shared by every panel, so a figure reads the same everywhere (and as the CLI
// prints it: dollars use the engine's own formatter).

export { formatUsd } from '../workers/engine/ledger.ts';
export { formatCount } from '../workers/engine/format.ts';
import { cutText } from '../workers/engine/truncate.ts';

/** Characters of one block of untrusted text (model output, a prompt, an error) the page renders:
 * a model reply may be up to 1,000,000 (workers/backends/limits.ts), and laying out that much on
 * every streamed update stalls the page. The rest is cut with a note; Copy buttons copy it all. */
export const MAX_DISPLAY_CHARS = 100_000;

export function clipForDisplay(text: string): string {
  return cutText(text, MAX_DISPLAY_CHARS);
}

/** Bytes as a download or storage size: "850 MB", "1.2 GB" (decimal units, as stores sell them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(0, Math.round(bytes / 1e3))} kB`;
}

/** 850 ms, 1.2 s, 2 min 5 s; a dash when not known yet. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  // Round first, then split, so 59.96 s reads "1 min 0 s", never "60.0 s" or "1 min 60 s".
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
