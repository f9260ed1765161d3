import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextWindowTooSmallError, EXPERT_INSTRUCTION_TOKENS, fitExpertBudgets, fitPaperBudgets, replyTokens } from './contextWindow.ts';
import { buildOrchestratorContext, type PaperBudgets } from './protocols/paper.ts';
import { budgetTokens } from './tokens.ts';

const CONFIGURED: PaperBudgets = { contextTokens: 24000, codeContextTokens: 12000, documentChars: 4000 };

describe('replyTokens', () => {
  it('keeps maxTokens when it fits in a quarter of the window, else the quarter', () => {
    expect(replyTokens(4096, 12000)).toBe(1024);
    expect(replyTokens(40960, 2000)).toBe(2000);
    expect(replyTokens(8192)).toBe(2048);
  });
});

describe('fitPaperBudgets', () => {
  it('leaves the budgets alone when no model has a window (remote models)', () => {
    expect(fitPaperBudgets(CONFIGURED, undefined)).toEqual({ budgets: CONFIGURED });
  });

  it('cuts the orchestrator’s context to what the window leaves after the tool list and the reply', () => {
    const fit = fitPaperBudgets(CONFIGURED, { label: 'Qwen3 4B', contextWindow: 4096, maxTokens: 12000, fixedPromptTokens: 900 });
    expect(fit.orchestratorMaxTokens).toBe(1024);
    expect(fit.budgets.contextTokens).toBe(4096 - 1024 - 900 - 64);
    expect(fit.budgets.windowTokens).toBe(fit.budgets.contextTokens);
    expect(fit.budgets.codeContextTokens).toBe(Math.floor(fit.budgets.contextTokens / 2));
  });
});

describe('fitExpertBudgets', () => {
  const GPT5 = { documentChars: null, codeContextTokens: 40000, contextTokens: 120000 };

  it('cuts each local expert’s context to its own window, its code part within it', () => {
    expect(fitExpertBudgets(GPT5, { label: 'Qwen3 0.6B', contextWindow: 4096 })).toEqual({
      documentChars: null,
      contextTokens: 4096 - 1024 - EXPERT_INSTRUCTION_TOKENS,
      codeContextTokens: 4096 - 1024 - EXPERT_INSTRUCTION_TOKENS,
    });
    const roomy = { documentChars: 1000, codeContextTokens: 1000, contextTokens: 2000 };
    expect(fitExpertBudgets(roomy, { label: 'Qwen3 1.7B', contextWindow: 8192, maxTokens: 1000 })).toEqual(roomy);
  });

  it('refuses a window too small for an expert’s prompt and reply', () => {
    expect(() => fitExpertBudgets(GPT5, { label: 'Qwen3 0.6B', contextWindow: 512 })).toThrow(
      /Qwen3 0\.6B is loaded with a 512-token context window, too small/,
    );
  });

  it('refuses a window that leaves no room for the task, saying what to do', () => {
    const tooSmall = () => fitPaperBudgets(CONFIGURED, { label: 'Qwen3 8B', contextWindow: 1024, maxTokens: 12000, fixedPromptTokens: 600 });
    expect(tooSmall).toThrow(ContextWindowTooSmallError);
    expect(tooSmall).toThrow(/Qwen3 8B is loaded with a 1,024-token context window.*Load it with a larger context window/);
  });

  it('never builds an orchestrator prompt that, with its reply, overflows the window', () => {
    const text = fc.string({ unit: 'binary', maxLength: 6000 });
    fc.assert(
      fc.property(
        fc.integer({ min: 2048, max: 40960 }),
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 1, max: 20000 }),
        fc.string({ maxLength: 600 }),
        fc.array(text, { maxLength: 8 }),
        fc.array(fc.record({ code: text, output: text }), { maxLength: 6 }),
        fc.constantFrom('hle' as const, 'frames' as const),
        (contextWindow, fixedPromptTokens, maxTokens, problem, documents, codeRuns, variant) => {
          const fit = fitPaperBudgets(CONFIGURED, { label: 'm', contextWindow, maxTokens, fixedPromptTokens });
          const context = buildOrchestratorContext(
            problem,
            documents.map((doc, i) => ({ id: String(i), title: '', text: doc })),
            codeRuns,
            fit.budgets,
            variant,
          );
          const prompt = budgetTokens(`Problem: ${problem}\n\n${context}\n\nChoose an appropriate tool.'`);
          expect(prompt + fixedPromptTokens + (fit.orchestratorMaxTokens ?? 0)).toBeLessThanOrEqual(contextWindow);
        },
      ),
    );
  });
});
