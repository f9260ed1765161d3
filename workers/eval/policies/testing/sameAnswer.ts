// A test-only policy kind, added the way every kind is (docs/evaluation.md, "Policies"): this
// folder and one line in a registry; registry.test.ts lists it beside the real ones. It answers
// every question task with one fixed answer through the direct protocol, with no model call: the
// "model" is a stub that writes `\boxed{<answer>}`. Production code never imports it.

import type { PaperVariant } from '../../../engine/protocols/expertFamilies.ts';
import type { ChatModel } from '../../../engine/types.ts';
import { PolicyError, resolvePreferenceOf, runOf, type PolicyKind } from '../../policy.ts';
import { createDirectAnswerProtocol } from '../alone/direct.ts';

export const SAME_ANSWER_MODEL = 'same-answer';

function sameAnswerModel(answer: string): ChatModel {
  return {
    model: SAME_ANSWER_MODEL,
    label: `same-answer:${answer}`,
    supportsServerTools: false,
    complete: async () => ({ content: `\\boxed{${answer}}`, finishReason: 'stop', latencyMs: 0, usage: { promptTokens: 1, completionTokens: 1 } }),
  };
}

export const sameAnswerPolicy: PolicyKind = {
  kind: 'same-answer',
  forms: 'same-answer=<answer>',
  runsIn: 'both',
  parse(name) {
    if (!name.startsWith('same-answer=')) return undefined;
    const answer = name.slice('same-answer='.length);
    if (answer === '') throw new PolicyError(`"${name}": write same-answer=<answer>.`);
    return { name, kind: 'same-answer', model: answer };
  },
  create(spec, context) {
    const answer = spec.model ?? '';
    const variant: PaperVariant = context.config.paper.variant;
    const config = { ...context.config, preferenceInstruction: false };
    return {
      name: spec.name,
      kind: 'same-answer',
      label: `always "${answer}"`,
      model: SAME_ANSWER_MODEL,
      preference: resolvePreferenceOf(config.preference),
      prepare(task) {
        if (task.domain !== undefined) throw new PolicyError(`"${spec.name}" answers questions only; task "${task.id}" runs in a domain.`);
        const base = context.runs.prepare(config);
        return {
          run: {
            ...runOf(base),
            pricing: { ...base.pricing, models: { ...base.pricing.models, [SAME_ANSWER_MODEL]: { inputPerM: 0, outputPerM: 0 } } },
            protocol: createDirectAnswerProtocol('boxed', variant),
            orchestrator: { model: sameAnswerModel(answer), toolMode: 'prompt' },
          },
          expertTools: new Set(),
        };
      },
    };
  },
};
