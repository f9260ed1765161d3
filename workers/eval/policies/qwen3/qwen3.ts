// A prompted Qwen3 as orchestrator: qwen3=<provider>/<model>, that model with the tools rendered
// into its prompt, under the config's preference.

import { configuredPolicy, describePreference, PolicyError, type PolicyKind } from '../../policy.ts';

export const qwen3Policy: PolicyKind = {
  kind: 'qwen3',
  forms: 'qwen3=<provider>/<model>',
  runsIn: 'both',
  parse(name) {
    if (!name.startsWith('qwen3=')) return undefined;
    const target = name.slice('qwen3='.length);
    const slash = target.indexOf('/');
    if (slash <= 0 || slash === target.length - 1) throw new PolicyError(`"${name}": write qwen3=<provider>/<model>, such as qwen3=ollama/qwen3:8b.`);
    return { name, kind: 'qwen3', provider: target.slice(0, slash), model: target.slice(slash + 1) };
  },
  create(spec, context) {
    const { config } = context;
    const provider = spec.provider ?? '';
    if (!Object.hasOwn(config.providers, provider)) {
      throw new PolicyError(`"${spec.name}" names the provider "${provider}", which is not in the configuration's "providers" (known: ${Object.keys(config.providers).join(', ')}).`);
    }
    const model = spec.model ?? '';
    return configuredPolicy(spec.name, 'qwen3', `prompted ${model} as orchestrator (${describePreference(config.preference)})`, {
      ...config,
      orchestrator: { ...config.orchestrator, provider, model, toolMode: 'prompt' },
    }, context);
  },
};
