// The paper's evaluation mapping (alias → model) with the capability sentences the reference
// code lists for each alias. GPT-5 models go to the provider named `openai`; the open models to
// the provider named `open-models` (any OpenAI-compatible host serving them). Temperatures and
// reply lengths are the ones evaluation/eval_hle.py passes each model (`max_length`).

/** An expert as the preset sets it. config.ts uses these as its ExpertConfig (the compiler checks
 * they fit), so this file needs nothing from config.ts and the two import in one direction only. */
export interface PresetExpert {
  tool: 'search' | 'enhance_reasoning' | 'answer';
  provider: string;
  model: string;
  temperature: number;
  maxTokens: number;
  description: string;
  latencySeconds: number;
}

const GPT5 = { provider: 'openai', model: 'gpt-5', temperature: 1, maxTokens: 40000 } as const;
const GPT5_MINI = { provider: 'openai', model: 'gpt-5-mini', temperature: 1, maxTokens: 40000 } as const;
const open = (model: string, maxTokens: number) => ({ provider: 'open-models', model, temperature: 0.2, maxTokens }) as const;

export const PAPER_EXPERTS_PRESET: Readonly<Record<string, PresetExpert>> = {
  'reasoner-1': {
    tool: 'enhance_reasoning',
    ...GPT5,
    description: 'demonstrates strong understanding and reasoning capabilities, which usually provides reliable insights.',
    latencySeconds: 31,
  },
  'reasoner-2': {
    tool: 'enhance_reasoning',
    ...GPT5_MINI,
    description: 'can analyze some problems, but could hallucinate and make mistakes in difficult scenarios.',
    latencySeconds: 25,
  },
  'reasoner-3': {
    tool: 'enhance_reasoning',
    ...open('Qwen/Qwen2.5-Coder-32B-Instruct', 8000),
    description: 'can reason over the context and reveal the logic.',
    latencySeconds: 9,
  },
  'answer-1': {
    tool: 'answer',
    ...GPT5,
    description:
      'exhibits strong functional calling abilities and performs excellent in most domains (math, physics, social science, etc.).',
    latencySeconds: 96,
  },
  'answer-2': {
    tool: 'answer',
    ...GPT5_MINI,
    description:
      'presents reasonable solutions in some tasks, but could get stuck in complex reasoning and specific domain knowledge.',
    latencySeconds: 27,
  },
  'answer-3': {
    tool: 'answer',
    ...open('meta-llama/Llama-3.3-70B-Instruct', 40000),
    description:
      'could solve easy to medium tasks, but is not capable of tackling tasks with strong expertise and long-horizon planning.',
    latencySeconds: 15,
  },
  'answer-4': {
    tool: 'answer',
    ...open('Qwen/Qwen3-32B', 8000),
    description:
      'demonstrates basic capability: it can understand basic instructions, do simple steps, yet it sometimes misreads details, mixes concepts.',
    latencySeconds: 11,
  },
  'answer-math-1': {
    tool: 'answer',
    ...open('Qwen/Qwen2.5-Math-72B-Instruct', 2000),
    description: 'can solve moderate (middle school) math problem, though it becomes incapable in more difficult tasks.',
    latencySeconds: 13,
  },
  'answer-math-2': {
    tool: 'answer',
    ...open('Qwen/Qwen2.5-Math-7B-Instruct', 2000),
    description:
      'can follow simple instructions and perform easy (primary-level) math problems, but struggle in more complex logic.',
    latencySeconds: 9,
  },
  'search-1': {
    tool: 'search',
    ...GPT5,
    description: 'usually identifies the missing information and can write concise queries for effective search.',
    latencySeconds: 22,
  },
  'search-2': {
    tool: 'search',
    ...GPT5_MINI,
    description: 'can reason over the context and write queries to find the missing content for answering questions.',
    latencySeconds: 16,
  },
  'search-3': {
    tool: 'search',
    ...open('Qwen/Qwen3-32B', 8000),
    description: 'can also write queries to find information.',
    latencySeconds: 8,
  },
};
