// Token counts for when no tokenizer is at hand. Two ratios, for two purposes:
// - usage a provider did not report is estimated at 4 characters per token (typical of English
//   prose with Qwen3's tokenizer), and is marked "estimated" wherever it is shown;
// - context budgets count 3 characters per token, because code and numbers tokenize that densely,
//   so a rebuilt prompt errs small rather than silently overflowing the model's window.

import type { ChatMessage } from './types.ts';

const USAGE_CHARS_PER_TOKEN = 4;
const BUDGET_CHARS_PER_TOKEN = 3;

export function estimateTokens(text: string): number {
  return estimateTokensOfLength(text.length);
}

export function estimateTokensOfLength(characters: number): number {
  return Math.ceil(characters / USAGE_CHARS_PER_TOKEN);
}

/** Tokens `text` is assumed to take when fitting it into a budget. */
export function budgetTokens(text: string): number {
  return Math.ceil(text.length / BUDGET_CHARS_PER_TOKEN);
}

/** Keeps the last `maxTokens` (budget count) of `text`, as the reference's `cut_seq` keeps the tail. */
export function keepLastTokens(text: string, maxTokens: number): string {
  const maxChars = Math.max(0, maxTokens * BUDGET_CHARS_PER_TOKEN);
  return text.length <= maxChars ? text : text.slice(text.length - maxChars);
}

/** Chat-format overhead per message (role markers), roughly what ChatML adds. */
const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimatePromptTokens(messages: readonly ChatMessage[], extraText = ''): number {
  let total = estimateTokens(extraText);
  for (const message of messages) total += estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
  return total;
}
