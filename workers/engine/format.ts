// The one formatting module: money, counts and tokens, bytes, durations, percentages and cut text, the way
// the playground, the CLI, the engine's messages and the tools all write them, so a figure reads
// the same everywhere. Built on Intl, always in en-US (the playground's and the CLI's language),
// never in the reader's locale, so a figure in an export, a test or a message is the same
// everywhere. Pure TypeScript: the engine, app/ (through app/format.ts), cli/ and tools/ import it.

const count = new Intl.NumberFormat('en-US');
// Figures inside a unit ("1.5 s", "$0.0123"): no thousands separators, as they always were written.
const plain = (maximumFractionDigits: number, minimumFractionDigits = 0) =>
  new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits, minimumFractionDigits });
const whole = plain(0);
const upTo2 = plain(2);
const upTo6 = plain(6);
const fixed1 = plain(1, 1);
const fixed2 = plain(2, 2);
const fixed4 = plain(4, 4);
const threeSignificant = new Intl.NumberFormat('en-US', { useGrouping: false, maximumSignificantDigits: 3 });
const percent1 = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });

/** 1234 → "1,234" (a count of anything: tokens, characters, runs). */
export function formatCount(n: number): string {
  return count.format(n);
}

/** "1.5 s", "60 s", "0.25 s": at most two decimals, none when whole. */
export function formatSeconds(ms: number): string {
  return `${upTo2.format(ms / 1000)} s`;
}

/** 850 ms, 1.2 s, 2 min 5 s; a dash when not known yet. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  // Round first, then split, so 59.96 s reads "1 min 0 s", never "60.0 s" or "1 min 60 s".
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${fixed1.format(tenths / 10)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A duration for an ETA: "45 s", "3 min 20 s", "1 h 05 min". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A dollar figure for people: `$0.0123`, `$1.50`, `<$0.0001`, `$0`, or `unknown`. */
export function formatUsd(usd: number | null): string {
  if (usd === null || Number.isNaN(usd)) return 'unknown';
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const amount = Math.abs(usd);
  // Single calls often cost fractions of a cent: below a cent keep three significant digits.
  if (amount < 0.000001) return `${sign}<$0.000001`;
  if (amount < 0.01) return `${sign}$${threeSignificant.format(amount)}`;
  return `${sign}$${(amount < 1 ? fixed4 : fixed2).format(amount)}`;
}

/** A price per million tokens, as the orchestrator's menu and the CLI's tables write it: $1.25, $10, $0.2. */
export function formatPerMillion(usd: number | undefined): string {
  return usd === undefined ? 'unknown' : `$${upTo6.format(usd)}`;
}

/** Bytes as a download or storage size: "850 MB", "1.2 GB" (decimal units, as stores sell them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${fixed1.format(bytes / 1e9)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(0, Math.round(bytes / 1e3))} kB`;
}

/** Bytes as a device limit: "1 GiB", "1.5 GiB", "128 MiB" (binary units, as GPUs report them). */
export function formatBinaryBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes % 1024 ** 3 === 0 ? whole : fixed1).format(bytes / 1024 ** 3)} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/** A share as a percentage with one decimal: 0.4567 → "45.7%". */
export function formatPercent(share: number): string {
  return percent1.format(share);
}

/** The note that ends a cut text. */
export function cutNote(kept: number, total: number): string {
  return `[… cut: ${formatCount(total - kept)} more characters not shown (${formatCount(total)} in all)]`;
}

/** `text` as it is when it fits in `max` characters; else its first `max`, then a note of the cut
 * (the engine cuts results at truncate.ts's MAX_TOOL_RESULT_CHARS, the page what it shows). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n${cutNote(max, text.length)}`;
}
