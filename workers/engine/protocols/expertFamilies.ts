// What the reference evaluation gives each expert, by model family: how much of the gathered
// material it is shown and how it is asked to answer. The reference decides both from substrings
// of the model name (evaluation/eval_hle.py and eval_frames.py, run_single and call_tool, upstream
// commit 74de70a / 9d34d87); these are the defaults of the per-expert settings in the config.

import type { PaperToolName } from '../configBasics.ts';

export type PaperVariant = 'hle' | 'frames';

/** How an `answer` expert is asked for its answer (eval_hle.py, call_tool, tool `answer`):
 * `boxed`: a system prompt asking for `\boxed{}` (Qwen3, Qwen2.5-Math);
 * `tagged`: the Llama-3.3 wording, `<think>` and `<answer>` tags appended after a newline;
 * `think-hard`: the GPT-5 wording ("Take a deep breath and think hard …"), appended after a
 * blank line (eval_frames.py sends Claude the same). */
export const ANSWER_STYLES = ['boxed', 'tagged', 'think-hard'] as const;
export type AnswerStyle = (typeof ANSWER_STYLES)[number];

/** The part of the gathered material an expert is shown. */
export interface ExpertBudgets {
  /** Each document is cut to this many characters; null shows whole documents. */
  documentChars: number | null;
  /** Estimated tokens of code runs kept (the most recent ones). */
  codeContextTokens: number;
  /** Estimated tokens of the whole context, the problem's included. */
  contextTokens: number;
}

function has(model: string, part: string): boolean {
  return model.toLowerCase().includes(part);
}

/** The answer style the reference uses for this model; models it never ran get the Llama wording,
 * the plainest of the tagged ones. */
export function referenceAnswerStyle(model: string): AnswerStyle {
  if (has(model, 'qwen')) return 'boxed';
  if (has(model, 'gpt-5') || has(model, 'claude')) return 'think-hard';
  return 'tagged';
}

/**
 * The reference's `max_code_length` / `max_context_length` and document cut for an expert.
 * - GPT-5: 40,000 / 120,000 tokens (HLE), 40,000 / 160,000 (FRAMES), whole documents.
 * - Qwen2.5-Math: 1,000 / 2,000. Qwen2.5-Coder: 16,000 / 24,000.
 * - Llama: 10,000 / 80,000 (HLE), 40,000 / 80,000 (FRAMES), whole documents.
 * - Qwen3 and every model the reference never ran: 12,000 / 24,000.
 * Documents: FRAMES shows them whole to every expert. HLE cuts them to 1,000 characters except for
 * GPT-5 (all tools), Llama (answer) and any reasoner but Qwen2.5-Coder.
 */
export function referenceExpertBudgets(tool: PaperToolName, model: string, variant: PaperVariant): ExpertBudgets {
  const frames = variant === 'frames';
  const gpt5 = has(model, 'gpt-5');
  const llama = has(model, 'llama');
  const coder = has(model, 'qwen2.5-coder');
  let tokens: Omit<ExpertBudgets, 'documentChars'>;
  if (gpt5) tokens = { codeContextTokens: 40_000, contextTokens: frames ? 160_000 : 120_000 };
  else if (has(model, 'qwen2.5-math')) tokens = { codeContextTokens: 1000, contextTokens: 2000 };
  else if (coder) tokens = { codeContextTokens: 16_000, contextTokens: 24_000 };
  else if (llama) tokens = { codeContextTokens: frames ? 40_000 : 10_000, contextTokens: 80_000 };
  else tokens = { codeContextTokens: 12_000, contextTokens: 24_000 };

  let whole: boolean;
  if (frames) whole = true;
  else if (tool === 'enhance_reasoning') whole = !coder;
  else if (tool === 'answer') whole = gpt5 || llama;
  else whole = gpt5;
  return { documentChars: whole ? null : 1000, ...tokens };
}
