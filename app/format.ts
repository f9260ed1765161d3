// Number formats shared by every panel, so a figure reads the same everywhere (and as the CLI
// prints it: dollars use the engine's own formatter).

export { formatUsd } from '../workers/engine/ledger.ts';

/** 850 ms, 1.2 s, 2 min 5 s; a dash when not known yet. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds % 60)} s`;
}

/** 1234 → "1,234". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
