// Plain-words formatting shared by engine messages, backends and tools.

/** "1.5 s", "60 s", "0.25 s": at most two decimals, none when whole. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

/** 1234 → "1,234". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
