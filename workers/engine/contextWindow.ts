// Fitting a run into the context window of a model loaded in the browser. A remote server has a
// large window and answers an error when a prompt is too long; a web-llm model has the window it
// was loaded with (4,096 tokens by default) and allocates nothing beyond it. So a reply's max
// tokens and the paper protocol's budgets are cut until prompt + reply fit the window, and a
// window too small for the fixed part of the prompt is refused before anything runs.

import type { ExpertBudgets } from './protocols/expertFamilies.ts';
import type { PaperBudgets } from './protocols/paper.ts';
import { formatCount } from './format.ts';

/** Chat-template markers (`<|im_start|>` …, the empty think block) and the fixed words the paper
 * protocol puts around its context ("Problem: ", "Documents:", "Choose an appropriate tool."). */
export const PROMPT_WRAPPER_TOKENS = 64;
/** An expert's instruction (the longest is about 300 characters: 100 budget tokens) plus the
 * words and template markers around it. */
export const EXPERT_INSTRUCTION_TOKENS = 192;
/** Below this, a rebuilt context cannot hold a task and one document's worth of material. */
export const MIN_CONTEXT_TOKENS = 256;

/** The tokens left free for a reply: `maxTokens`, but at most a quarter of the window, so the
 * prompt keeps three quarters. */
export function replyTokens(contextWindow: number, maxTokens?: number): number {
  const quarter = Math.floor(contextWindow / 4);
  return maxTokens === undefined ? quarter : Math.min(maxTokens, quarter);
}

export interface WindowedOrchestrator {
  label: string;
  contextWindow: number;
  maxTokens: number;
  /** Budget tokens of the prompt's fixed part: the system turn with the tool list rendered in. */
  fixedPromptTokens: number;
}

export interface WindowedExpert {
  label: string;
  contextWindow: number;
  maxTokens?: number;
}

export interface PaperWindowFit {
  budgets: PaperBudgets;
  /** The orchestrator's max tokens, when it has a window. */
  orchestratorMaxTokens?: number;
}

export class ContextWindowTooSmallError extends Error {
  override name = 'ContextWindowTooSmallError';
}

/**
 * The orchestrator's budgets in the paper protocol, cut so that its prompt plus its reply fits the
 * window it was loaded with (budgets count 3 characters per token, which errs on the large side).
 * A remote orchestrator (no window) leaves the budgets as configured.
 */
export function fitPaperBudgets(budgets: PaperBudgets, orchestrator: WindowedOrchestrator | undefined): PaperWindowFit {
  const fitted: PaperBudgets = { ...budgets };
  const fit: PaperWindowFit = { budgets: fitted };
  if (orchestrator) {
    const reply = replyTokens(orchestrator.contextWindow, orchestrator.maxTokens);
    const room = orchestrator.contextWindow - reply - orchestrator.fixedPromptTokens - PROMPT_WRAPPER_TOKENS;
    if (room < MIN_CONTEXT_TOKENS) {
      throw new ContextWindowTooSmallError(
        `${orchestrator.label} is loaded with a ${formatCount(orchestrator.contextWindow)}-token context window: ` +
          `the tool list takes about ${formatCount(orchestrator.fixedPromptTokens)} tokens and the reply up to ${formatCount(reply)}, ` +
          `leaving too little for the task. Load it with a larger context window, or offer fewer aliases.`,
      );
    }
    fitted.contextTokens = Math.min(fitted.contextTokens, room);
    // FRAMES does not count the problem within its budget; in a window it must be counted.
    fitted.windowTokens = room;
    // The code part may stand alone in the context (when it outgrows the rest), so it keeps
    // half, leaving the other half for the task.
    fitted.codeContextTokens = Math.min(fitted.codeContextTokens, Math.floor(fitted.contextTokens / 2));
    fit.orchestratorMaxTokens = reply;
  }
  return fit;
}

/** An expert's budgets, cut so that its prompt plus its reply fits the window it was loaded with. */
export function fitExpertBudgets(budgets: ExpertBudgets, expert: WindowedExpert): ExpertBudgets {
  const room = expert.contextWindow - replyTokens(expert.contextWindow, expert.maxTokens) - EXPERT_INSTRUCTION_TOKENS;
  if (room < MIN_CONTEXT_TOKENS) {
    throw new ContextWindowTooSmallError(
      `${expert.label} is loaded with a ${formatCount(expert.contextWindow)}-token context window, too small for an expert's prompt and reply. Load it with a larger context window.`,
    );
  }
  const contextTokens = Math.min(budgets.contextTokens, room);
  return { ...budgets, contextTokens, codeContextTokens: Math.min(budgets.codeContextTokens, contextTokens) };
}
