// Grading as τ²-Bench grades (tau2/evaluator/*.py, `evaluate_simulation` with EvaluationType.ALL):
//
//   DB             the conversation's tool calls replayed into a fresh environment (each recorded
//                  result checked), the golden actions into another; their databases' hashes equal
//   ENV_ASSERTION  the task's assertions hold in the replayed environment
//   ACTION         every golden action matches some call (on its compare_args)
//   COMMUNICATE    every communicate_info string is in some agent message (lower case, commas
//                  removed from the message)
//   NL_ASSERTION   a judge model says each assertion holds (τ²'s judge prompt, verbatim)
//
// The reward is the product of the criteria in the task's reward_basis; a conversation ended by
// max_steps or too_many_errors gets 0 unchecked. Each verdict names every criterion and why.
// Two deliberate differences (docs/evaluation.md): a criterion that cannot be graded (no judge
// configured, a judge reply that is not the asked-for JSON) is "not graded" and the reward is
// then unknown, where τ² would count an unreadable judge reply as a pass; and the judge is asked
// only when NL_ASSERTION is in the basis (τ² asks it for every task with assertions).
// Pure TypeScript.

import type { ChatModel } from '../../engine/types.ts';
import { meanPassHatKs, passHatK } from '../../eval/stats.ts';
import { ReplayMismatch, TrajectoryError, type Tau2Environment } from './environment.ts';
import { hasTextContent, toolCallsOf, type Tau2Message, type Tau2ToolCall } from './messages.ts';
import { PyError } from './pyErrors.ts';
import { parsePyJson } from './pyJson.ts';
import { pyEquals, pyRepr, type PyValue } from './pyValues.ts';
import type { Action, RewardType, Tau2Task } from './tasks.ts';

export type TerminationReason = 'user_stop' | 'agent_stop' | 'max_steps' | 'too_many_errors';

export interface CriterionVerdict {
  criterion: RewardType;
  /** Whether the task's reward_basis counts it. */
  counted: boolean;
  /** 1 or 0; null when it could not be graded. */
  reward: number | null;
  /** Why, in words. */
  reason: string;
}

export interface ActionCheck {
  actionId: string;
  name: string;
  requestor: 'assistant' | 'user';
  matched: boolean;
}

export interface Tau2Verdict {
  /** The product over the reward basis; null when a counted criterion was not graded. */
  reward: number | null;
  rewardBasis: RewardType[];
  criteria: CriterionVerdict[];
  /** The hashes τ² compares (sha256 of sorted-key JSON of each database). */
  db?: { match: boolean; goldHash: string; predictedHash: string; goldUserHash: string | null; predictedUserHash: string | null };
  actions?: ActionCheck[];
  communicate?: { info: string; met: boolean }[];
  envAssertions?: { funcName: string; arguments: string; met: boolean }[];
  nlAssertions?: { assertion: string; met: boolean; justification: string }[];
  /** Golden actions that raised (τ² prints these and goes on). */
  goldenErrors?: string[];
  /** Set when the conversation could not be graded at all (a replay mismatch). */
  error?: string;
  note?: string;
}

/** What the grader needs beyond the task and the conversation. */
export interface GradingContext {
  /** A fresh environment of the task's domain (τ²'s environment constructor). */
  newEnvironment(): Tau2Environment;
  /** The judge for NL_ASSERTION; without one the criterion is not graded. */
  judge?: ChatModel;
  signal?: AbortSignal;
}

/** `Action.compare_with_tool_call`. */
export function actionMatches(action: Action, call: Tau2ToolCall): boolean {
  if (action.name !== call.name) return false;
  const keys = action.compareArgs ?? [...call.arguments.keys()];
  if (keys.length === 0) return true;
  const pick = (args: Map<string, PyValue>) => new Map([...args].filter(([k]) => keys.includes(k)));
  return pyEquals(pick(call.arguments), pick(action.arguments));
}

/** `is_successful`: a reward of 1 within 1e-6. */
export const isSuccessful = (reward: number | null): boolean => reward !== null && Math.abs(reward - 1) <= 1e-6;

/** τ²'s pass^k of one task (C(successes, k) / C(trials, k)): the evaluation report's own. */
export { passHatK };

/** The suite's pass^1…pass^K: each task's pass^k, averaged over tasks (K = the fewest trials any
 * task has, as τ²'s metrics cap it). */
export function passHatKs(rewardsByTask: ReadonlyMap<string, readonly (number | null)[]>): number[] {
  return meanPassHatKs([...rewardsByTask.values()].map((rewards) => ({ trials: rewards.length, successes: rewards.filter(isSuccessful).length })));
}

const describeCall = (action: Action) => `${action.name}(${[...action.arguments].map(([k, v]) => `${k}=${pyRepr(v)}`).join(', ')})`;

// eslint-disable-next-line max-lines-per-function -- follows τ²'s evaluator function step by step, so it can be read beside the Python
export async function evaluateConversation(task: Tau2Task, messages: readonly Tau2Message[], termination: TerminationReason, context: GradingContext): Promise<Tau2Verdict> {
  const criteria = task.evaluationCriteria;
  const basis = criteria?.rewardBasis ?? [];
  if (termination === 'max_steps' || termination === 'too_many_errors') {
    return { reward: 0, rewardBasis: basis, criteria: [], note: `The conversation ended prematurely (${termination}): reward 0, nothing checked.` };
  }
  if (!criteria) return { reward: 1, rewardBasis: basis, criteria: [], note: 'The task has no evaluation criteria.' };
  const verdict: Tau2Verdict = { reward: null, rewardBasis: basis, criteria: [] };
  const counted = (c: RewardType) => basis.includes(c);

  // DB and ENV_ASSERTION (τ²'s EnvironmentEvaluator).
  if (criteria.actions === null && criteria.envAssertions === null) {
    verdict.criteria.push({ criterion: 'DB', counted: counted('DB'), reward: 1, reason: 'no expected actions or assertions' });
  } else {
    const initialization = task.initialState?.initializationData ?? null;
    const initActions = task.initialState?.initializationActions ?? null;
    const predicted = context.newEnvironment();
    try {
      predicted.setState(initialization, initActions, messages);
    } catch (error) {
      if (error instanceof ReplayMismatch || error instanceof TrajectoryError || error instanceof PyError) {
        verdict.error = `The conversation cannot be graded: ${error.message}`;
        verdict.criteria.push({ criterion: 'DB', counted: counted('DB'), reward: null, reason: verdict.error });
        return verdict;
      }
      throw error;
    }
    const gold = context.newEnvironment();
    gold.setState(initialization, initActions, []);
    const goldenErrors: string[] = [];
    for (const action of criteria.actions ?? []) {
      try {
        gold.makeToolCall(action.name, action.requestor, action.arguments);
      } catch (error) {
        if (!(error instanceof PyError)) throw error;
        goldenErrors.push(`${describeCall(action)}: ${error.text}`);
      }
    }
    if (goldenErrors.length > 0) verdict.goldenErrors = goldenErrors;
    const [goldHash, predictedHash, goldUserHash, predictedUserHash] = await Promise.all([gold.dbHash(), predicted.dbHash(), gold.userDbHash(), predicted.userDbHash()]);
    const agentMatch = goldHash === predictedHash;
    const userMatch = goldUserHash === predictedUserHash;
    verdict.db = { match: agentMatch && userMatch, goldHash, predictedHash, goldUserHash, predictedUserHash };
    verdict.criteria.push({
      criterion: 'DB',
      counted: counted('DB'),
      reward: agentMatch && userMatch ? 1 : 0,
      reason:
        agentMatch && userMatch
          ? "the final database equals the golden actions' database"
          : `the final ${agentMatch ? "user's device state" : 'database'} differs from the golden actions' (hash ${(agentMatch ? predictedUserHash : predictedHash)?.slice(0, 12)} against ${(agentMatch ? goldUserHash : goldHash)?.slice(0, 12)})`,
    });
    const assertions = criteria.envAssertions ?? [];
    verdict.envAssertions = assertions.map((assertion) => ({
      funcName: assertion.funcName,
      arguments: [...assertion.arguments].map(([k, v]) => `${k}=${pyRepr(v)}`).join(', '),
      met: predicted.runEnvAssertion(assertion),
    }));
    const failed = verdict.envAssertions.filter((a) => !a.met);
    verdict.criteria.push({
      criterion: 'ENV_ASSERTION',
      counted: counted('ENV_ASSERTION'),
      reward: failed.length === 0 ? 1 : 0,
      reason:
        assertions.length === 0
          ? 'no assertions'
          : failed.length === 0
            ? `all ${assertions.length} assertions hold`
            : `not met: ${failed.map((a) => `${a.funcName}(${a.arguments})`).join('; ')}`,
    });
  }

  // ACTION.
  const golden = criteria.actions ?? [];
  if (golden.length === 0) verdict.criteria.push({ criterion: 'ACTION', counted: counted('ACTION'), reward: 1, reason: 'no actions to evaluate' });
  else {
    const calls = toolCallsOf(messages);
    verdict.actions = golden.map((action) => ({ actionId: action.actionId, name: action.name, requestor: action.requestor, matched: calls.some((call) => actionMatches(action, call)) }));
    const missing = golden.filter((_, i) => !verdict.actions![i]!.matched);
    verdict.criteria.push({
      criterion: 'ACTION',
      counted: counted('ACTION'),
      reward: missing.length === 0 ? 1 : 0,
      reason: missing.length === 0 ? `all ${golden.length} expected calls were made` : `no call matched: ${missing.map(describeCall).join('; ')}`,
    });
  }

  // COMMUNICATE.
  const infos = criteria.communicateInfo ?? [];
  if (infos.length === 0) verdict.criteria.push({ criterion: 'COMMUNICATE', counted: counted('COMMUNICATE'), reward: 1, reason: 'nothing to communicate' });
  else {
    const said = messages.filter((m) => m.role === 'assistant' && hasTextContent(m)).map((m) => m.content!.toLowerCase().replace(/,/g, ''));
    verdict.communicate = infos.map((info) => ({ info, met: said.some((text) => text.includes(info.toLowerCase())) }));
    const missing = verdict.communicate.filter((c) => !c.met).map((c) => `"${c.info}"`);
    verdict.criteria.push({
      criterion: 'COMMUNICATE',
      counted: counted('COMMUNICATE'),
      reward: missing.length === 0 ? 1 : 0,
      reason: missing.length === 0 ? `the agent said ${infos.map((i) => `"${i}"`).join(', ')}` : `the agent never said ${missing.join(', ')}`,
    });
  }

  // NL_ASSERTION.
  const assertions = criteria.nlAssertions ?? [];
  if (assertions.length === 0) verdict.criteria.push({ criterion: 'NL_ASSERTION', counted: counted('NL_ASSERTION'), reward: 1, reason: 'no assertions' });
  else if (!counted('NL_ASSERTION')) verdict.criteria.push({ criterion: 'NL_ASSERTION', counted: false, reward: null, reason: 'not in the reward basis: not asked' });
  else if (!context.judge) verdict.criteria.push({ criterion: 'NL_ASSERTION', counted: true, reward: null, reason: 'not graded: no judge model is configured' });
  else verdict.criteria.push(await judgeAssertions(context.judge, messages, assertions, verdict, context.signal));

  verdict.reward = combine(verdict.criteria, basis);
  return verdict;
}

/** The product over the basis (DB and ENV_ASSERTION count as one group in τ², as a product). */
function combine(criteria: CriterionVerdict[], basis: RewardType[]): number | null {
  let reward = 1;
  for (const c of criteria) {
    if (!basis.includes(c.criterion)) continue;
    if (c.reward === null) return null;
    reward *= c.reward;
  }
  return reward;
}

/** τ²'s NLAssertionsEvaluator system prompt, verbatim (its indentation included). */
export const NL_JUDGE_SYSTEM = `
        TASK
        - You will be given a list of expected outcomes and a conversation that was collected during a test case run.
        - The conversation is between an agent and a customer.
        - Your job is to evaluate whether the agent satisfies each of the expected outcomes.
        - Grade each expected outcome individually.

        FORMAT
        - Your response should be a JSON object with the following fields:
        - \`reasoning\`: a short explanation for your classification
        - \`metExpectation\`: \`true\` if the agent satisfies the expected outcomes, \`false\` otherwise
        - \`expectedOutcome\`: repeat the expectation from the input that you are grading
        
        Example response structure:
        {
            "results": [
                {
                    "expectedOutcome": "<one of the expected outcomes from the input>",
                    "reasoning": "<reasoning trace>",
                    "metExpectation": <false or true>,
                }
            ]
        }
        `;

/** The judge's user turn, as τ² formats it (every message as `role: content`, the assertions as
 * a Python list). */
export function nlJudgeUserPrompt(messages: readonly Tau2Message[], assertions: readonly string[]): string {
  const trajectory = messages.map((m) => `${m.role}: ${m.content ?? 'None'}`).join('\n');
  return `
        conversation:
        ${trajectory}
        
        expectedOutcomes:
        ${pyRepr([...assertions])}
        `;
}

async function judgeAssertions(judge: ChatModel, messages: readonly Tau2Message[], assertions: readonly string[], verdict: Tau2Verdict, signal?: AbortSignal): Promise<CriterionVerdict> {
  const completion = await judge.complete({
    messages: [
      { role: 'system', content: NL_JUDGE_SYSTEM },
      { role: 'user', content: nlJudgeUserPrompt(messages, assertions) },
    ],
    temperature: 1,
    ...(signal ? { signal } : {}),
  });
  const notGraded = (why: string): CriterionVerdict => ({ criterion: 'NL_ASSERTION', counted: true, reward: null, reason: `not graded: ${why}` });
  let results: PyValue;
  try {
    const parsed = parsePyJson(completion.content);
    results = parsed instanceof Map ? (parsed.get('results') ?? null) : null;
  } catch {
    return notGraded('the judge did not reply with the asked-for JSON');
  }
  if (!Array.isArray(results)) return notGraded('the judge\'s reply has no "results" list');
  const checks: { assertion: string; met: boolean; justification: string }[] = [];
  for (const result of results) {
    const r = result instanceof Map ? result : new Map<string, PyValue>();
    const assertion = r.get('expectedOutcome');
    const met = r.get('metExpectation');
    const reasoning = r.get('reasoning');
    if (typeof assertion !== 'string' || typeof met !== 'boolean' || typeof reasoning !== 'string') return notGraded('a result lacks expectedOutcome, metExpectation or reasoning');
    checks.push({ assertion, met, justification: reasoning });
  }
  verdict.nlAssertions = checks;
  const failed = checks.filter((c) => !c.met);
  return {
    criterion: 'NL_ASSERTION',
    counted: true,
    reward: failed.length === 0 ? 1 : 0,
    reason: failed.length === 0 ? `the judge found all ${checks.length} assertions met` : `the judge found not met: ${failed.map((c) => `"${c.assertion}" (${c.justification})`).join('; ')}`,
  };
}
