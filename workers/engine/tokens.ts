// Token estimates for when no tokenizer is at hand (budgets, and usage a provider did not report).
// Qwen3's tokenizer averages a little under 4 characters per token on English prose; we count
// 4 so that budgets err on the small side only slightly. Figures derived from this are marked
// "estimated" wherever they are shown.

import type { ChatMessage } from './types.ts';

export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Keeps the last `maxTokens` (estimated) of `text`, as the reference's `cut_seq` keeps the tail. */
export function keepLastTokens(text: string, maxTokens: number): string {
  const maxChars = Math.max(0, maxTokens * CHARS_PER_TOKEN);
  return text.length <= maxChars ? text : text.slice(text.length - maxChars);
}

/** Chat-format overhead per message (role markers), roughly what ChatML adds. */
const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimatePromptTokens(messages: readonly ChatMessage[], extraText = ''): number {
  let total = estimateTokens(extraText);
  for (const message of messages) total += estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
  return total;
}
