// What an evaluation needs before anything is paid for, the same in the CLI and the browser: the
// suite's domains (loaded and checked by workers/domains/setup.ts) and the judge model.

import type { OrchestraConfig } from '../engine/config.ts';
import type { JudgeModel } from './checks.ts';
import { PolicyError } from './policy.ts';
import type { RunFactory } from './ports.ts';
import type { SuiteTask } from './suite.ts';

/** The domains the suite's tasks name, each once, in the order they first appear. */
export function domainsOf(tasks: readonly SuiteTask[]): string[] {
  return [...new Set(tasks.flatMap((task) => (task.domain === undefined ? [] : [task.domain])))];
}

/** The judge model, when the configuration names one; a PolicyError when a task has a judge check
 * and the configuration names none. */
export function evalJudge(config: OrchestraConfig, runs: RunFactory, tasks: readonly SuiteTask[]): JudgeModel | undefined {
  const judge = config.evaluation?.judge;
  if (!judge) {
    const needing = tasks.find((task) => task.check?.kind === 'judge');
    if (needing) {
      throw new PolicyError(`Task "${needing.id}" (line ${needing.line}) has a judge check, and the configuration names no judge: add "evaluation": {"judge": {"provider": "…", "model": "…"}}.`);
    }
    return undefined;
  }
  return { model: runs.model(config, judge.provider, judge.model), pricing: runs.pricing(config) };
}
