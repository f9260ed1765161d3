// The paper-protocol run the engine and evaluation benchmarks share: experts that answer at once
// (search-2, answer-2, reasoner-2), shown whole documents within Qwen3's token budgets, and a
// Python that must never be called.

import type { PythonRunner, Retriever } from '../workers/engine/ports.ts';
import type { Protocol } from '../workers/engine/protocol.ts';
import type { ExpertBudgets } from '../workers/engine/protocols/expertFamilies.ts';
import { createPaperProtocol, type PaperExpert } from '../workers/engine/protocols/paper.ts';
import type { ChatModel } from '../workers/engine/types.ts';

/** What every expert here is shown: whole documents, the Qwen3 token budgets. */
const EXPERT_BUDGETS: ExpertBudgets = { documentChars: null, codeContextTokens: 12000, contextTokens: 24000 };

const unusedPython: PythonRunner = {
  run: () => Promise.reject(new Error('not used in this benchmark')),
  dispose: () => Promise.resolve(),
};

/** The three experts, one per paper tool, on the given models. */
export function benchPaperExperts(models: { search: ChatModel; answer: ChatModel; reasoner: ChatModel }): PaperExpert[] {
  const expert = (alias: string, tool: PaperExpert['tool'], model: ChatModel, description: string): PaperExpert =>
    ({ alias, tool, model, description, answerStyle: 'tagged', budgets: EXPERT_BUDGETS });
  return [
    expert('search-2', 'search', models.search, 'writes queries.'),
    expert('answer-2', 'answer', models.answer, 'answers.'),
    expert('reasoner-2', 'enhance_reasoning', models.reasoner, 'reasons.'),
  ];
}

/** The HLE paper protocol over those experts and `retriever` (two documents a search). */
export function benchPaperProtocol(experts: PaperExpert[], retriever: Retriever): Protocol {
  return createPaperProtocol({
    experts,
    retriever,
    searchUsdPerCall: 0,
    python: unusedPython,
    variant: 'hle',
    searchTopK: 2,
    codeTimeoutMs: 60_000,
    budgets: { contextTokens: 24_000, codeContextTokens: 12_000, documentChars: 4000 },
  });
}
