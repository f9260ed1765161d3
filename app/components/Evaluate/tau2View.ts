// The Evaluate tab's τ²-Bench and ToolScale parts, pure and tested apart: who can play the
// simulated user, and τ²'s figures per policy (pass^1…pass^K, each criterion's passed / failed /
// not graded, what the simulated users cost). The figures are read from the report
// summarizeEval makes (workers/eval/results.ts), the one the CLI prints from (cli/evalOutput.ts).

import { formatCount, formatPercent, formatUsd } from '../../format.ts';
import { PAPER_EXPERTS_PRESET } from '../../../workers/engine/presets.ts';
import type { CriterionShare, PolicySummary } from '../../../workers/eval/results.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';

/** The scripted user: no model, it states the task's reason, acts on request and says goodbye. */
export const SCRIPTED_USER = 'scripted';

export interface UserChoice {
  /** `scripted`, or an expert alias (the CLI's `--user`). */
  value: string;
  label: string;
}

/** Who can play a τ² suite's user: the scripted user, or the model behind any expert alias of the
 * configuration (as `orchestra eval --user <alias>`). */
export function simulatedUserChoices(config: Pick<ConfigDraft, 'experts'>): UserChoice[] {
  const experts = config.experts === 'paper' ? PAPER_EXPERTS_PRESET : (config.experts ?? {});
  return [
    { value: SCRIPTED_USER, label: 'Scripted user (no model, $0)' },
    ...Object.entries(experts).map(([alias, expert]) => ({ value: alias, label: `${alias}: ${expert.model}` })),
  ];
}

/** Why the chosen user cannot play, or null. */
export function simulatedUserProblem(config: Pick<ConfigDraft, 'experts'>, user: string): string | null {
  if (simulatedUserChoices(config).some((choice) => choice.value === user)) return null;
  return `The simulated user "${user}" is not an expert of your configuration any more: pick another under the suite.`;
}

/** τ²'s criteria in the order τ² lists them; any other a report holds follows. */
const CRITERIA_ORDER = ['DB', 'ENV_ASSERTION', 'ACTION', 'COMMUNICATE', 'NL_ASSERTION'];

/** One criterion over a policy's rollouts: "75.0% (3/4)", with those not graded said apart
 * ("not graded (4)" when none was: NL_ASSERTION without a judge). */
export function criterionCell(share: CriterionShare | undefined): string {
  if (!share) return '—';
  const graded = share.passed + share.failed;
  if (graded === 0) return `not graded (${share.notGraded})`;
  const notGraded = share.notGraded > 0 ? ` · ${share.notGraded} not graded` : '';
  return `${formatPercent(share.passed / graded)} (${share.passed}/${graded})${notGraded}`;
}

export interface Tau2Row {
  name: string;
  /** pass^k for each k of Tau2Figures.ks, as percentages; "—" past a policy's own K. */
  passHatK: string[];
  /** One cell per criterion of Tau2Figures.criteria. */
  criteria: string[];
  /** The simulated users' cost, kept out of the reward's cost; "—" when none was charged. */
  userCost: string;
}

export interface Tau2Figures {
  /** The largest K any policy has. */
  k: number;
  /** The k of each pass^k column: all of 1…K, or for a larger K (a results file of 72,000
   * rollouts of one task has 72,000) the first SHOWN_PASS_K - 1 and K itself. */
  ks: number[];
  criteria: string[];
  rows: Tau2Row[];
}

/** The most pass^k columns the table draws. τ² reports pass^1 to pass^4; a table 18,000 columns
 * wide took seconds to draw. */
export const SHOWN_PASS_K = 8;

/** The k of the columns for a largest K: every one up to SHOWN_PASS_K, else the first ones and K. */
export function shownKs(k: number): number[] {
  const first = k <= SHOWN_PASS_K ? k : SHOWN_PASS_K - 1;
  const ks = Array.from({ length: first }, (_, i) => i + 1);
  return k > SHOWN_PASS_K ? [...ks, k] : ks;
}

/** τ²'s figures per policy, or null when no policy was graded by τ²'s criteria. */
export function tau2Figures(policies: readonly PolicySummary[]): Tau2Figures | null {
  const graded = policies.filter((p) => p.criteria !== undefined);
  if (graded.length === 0) return null;
  const names = new Set(graded.flatMap((p) => Object.keys(p.criteria ?? {})));
  const criteria = [...CRITERIA_ORDER.filter((name) => names.has(name)), ...[...names].filter((name) => !CRITERIA_ORDER.includes(name)).sort()];
  const k = graded.reduce((most, p) => Math.max(most, p.passHatK?.length ?? 0), 0);
  const ks = shownKs(k);
  return {
    k,
    ks,
    criteria,
    rows: graded.map((p) => ({
      name: p.name,
      passHatK: ks.map((shown) => {
        const value = p.passHatK?.[shown - 1];
        return value === undefined ? '—' : formatPercent(value);
      }),
      criteria: criteria.map((name) => criterionCell(p.criteria?.[name])),
      userCost: p.userCostUsd === undefined ? '—' : formatUsd(p.userCostUsd),
    })),
  };
}

/** What a τ²-graded policy's headline adds: its pass^K for K of 2 or more ("pass^4 50.0%"). */
export function passHatKHeadline(p: PolicySummary): string {
  const k = p.passHatK?.length ?? 0;
  if (p.criteria === undefined || k < 2) return '';
  return ` · pass^${formatCount(k)} ${formatPercent(p.passHatK?.[k - 1] ?? 0)}`;
}
