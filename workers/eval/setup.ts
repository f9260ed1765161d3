// What an evaluation needs before anything is paid for, the same in the CLI and the browser: the
// suite's domains loaded with every tool and golden state checked, and the judge model.

import { DomainError, type Domain } from '../domains/domain.ts';
import { DomainEnvironment } from '../domains/environment.ts';
import type { JavaScriptRunner } from '../../tools/javascript/types.ts';
import type { OrchestraConfig } from '../engine/config.ts';
import { createModel, effectivePricing, type RunEnvironment } from '../hosts/prepareRun.ts';
import type { JudgeModel } from './checks.ts';
import { PolicyError } from './policies.ts';
import { checkDomainTasks } from './runner.ts';
import { SuiteError, type SuiteTask } from './suite.ts';

/** The domains the suite's tasks name, each once, in the order they first appear. */
export function domainsOf(tasks: readonly SuiteTask[]): string[] {
  return [...new Set(tasks.flatMap((task) => (task.domain === undefined ? [] : [task.domain])))];
}

/** Each domain in the sandbox, checked: a DomainError when its tools.js does not run, a
 * SuiteError (naming lines) when a task's golden actions do not. */
export async function domainEnvironments(
  domains: readonly Domain[],
  tasks: readonly SuiteTask[],
  javascript: JavaScriptRunner,
  source: string,
): Promise<Map<string, DomainEnvironment>> {
  const environments = new Map<string, DomainEnvironment>();
  for (const domain of domains) {
    const environment = new DomainEnvironment(domain, javascript);
    const problems = await environment.verify();
    if (problems.length > 0) throw new DomainError(domain.name, problems);
    environments.set(domain.name, environment);
  }
  const broken = await checkDomainTasks(tasks, environments);
  if (broken.length > 0) throw new SuiteError(source, broken);
  return environments;
}

/** The judge model, when the configuration names one; a PolicyError when a task has a judge check
 * and the configuration names none. */
export function evalJudge(config: OrchestraConfig, environment: RunEnvironment, tasks: readonly SuiteTask[]): JudgeModel | undefined {
  const judge = config.evaluation?.judge;
  if (!judge) {
    const needing = tasks.find((task) => task.check?.kind === 'judge');
    if (needing) {
      throw new PolicyError(`Task "${needing.id}" (line ${needing.line}) has a judge check, and the configuration names no judge: add "evaluation": {"judge": {"provider": "…", "model": "…"}}.`);
    }
    return undefined;
  }
  return { model: createModel(config, environment, judge.provider, judge.model), pricing: effectivePricing(config) };
}
