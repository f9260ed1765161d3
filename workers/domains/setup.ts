// A suite's domains made ready before anything is paid for, the same in the CLI and the browser:
// each domain's tools.js run in the sandbox and every task's golden state worked out.

import type { JavaScriptRunner } from '../engine/ports.ts';
import { checkDomainTasks } from '../eval/runner.ts';
import { SuiteError, type SuiteTask } from '../eval/suite.ts';
import { DomainError, type Domain } from './domain.ts';
import { DomainEnvironment } from './environment.ts';

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
