// The τ² and ToolScale domains as evaluation sees a domain (eval's TaskDomain port): each task a
// suite line, each rollout a Tau2Rollout (the agent talks with the simulated user, its calls
// run in the rollout's own environment), graded by τ²'s criteria. Suites are named
// `tau2-retail`, `tau2-telecom` and `toolscale-<domain>`. Pure TypeScript; the host reads the
// files and picks the user and the judge.

import type { OrchestraConfig } from '../../engine/config.ts';
import { resolveExperts } from '../../engine/configExperts.ts';
import type { PricingTable } from '../../engine/pricing.ts';
import type { ChatModel } from '../../engine/types.ts';
import type { Verdict } from '../../eval/checks.ts';
import type { RunFactory, TaskDomain } from '../../eval/ports.ts';
import type { SuiteTask } from '../../eval/suite.ts';
import { isToolScaleDomain, TOOLSCALE_DOMAIN_NAMES } from './toolscale/domains.ts';
import { TAU2_LIMITS } from './conversation.ts';
import { TAU2_DOMAIN_NAMES, type LoadedTau2Domain, type Tau2DomainName } from './domains.ts';
import { isSuccessful, type Tau2Verdict } from './evaluate.ts';
import { Tau2Rollout, type Tau2UserSide } from './rollout.ts';
import { scenarioText } from './tasks.ts';

/** A domain's suite name: `tau2-retail`, `tau2-telecom`, `toolscale-bank` … */
export function tau2SuiteName(name: Tau2DomainName): string {
  return isToolScaleDomain(name) ? `toolscale-${name}` : `tau2-${name}`;
}

export const TAU2_SUITE_NAMES: readonly string[] = TAU2_DOMAIN_NAMES.map(tau2SuiteName);

/** The domain a suite name stands for, or undefined. */
export function tau2DomainOfSuite(suite: string): Tau2DomainName | undefined {
  return TAU2_DOMAIN_NAMES.find((name) => tau2SuiteName(name) === suite);
}

export { TOOLSCALE_DOMAIN_NAMES };

/** A domain's tasks as suite lines: the id τ² gives them, the scenario as the task's text. */
export function tau2Suite(domain: LoadedTau2Domain): SuiteTask[] {
  return domain.tasks.map((task, index) => ({ id: task.id, task: scenarioText(task.userScenario), domain: tau2SuiteName(domain.name), line: index + 1 }));
}

export interface Tau2TaskDomainOptions {
  /** Who plays the user in each rollout. */
  user: Tau2UserSide;
  guidelines: { plain: string; tools: string };
  pricing: PricingTable;
  /** The judge for NL_ASSERTION; without one that criterion is not graded. */
  judge?: ChatModel;
  limits?: { maxSteps: number; maxErrors: number };
}

/** τ²'s verdict as an evaluation verdict: correct when the reward is 1, failed (counted wrong,
 * said why) when it could not be worked out. */
export function tau2Verdict(verdict: Tau2Verdict): Verdict {
  const word = (reward: number | null) => (reward === null ? 'not graded' : reward === 1 ? 'passed' : 'failed');
  const counted = verdict.criteria.filter((c) => c.counted);
  const reason =
    verdict.error ??
    [verdict.note, `reward ${verdict.reward ?? 'unknown'}`, ...counted.map((c) => `${c.criterion} ${word(c.reward)}: ${c.reason}`)].filter(Boolean).join('; ');
  return {
    check: 'tau2',
    correct: isSuccessful(verdict.reward),
    ...(verdict.reward === null || verdict.error !== undefined ? { failed: true } : {}),
    reason,
    costUsd: 0,
    criteria: verdict.criteria.map((c) => ({ criterion: c.criterion, counted: c.counted, reward: c.reward, reason: c.reason })),
  };
}

export function tau2TaskDomain(domain: LoadedTau2Domain, options: Tau2TaskDomainOptions): TaskDomain {
  const tasks = new Map(domain.tasks.map((task) => [task.id, task]));
  const limits = options.limits ?? TAU2_LIMITS;
  const noTask = (id: string | undefined) => new Error(`${tau2SuiteName(domain.name)} has no task "${id ?? '(none)'}"`);
  return {
    domain: { name: tau2SuiteName(domain.name), policy: domain.policy },
    newSession(suiteTask) {
      const task = suiteTask ? tasks.get(suiteTask.id) : undefined;
      if (!task) throw noTask(suiteTask?.id);
      const rollout = new Tau2Rollout({ domain, task, user: options.user, guidelines: options.guidelines, pricing: options.pricing, limits });
      return {
        tools: rollout.tools,
        partner: rollout,
        // Every τ² step can be an orchestrator turn: the conversation's own limit governs.
        maxTurns: limits.maxSteps,
        grade: async (signal) => tau2Verdict(await rollout.grade({ ...(options.judge ? { judge: options.judge } : {}), signal })),
      };
    },
    async goldenState(suiteTask) {
      return tasks.has(suiteTask.id) ? { ok: true } : { ok: false, error: noTask(suiteTask.id).message };
    },
    comparison() {
      return { compare: async () => ({ error: 'a τ² task is graded by its criteria, not by a db check' }) };
    },
  };
}

/** A τ² domain as a host runs it from a config (the CLI and the browser's worker alike): the
 * model of the config's expert `userAlias` plays the user (null: the scripted user), the
 * config's `evaluation.judge` grades NL_ASSERTION (none: not graded). */
export function tau2DomainFromConfig(domain: LoadedTau2Domain, config: OrchestraConfig, runs: RunFactory, userAlias: string | null, guidelines: { plain: string; tools: string }): TaskDomain {
  const expert = userAlias === null ? undefined : resolveExperts(config)[userAlias];
  if (userAlias !== null && !expert) throw new Error(`the config has no expert "${userAlias}" to play the user`);
  const judge = config.evaluation?.judge;
  return tau2TaskDomain(domain, {
    user: expert ? { kind: 'model', model: runs.model(config, expert.provider, expert.model), ...(expert.temperature === undefined ? {} : { temperature: expert.temperature }) } : { kind: 'scripted' },
    guidelines,
    pricing: runs.pricing(config),
    ...(judge ? { judge: runs.model(config, judge.provider, judge.model) } : {}),
  });
}
