// The random baseline as a policy: tools and aliases picked at random over the config's own tools
// and aliases, seeded by (seed, policy, task, rollout). The router itself is random.ts.

import { CALL_EXPERT_TOOL, type ExpertConfig, type OrchestraConfig } from '../../../engine/config.ts';
import { protocolExperts, resolveExperts } from '../../../engine/configExperts.ts';
import type { PreparedRun } from '../../../engine/preparedRun.ts';
import { DOMAIN_EXPERT_TOOLS, domainOf, PAPER_EXPERT_TOOLS, resolvePreferenceOf, runOf } from '../../policy.ts';
import type { Policy, PolicyContext, PolicyKind, PolicySpec } from '../../policy.ts';
import { createRandomOrchestrator, RANDOM_POLICY_MODEL } from './random.ts';

function aliasesByTool(experts: Array<[string, ExpertConfig]>): Record<string, string[]> {
  const byTool: Record<string, string[]> = {};
  for (const [alias, expert] of experts) (byTool[expert.tool] ??= []).push(alias);
  return byTool;
}

/** Random routes over the config's own tools and aliases, seeded by (seed, policy, task, rollout). */
function randomPolicy(spec: PolicySpec, context: PolicyContext): Policy {
  const config: OrchestraConfig = { ...context.config, preferenceInstruction: false };
  const free = (prepared: PreparedRun): PreparedRun['pricing'] => ({
    ...prepared.pricing,
    models: { ...prepared.pricing.models, [RANDOM_POLICY_MODEL]: { inputPerM: 0, outputPerM: 0 } },
  });
  const callExperts = Object.entries(resolveExperts(config)).filter(([, expert]) => expert.tool === CALL_EXPERT_TOOL);
  return {
    name: spec.name,
    kind: 'random',
    label: `random routes (seed "${context.seed}")`,
    model: RANDOM_POLICY_MODEL,
    preference: resolvePreferenceOf(config.preference),
    prepare(task, rollout) {
      const seed = `${context.seed}\u0000${spec.name}\u0000${task.id}\u0000${rollout}`;
      if (task.domain === undefined) {
        const plain = context.runs.prepare(config);
        const orchestrator = createRandomOrchestrator({ seed, task: task.task, aliases: aliasesByTool(protocolExperts(config)) });
        return {
          run: { ...runOf(plain), pricing: free(plain), orchestrator: { model: orchestrator, toolMode: 'server' } },
          expertTools: PAPER_EXPERT_TOOLS(config),
        };
      }
      const domain = domainOf(context, task);
      const session = domain.newSession();
      const prepared = context.runs.prepare(config, { domain: { system: domain.domain.policy, tools: session.tools } });
      const orchestrator = createRandomOrchestrator({ seed, task: task.task, aliases: aliasesByTool(callExperts) });
      return {
        run: { ...runOf(prepared), pricing: free(prepared), orchestrator: { model: orchestrator, toolMode: 'server' } },
        expertTools: DOMAIN_EXPERT_TOOLS,
        session,
      };
    },
  };
}

export const randomPolicyKind: PolicyKind = {
  kind: 'random',
  forms: 'random',
  runsIn: 'both',
  parse: (name) => (name === 'random' ? { name, kind: 'random' } : undefined),
  create: randomPolicy,
};
