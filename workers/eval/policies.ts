// The policies a suite is run under, as in the paper's tables (docs/evaluation.md): each kind is a
// folder under policies/, listed in policies/registry.ts. A policy turns a task into a ready run
// through the same composition root as every other run (the host's prepareRun, handed in as a
// RunFactory), so a policy means the same in the browser and the CLI.
//
// Policy names (what --policy takes and results are keyed by) are read by the kinds in turn:
//   orchestrator, orchestrator@<preset>, orchestrator@cost=<w>   policies/orchestrator/
//   strongest | cheapest                                          policies/alone/
//   random                                                        policies/random/
//   qwen3=<provider>/<model>                                      policies/qwen3/

import { PolicyError, PRESET_NAMES, type Policy, type PolicyContext, type PolicyKind, type PolicySpec } from './policy.ts';
import { POLICY_KINDS } from './policies/registry.ts';

/** Reads a policy name; throws a PolicyError that lists the forms. */
export function parsePolicy(text: string, kinds: readonly PolicyKind[] = POLICY_KINDS): PolicySpec {
  const name = text.trim();
  for (const kind of kinds) {
    const spec = kind.parse(name);
    if (spec) return spec;
  }
  throw new PolicyError(`Unknown policy "${name}". Policies: ${kinds.map((kind) => kind.forms).join(', ')}.`);
}

/** The policies of a preference sweep: "presets" (the four presets) or "cost=w1,w2,…" (a grid
 * over the cost weight). */
export function sweepPolicies(sweep: string): PolicySpec[] {
  const text = sweep.trim();
  if (text === 'presets') return PRESET_NAMES.map((preset) => parsePolicy(`orchestrator@${preset}`));
  if (text.startsWith('cost=')) {
    const weights = text.slice('cost='.length).split(',').map((w) => w.trim());
    if (weights.length === 0 || weights.some((w) => w === '')) throw new PolicyError('A cost sweep lists weights: cost=0,0.25,0.5,0.75,1.');
    return weights.map((w) => parsePolicy(`orchestrator@cost=${w}`));
  }
  throw new PolicyError(`A sweep is "presets" or "cost=<w1>,<w2>,…", got "${sweep}".`);
}

/** Builds the policies; throws a PolicyError for one the configuration cannot run. */
export function createPolicies(specs: readonly PolicySpec[], context: PolicyContext, kinds: readonly PolicyKind[] = POLICY_KINDS): Policy[] {
  const names = new Set<string>();
  return specs.map((spec) => {
    if (names.has(spec.name)) throw new PolicyError(`The policy "${spec.name}" is named twice.`);
    names.add(spec.name);
    const kind = kinds.find((candidate) => candidate.kind === spec.kind);
    if (!kind) throw new PolicyError(`The policy "${spec.name}" is of the kind "${spec.kind}", which is not known here.`);
    return kind.create(spec, context);
  });
}
