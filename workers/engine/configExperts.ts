// Which experts a config's run uses, without loading the schema library (the first screen
// imports it). Types come from config.ts; nothing here runs zod.

import { CALL_EXPERT_TOOL } from './configBasics.ts';
import type { ExpertConfig, OrchestraConfig } from './config.ts';
import { PAPER_EXPERTS_PRESET } from './presets.ts';

/** The experts per alias, with a preset resolved. */
export function resolveExperts(config: OrchestraConfig): Record<string, ExpertConfig> {
  return config.experts === 'paper' ? PAPER_EXPERTS_PRESET : config.experts;
}

/** The experts the configured protocol uses: `call_expert` aliases for function calling, the
 * paper's tools otherwise. Only these are called (and priced for the counterfactual). */
export function protocolExperts(config: OrchestraConfig): Array<[alias: string, expert: ExpertConfig]> {
  return Object.entries(resolveExperts(config)).filter(
    ([, expert]) => (expert.tool === CALL_EXPERT_TOOL) === (config.protocol === 'function-calling'),
  );
}
