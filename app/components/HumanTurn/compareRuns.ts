// "You against the orchestrator": two runs of one task side by side, scored with the paper's
// reward under the current preference (workers/engine/reward.ts, a group of two), and each term
// said in words, so a class can see why the cheaper or the faster route won.

import { formatSeconds, formatUsd } from '../../format.ts';
import type { PreferenceVector } from '../../../workers/engine/preferences.ts';
import { computeGroupReward, type RolloutFeatures } from '../../../workers/engine/reward.ts';
import { HUMAN_ORCHESTRATOR_MODEL } from '../../../workers/engine/events.ts';
import type { RunView } from '../../state/runView.ts';

export interface RouteStep {
  step: number;
  tool: string;
  alias?: string;
}

/** The calls the orchestrator (or the person) made, one per step, in order. */
export function routeOf(run: RunView): RouteStep[] {
  return run.steps.flatMap((step) =>
    step.callIds.map((callId) => {
      const call = run.calls[callId];
      return { step: step.step, tool: call?.name ?? '?', ...(call?.alias ? { alias: call.alias } : {}) };
    }),
  );
}

/** Whether `answer` states `reference` (case, spacing and punctuation aside). */
export function statesAnswer(answer: string | null | undefined, reference: string): boolean {
  // A point stays only inside a number (558.5), so "Helsinki." still states "Helsinki".
  const plain = (text: string) =>
    text
      .toLowerCase()
      .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
      .replace(/[^\p{L}\p{N}.]+/gu, ' ')
      .trim();
  return answer != null && plain(reference) !== '' && ` ${plain(answer)} `.includes(` ${plain(reference)} `);
}

export interface Contender {
  run: RunView;
  correct: boolean;
}

export interface Comparison {
  /** The reward of each, in the order given (you, then the orchestrator). */
  rewards: [number, number];
  /** One sentence per feature of the reward. */
  terms: string[];
}

const NAMES = ['you', 'the orchestrator'] as const;

/** A person's thinking time in a run they orchestrated: their turns' time, as the ledger has it. */
export function thinkingMs(run: RunView): number {
  return (run.ledger ?? []).reduce((sum, entry) => sum + (entry.kind === 'orchestrator' && entry.model === HUMAN_ORCHESTRATOR_MODEL ? entry.latencyMs : 0), 0);
}

/** The time the reward's latency term counts: the run's, less a person's thinking (the tools' and
 * models' time only), so a person is not scored on how long they took to read the menu. */
export function scoredMs(run: RunView): number {
  return Math.max(0, (run.totals?.latencyMs ?? run.elapsedMs) - thinkingMs(run));
}

function features({ run, correct }: Contender): RolloutFeatures {
  return {
    correct,
    costUsd: run.totals?.costUsd ?? run.totalUsd,
    latencyMs: scoredMs(run),
    toolCounts: run.totals?.toolCounts.aliases ?? {},
  };
}

/** The paper's reward of the two runs under `preference`, each term explained in words. */
export function compareRuns(you: Contender, orchestrator: Contender, preference: PreferenceVector): Comparison {
  const rollouts = [features(you), features(orchestrator)];
  const group = computeGroupReward(rollouts, preference);
  const [mine, theirs] = group.normalized;
  const terms: string[] = [];
  const weightOf = (name: string) => {
    if (name === 'outcome' || name === 'cost' || name === 'latency') return preference[name];
    return Math.abs(preference.tools[name] ?? 0);
  };
  const shown = (name: string, i: number): string => {
    const r = rollouts[i]!;
    if (name === 'cost') return formatUsd(r.costUsd);
    if (name === 'latency') return formatSeconds(r.latencyMs);
    if (name === 'outcome') return r.correct ? 'right' : 'wrong';
    return `${r.toolCounts[name] ?? 0} call${(r.toolCounts[name] ?? 0) === 1 ? '' : 's'}`;
  };
  const describe = (name: string) => (name === 'outcome' ? 'being right' : name === 'cost' ? 'cost' : name === 'latency' ? 'time' : `calls to ${name}`);

  for (const name of ['outcome', 'cost', 'latency', ...Object.keys(preference.tools).filter((tool) => preference.tools[tool] !== 0).sort()]) {
    const weight = weightOf(name);
    if (weight === 0) continue;
    const head = `${describe(name)[0]!.toUpperCase()}${describe(name).slice(1)} counted ${round(weight)} of the reward`;
    if (group.skippedFeatures.includes(name) || mine?.[name] === undefined) {
      terms.push(`${head}; you were level (${shown(name, 0)} each), so it told you apart in nothing.`);
      continue;
    }
    const better = (mine[name] ?? 0) > (theirs?.[name] ?? 0) ? 0 : 1;
    const what =
      name === 'outcome'
        ? `${NAMES[better]} ${better === 0 ? 'were' : 'was'} right and the other wrong`
        : name === 'cost'
          ? `${NAMES[1 - better]} ${better === 0 ? 'was' : 'were'} the dearer of the two (${shown(name, 1 - better)} against ${shown(name, better)})`
          : name === 'latency'
            ? `${NAMES[1 - better]} ${better === 0 ? 'was' : 'were'} the slower (${shown(name, 1 - better)} against ${shown(name, better)})`
            : `${NAMES[better]} made ${(preference.tools[name] ?? 0) < 0 ? 'fewer' : 'more'} (${shown(name, better)} against ${shown(name, 1 - better)})`;
    terms.push(`${head}; ${what}, so it gave ${NAMES[better]} ${round(weight)} and ${NAMES[1 - better]} 0.`);
  }
  const thinking = thinkingMs(you.run);
  if (thinking > 0 && preference.latency > 0) {
    terms.push(`Your thinking time (${formatSeconds(thinking)}) is shown apart and not scored: your time above is the tools’ and models’ only (${formatSeconds(scoredMs(you.run))}).`);
  }
  if (!you.correct || !orchestrator.correct) {
    const wrong = [you, orchestrator].flatMap((c, i) => (c.correct ? [] : [NAMES[i]]));
    const verb = wrong.length === 1 && wrong[0] === 'the orchestrator' ? 'gets' : 'get';
    terms.push(`A wrong answer scores 0 whatever it cost: ${wrong.join(' and ')} ${verb} 0.`);
  }
  return { rewards: [group.rewards[0] ?? 0, group.rewards[1] ?? 0], terms };
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}
