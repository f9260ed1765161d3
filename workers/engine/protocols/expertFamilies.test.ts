import { describe, expect, it } from 'vitest';
import { referenceAnswerStyle, referenceExpertBudgets } from './expertFamilies.ts';

describe('the reference’s answer style by model family (eval_hle.py, call_tool)', () => {
  it.each([
    ['Qwen/Qwen3-32B', 'boxed'],
    ['Qwen/Qwen2.5-Math-7B-Instruct', 'boxed'],
    ['gpt-5', 'think-hard'],
    ['openai/gpt-5-mini', 'think-hard'],
    ['claude-opus-4-1', 'think-hard'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'tagged'],
    ['some-other-model', 'tagged'],
  ])('%s → %s', (model, style) => {
    expect(referenceAnswerStyle(model)).toBe(style);
  });
});

describe('the reference’s expert budgets by model family (run_single)', () => {
  it('follows eval_hle.py', () => {
    expect(referenceExpertBudgets('enhance_reasoning', 'Qwen/Qwen2.5-Coder-32B-Instruct', 'hle')).toEqual({ documentChars: 1000, codeContextTokens: 16000, contextTokens: 24000 });
    expect(referenceExpertBudgets('enhance_reasoning', 'gpt-5', 'hle')).toEqual({ documentChars: null, codeContextTokens: 40000, contextTokens: 120000 });
    expect(referenceExpertBudgets('answer', 'Qwen/Qwen2.5-Math-72B-Instruct', 'hle')).toEqual({ documentChars: 1000, codeContextTokens: 1000, contextTokens: 2000 });
    expect(referenceExpertBudgets('answer', 'meta-llama/Llama-3.3-70B-Instruct', 'hle')).toEqual({ documentChars: null, codeContextTokens: 10000, contextTokens: 80000 });
    expect(referenceExpertBudgets('answer', 'Qwen/Qwen3-32B', 'hle')).toEqual({ documentChars: 1000, codeContextTokens: 12000, contextTokens: 24000 });
    expect(referenceExpertBudgets('answer', 'gpt-5-mini', 'hle')).toEqual({ documentChars: null, codeContextTokens: 40000, contextTokens: 120000 });
    expect(referenceExpertBudgets('search', 'Qwen/Qwen3-32B', 'hle')).toEqual({ documentChars: 1000, codeContextTokens: 12000, contextTokens: 24000 });
    expect(referenceExpertBudgets('search', 'gpt-5', 'hle')).toEqual({ documentChars: null, codeContextTokens: 40000, contextTokens: 120000 });
  });

  it('follows eval_frames.py: whole documents for every expert, GPT-5 160,000, Llama 40,000 of code', () => {
    expect(referenceExpertBudgets('enhance_reasoning', 'Qwen/Qwen2.5-Coder-32B-Instruct', 'frames')).toEqual({ documentChars: null, codeContextTokens: 16000, contextTokens: 24000 });
    expect(referenceExpertBudgets('answer', 'gpt-5', 'frames')).toEqual({ documentChars: null, codeContextTokens: 40000, contextTokens: 160000 });
    expect(referenceExpertBudgets('answer', 'meta-llama/Llama-3.3-70B-Instruct', 'frames')).toEqual({ documentChars: null, codeContextTokens: 40000, contextTokens: 80000 });
    expect(referenceExpertBudgets('search', 'Qwen/Qwen3-32B', 'frames')).toEqual({ documentChars: null, codeContextTokens: 12000, contextTokens: 24000 });
  });

  it('gives a model the reference never ran the Qwen3 budgets, and the document cut of the tool’s other branch', () => {
    expect(referenceExpertBudgets('answer', 'Qwen3-1.7B-q4f32_1-MLC', 'hle')).toEqual({ documentChars: 1000, codeContextTokens: 12000, contextTokens: 24000 });
    expect(referenceExpertBudgets('enhance_reasoning', 'mistral-small', 'hle')).toEqual({ documentChars: null, codeContextTokens: 12000, contextTokens: 24000 });
  });
});
