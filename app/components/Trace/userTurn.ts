// What a user-turn card shows of a τ² conversation's simulated user: its message, the stop signal
// it gave, its tokens and its cost (a scripted user's is nothing; an unpriced model's unknown).

import { clipTitle, formatCount, formatUsd } from '../../format.ts';
import { USER_STOP_SIGNALS } from '../../../workers/domains/tau2/conversation.ts';
import type { StepView, UserTurnView } from '../../state/runView.ts';

/** The stop signal the user gave (`###STOP###`, `###TRANSFER###`, `###OUT-OF-SCOPE###`), or null. */
export function stopSignalOf(turn: Pick<UserTurnView, 'content'>): string | null {
  const { content } = turn;
  if (content === null) return null;
  return USER_STOP_SIGNALS.find((signal) => content.includes(signal)) ?? null;
}

const SUMMARY_CHARS = 120;

/** The calls a user-turn card draws: a turn may make 16 (MAX_USER_TURN_CALLS, workers/engine/
 * callLimits.ts), and one an earlier version recorded any number (60,000 were drawn as 60,000
 * rows); the rest are counted. */
export const SHOWN_USER_CALLS = 16;

/** The card's one-line summary: what the user said, or the phone tools it called. */
export function userTurnSummary(turn: Pick<UserTurnView, 'content' | 'toolCalls'>): string {
  if (turn.toolCalls.length > 0) {
    const names = turn.toolCalls.slice(0, SHOWN_USER_CALLS).map((call) => clipTitle(call.name, 80)).join(', ');
    const more = turn.toolCalls.length - SHOWN_USER_CALLS;
    return more > 0 ? `${names} and ${formatCount(more)} more` : names;
  }
  const said = (turn.content ?? '').replace(/\s+/g, ' ').trim();
  if (said === '') return 'said nothing';
  return said.length > SUMMARY_CHARS ? `${said.slice(0, SUMMARY_CHARS - 1).trimEnd()}…` : said;
}

/** "1,000 in · 100 out", or '—' for a scripted user (no model, no tokens). */
export function userTurnTokens(turn: Pick<UserTurnView, 'model' | 'promptTokens' | 'completionTokens'>): string {
  if (turn.model === null) return '—';
  return `${formatCount(turn.promptTokens)} in · ${formatCount(turn.completionTokens)} out`;
}

/** "$0.0023", "$0 (scripted)", or "unknown" when the user model has no known price. */
export function userTurnCost(turn: Pick<UserTurnView, 'model' | 'costUsd'>): string {
  if (turn.model === null) return '$0 (scripted)';
  return turn.costUsd === null ? 'unknown' : formatUsd(turn.costUsd);
}

/** The user's turns numbered across the conversation: those of the steps before `index`, plus
 * one, is the first turn of step `index`. */
export function userTurnsBefore(steps: readonly StepView[], index: number): number {
  let count = 0;
  for (let i = 0; i < index && i < steps.length; i++) count += steps[i]?.userTurns?.length ?? 0;
  return count;
}
