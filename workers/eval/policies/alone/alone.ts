// An expert answering alone, as in the paper's tables: `strongest` (the priciest answering expert)
// and `cheapest` (the least pricey), one call with the paper's answer prompt for a question, or
// the expert as the agent over a domain's tools (no orchestrator, no other experts).

import { CALL_EXPERT_TOOL, type ExpertConfig, type OrchestraConfig } from '../../../engine/config.ts';
import { resolveExperts } from '../../../engine/configExperts.ts';
import type { PreparedRun } from '../../../engine/preparedRun.ts';
import { lookupPrice } from '../../../engine/pricing.ts';
import { referenceAnswerStyle } from '../../../engine/protocols/expertFamilies.ts';
import { DOMAIN_EXPERT_TOOLS, domainOf, PolicyError, resolvePreferenceOf, runOf } from '../../policy.ts';
import type { Policy, PolicyContext, PolicyKind, PolicySpec } from '../../policy.ts';
import { createDirectAnswerProtocol } from './direct.ts';

/** The experts that answer (the paper's `answer` aliases, `call_expert` ones), each model once. */
function answeringExperts(config: OrchestraConfig): Array<[alias: string, expert: ExpertConfig]> {
  const seen = new Set<string>();
  return Object.entries(resolveExperts(config)).filter(([, expert]) => {
    if (expert.tool !== 'answer' && expert.tool !== CALL_EXPERT_TOOL) return false;
    const key = `${expert.provider}\u0000${expert.model}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The priciest or least pricey answering expert by its price per million tokens (input plus
 * output, as the counterfactual picks the strongest); the first in the config among equals. */
export function pickExpert(config: OrchestraConfig, which: 'strongest' | 'cheapest', pricing: PreparedRun['pricing']): [string, ExpertConfig] {
  let best: { entry: [string, ExpertConfig]; perM: number } | undefined;
  for (const entry of answeringExperts(config)) {
    const price = lookupPrice(pricing, entry[1].model);
    if (!price) continue;
    const perM = price.inputPerM + price.outputPerM;
    if (!best || (which === 'strongest' ? perM > best.perM : perM < best.perM)) best = { entry, perM };
  }
  if (!best) {
    throw new PolicyError(`The "${which}" policy needs an answering expert (an "answer" or "call_expert" alias) with a known price; the configuration has none.`);
  }
  return best.entry;
}

/** An expert answering alone: one call with the paper's answer prompt for a question, or the
 * expert as the agent over a domain's tools (no orchestrator, no other experts). */
function alonePolicy(spec: PolicySpec, context: PolicyContext): Policy {
  const config: OrchestraConfig = { ...context.config, preferenceInstruction: false };
  // Prepared once here so a configuration the policy cannot run is refused before anything runs.
  const [alias, expert] = pickExpert(config, spec.kind as 'strongest' | 'cheapest', context.runs.prepare(config).pricing);
  const asAgent: OrchestraConfig = {
    ...config,
    orchestrator: { ...config.orchestrator, provider: expert.provider, model: expert.model, toolMode: 'server', temperature: expert.temperature ?? config.orchestrator.temperature, ...(expert.maxTokens === undefined ? {} : { maxTokens: expert.maxTokens }) },
  };
  const answerStyle = expert.answerStyle ?? referenceAnswerStyle(expert.model);
  const direct = createDirectAnswerProtocol(answerStyle, config.paper.variant);
  return {
    name: spec.name,
    kind: spec.kind,
    label: `${spec.kind} expert alone: ${expert.model} (${alias})`,
    model: expert.model,
    preference: resolvePreferenceOf(config.preference),
    prepare(task) {
      if (task.domain === undefined) {
        const model = context.runs.model(config, expert.provider, expert.model);
        return {
          run: {
            ...runOf(context.runs.prepare(config)),
            protocol: direct,
            orchestrator: { model, toolMode: 'prompt', temperature: expert.temperature, maxTokens: expert.maxTokens },
          },
          expertTools: new Set(),
        };
      }
      const domain = domainOf(context, task);
      const session = domain.newSession();
      const prepared = context.runs.prepare(asAgent, { domain: { system: domain.domain.policy, tools: session.tools, experts: false } });
      return { run: runOf(prepared), expertTools: DOMAIN_EXPERT_TOOLS, session };
    },
  };
}

function aloneKind(kind: 'strongest' | 'cheapest'): PolicyKind {
  return {
    kind,
    forms: kind,
    runsIn: 'both',
    parse: (name) => (name === kind ? { name, kind } : undefined),
    create: alonePolicy,
  };
}

export const strongestPolicy = aloneKind('strongest');
export const cheapestPolicy = aloneKind('cheapest');
