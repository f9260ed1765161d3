// The configured orchestrator, under the config's preference or another one:
//   orchestrator                 the config's orchestrator and preference
//   orchestrator@<preset>        … under a preset: cheapest, balanced, best-answer, fastest
//   orchestrator@cost=<w>        … under the vector outcome 1−w, cost w, latency 0 (a sweep's grid)

import { costWeightPreference, type PreferencePresetName } from '../../../engine/preferences.ts';
import { configuredPolicy, describePreference, parseWeight, PolicyError, PRESET_NAMES, type PolicyKind } from '../../policy.ts';

export const orchestratorPolicy: PolicyKind = {
  kind: 'orchestrator',
  forms: 'orchestrator, orchestrator@<preset> (cheapest, balanced, best-answer, fastest), orchestrator@cost=<0..1>',
  runsIn: 'both',
  parse(name) {
    if (name === 'orchestrator') return { name, kind: 'orchestrator' };
    if (!name.startsWith('orchestrator@')) return undefined;
    const setting = name.slice('orchestrator@'.length);
    if ((PRESET_NAMES as string[]).includes(setting)) return { name, kind: 'orchestrator', preference: setting as PreferencePresetName };
    if (setting.startsWith('cost=')) {
      const w = parseWeight(setting.slice('cost='.length), 'The cost weight');
      return { name: `orchestrator@cost=${w}`, kind: 'orchestrator', preference: costWeightPreference(w) };
    }
    throw new PolicyError(`"${name}": after "orchestrator@" give a preset (${PRESET_NAMES.join(', ')}) or cost=<0..1>.`);
  },
  create(spec, context) {
    const { config } = context;
    const preference = spec.preference ?? config.preference;
    return configuredPolicy(
      spec.name,
      'orchestrator',
      `orchestrator ${config.orchestrator.model} (${describePreference(preference)})`,
      { ...config, preference },
      context,
    );
  },
};
