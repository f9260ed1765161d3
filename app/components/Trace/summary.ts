// Figures a step card shows, summed from the ledger entries the engine charged (never recomputed
// from prices here), and the formats they are shown in.

import type { LedgerEntry } from '../../../workers/engine/events.ts';
import { formatCount, formatUsd } from '../../format.ts';

export interface TokenSummary {
  prompt: number;
  completion: number;
  /** Prompt tokens served from the provider's cache (part of `prompt`). */
  cached: number;
  /** Reasoning tokens (part of `completion`). */
  reasoning: number;
  /** Entries that carried token usage; 0 means there is nothing to show. */
  withUsage: number;
}

export function sumTokens(entries: readonly LedgerEntry[]): TokenSummary {
  const summary: TokenSummary = { prompt: 0, completion: 0, cached: 0, reasoning: 0, withUsage: 0 };
  for (const { usage } of entries) {
    if (!usage) continue;
    summary.prompt += usage.promptTokens;
    summary.completion += usage.completionTokens;
    summary.cached += usage.cachedPromptTokens ?? 0;
    summary.reasoning += usage.reasoningTokens ?? 0;
    summary.withUsage += 1;
  }
  return summary;
}

/** "1,930 in · 41 out", with cached and reasoning tokens when there are any; '' without usage. */
export function formatTokens(tokens: TokenSummary): string {
  if (tokens.withUsage === 0) return '';
  const input = tokens.cached > 0 ? `${formatCount(tokens.prompt)} in (${formatCount(tokens.cached)} cached)` : `${formatCount(tokens.prompt)} in`;
  const output =
    tokens.reasoning > 0
      ? `${formatCount(tokens.completion)} out (${formatCount(tokens.reasoning)} reasoning)`
      : `${formatCount(tokens.completion)} out`;
  return `${input} · ${output}`;
}

export interface CostFigure {
  /** What to print: `$0.0012`, `≈$0.0012`, `$0.0012 + unknown`, or `unknown`. */
  text: string;
  estimated: boolean;
  /** Some part of it has no known price. */
  unknown: boolean;
}

/** A known sum plus flags, as a figure that never shows an unknown price as $0. */
export function costFigure(knownUsd: number, flags: { estimated: boolean; unknown: boolean }): CostFigure {
  const { estimated, unknown } = flags;
  if (unknown && knownUsd === 0) return { text: 'unknown', estimated: false, unknown: true };
  const amount = `${estimated ? '≈' : ''}${formatUsd(knownUsd)}`;
  return { text: unknown ? `${amount} + unknown` : amount, estimated, unknown };
}

/** The cost of some ledger entries (a call's, or the orchestrator's share of a turn). */
export function entriesCost(entries: readonly LedgerEntry[]): CostFigure | null {
  if (entries.length === 0) return null;
  let known = 0;
  let estimated = false;
  let unknown = false;
  for (const entry of entries) {
    if (entry.usd === null) {
      unknown = true;
      continue;
    }
    known += entry.usd;
    if (entry.basis === 'estimated') estimated = true;
  }
  return costFigure(known, { estimated, unknown });
}

const INLINE_ARGUMENTS_CHARS = 60;

/** Tool arguments as JSON: on one line when short, indented when not. */
export function formatArguments(args: Record<string, unknown>): { text: string; multiline: boolean } {
  const inline = JSON.stringify(args);
  if (inline.length <= INLINE_ARGUMENTS_CHARS) return { text: inline, multiline: false };
  return { text: JSON.stringify(args, null, 2), multiline: true };
}

/**
 * Streamed orchestrator text split at Qwen3's thinking block, so reasoning reads as reasoning
 * while it streams: `<think>…</think>` (or text before a lone `</think>`, when the template opened
 * the block) is reasoning; an unclosed `<think>` is reasoning still being written.
 */
export function splitThinking(text: string): { reasoning: string; rest: string } {
  const close = text.indexOf('</think>');
  const open = text.indexOf('<think>');
  if (close !== -1) {
    const start = open !== -1 && open < close ? open + '<think>'.length : 0;
    return { reasoning: text.slice(start, close).trim(), rest: text.slice(close + '</think>'.length).trim() };
  }
  if (open !== -1) return { reasoning: text.slice(open + '<think>'.length).trim(), rest: text.slice(0, open).trim() };
  return { reasoning: '', rest: text.trim() };
}

/** Whole seconds left until `deadline`, never negative. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

function perSecond(rate: number): string {
  return `${rate >= 100 ? formatCount(Math.round(rate)) : rate.toFixed(1)} tok/s`;
}

/** A local engine's own figures (web-llm): "prefill 64 tokens at 950 tok/s · decode 42.5 tok/s".
 * With its KV cache reused, only the new tokens are prefilled. '' when no entry reports speeds. */
export function formatSpeeds(entries: readonly LedgerEntry[]): string {
  const usage = [...entries].reverse().find((entry) => entry.usage?.prefillTokensPerSecond !== undefined || entry.usage?.decodeTokensPerSecond !== undefined)?.usage;
  if (!usage) return '';
  const parts: string[] = [];
  if (usage.prefillTokensPerSecond !== undefined) parts.push(`prefill ${formatCount(usage.promptTokens)} tokens at ${perSecond(usage.prefillTokensPerSecond)}`);
  if (usage.decodeTokensPerSecond !== undefined) parts.push(`decode ${perSecond(usage.decodeTokensPerSecond)}`);
  return parts.join(' · ');
}

/** At most this many characters of reasoning on a collapsed card in presenter view. */
const GIST_CHARS = 160;

/**
 * One line of a turn's reasoning for a collapsed step card (presenter view): its last sentence,
 * where a turn's reasoning usually lands on its choice, whitespace collapsed and clipped. '' when
 * there is no reasoning.
 */
export function reasoningGist(reasoning: string): string {
  const sentences = reasoning
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=\S)/);
  const last = sentences.at(-1) ?? '';
  return last.length > GIST_CHARS ? `${last.slice(0, GIST_CHARS - 1).trimEnd()}…` : last;
}
