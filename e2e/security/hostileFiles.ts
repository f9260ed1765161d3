// Files a person can be handed and open in the playground, built to hurt it: a run file at the
// caps, one nested 100,000 deep, results files with a policy per rollout, suites shaped the same
// way. Each carries markup aimed at the exfiltration sink wherever text is shown, so a page that
// rendered it as HTML would call the sink.

import type { RunEvent } from '../../workers/engine/events.ts';
import { rolloutRecord } from '../fixtures/rolloutRecord.ts';
import { syntheticRun } from '../fixtures/syntheticRun.ts';

/** Markup that calls the sink if it is ever rendered as HTML or loaded as a URL. */
export function bait(sinkUrl: string, where: string): string {
  return `<img src="${sinkUrl}/${where}.png" onerror="fetch('${sinkUrl}/${where}-onerror')"><script src="${sinkUrl}/${where}.js"></script>`;
}

/** A run's first event (as syntheticRun makes it), its task carrying `task`. */
function runStarted(runId: string, task: string): RunEvent {
  return { ...syntheticRun(runId, 1, 0)[0]!, task } as RunEvent;
}

/** The shape of a file of runs. */
export function runFileText(runs: Array<{ id: string; name?: string; events: unknown[] }>): string {
  return JSON.stringify({ format: 'orchestra-playground/runs', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', runs });
}

/** One run of `events` events (the cap is 200,000): a start, then steps of two events each
 * (started, finished), as many as fit — 99,999 steps for 199,999 events. About 16 MB. */
export function longRunFile(sinkUrl: string, events = 199_999): string {
  const id = 'long-run';
  const log: RunEvent[] = [runStarted(id, `A run of ${events} events ${bait(sinkUrl, 'long-task')}`)];
  for (let step = 1; log.length + 2 <= events; step++) {
    log.push({ runId: id, t: step * 10, type: 'step_started', step });
    log.push({ runId: id, t: step * 10 + 5, type: 'step_finished', step, costUsd: 0, latencyMs: 5, cumulativeUsd: 0 });
  }
  return runFileText([{ id, name: bait(sinkUrl, 'long-name'), events: log }]);
}

/** A small run file whose run's config is an array nested `depth` deep: about 2 bytes a level. */
export function deepRunFile(depth: number): string {
  const head = runFileText([{ id: 'deep', events: [{ ...runStarted('deep', 'Deep'), config: '@@' }] }]);
  return head.replace('"@@"', `${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/** The first line of a results file of `orchestra eval --out`. */
const RESULTS_HEADER = { type: 'eval_started', version: 1, suite: 'hostile.jsonl', suiteHash: 'x', configHash: 'y', seed: '0', startedAt: '2026-01-01T00:00:00.000Z' };

/** A results file of `records` rollouts over `policies` policies and `records / policies` tasks
 * per policy; the first policy's name and the first verdict carry bait. 40,000 records of one
 * policy each is the file that froze Evaluate (about 12 MB). */
export function resultsFile(sinkUrl: string, records: number, policies: number): string {
  const lines = [JSON.stringify(RESULTS_HEADER)];
  const named = bait(sinkUrl, 'policy').slice(0, 48);
  for (let index = 0; index < records; index++) {
    const policy = `p${index % policies}${index % policies === 0 ? named : ''}`;
    const correct = index % 3 !== 0;
    const record = rolloutRecord(policy, `t${Math.floor(index / policies)}`, 1, {
      runId: `r${index}`,
      correct,
      costUsd: 0.001 * (1 + (index % 7)),
      toolFeatures: { 'search-1': 1 + (index % 3) },
      verdict: { check: 'exact', correct, reason: index === 0 ? bait(sinkUrl, 'verdict') : 'ok' },
    });
    lines.push(JSON.stringify(record));
  }
  return `${lines.join('\n')}\n`;
}

/** A results file of `policies` policies, each named by `nameChars` characters (a few at the
 * front tell them apart, then a page of markup aimed at the sink), one rollout of each on
 * `tasks` tasks. */
export function longNamedPoliciesFile(sinkUrl: string, policies: number, nameChars: number, tasks = 2): string {
  const lines = [JSON.stringify(RESULTS_HEADER)];
  const filler = bait(sinkUrl, 'long-name');
  for (let index = 0; index < policies; index++) {
    const name = `p${index} `.concat(filler.repeat(Math.ceil(nameChars / filler.length))).slice(0, nameChars);
    for (let task = 0; task < tasks; task++) {
      const correct = (index + task) % 3 !== 0;
      lines.push(JSON.stringify(rolloutRecord(name, `t${task}`, 1, { runId: `r${index}-${task}`, correct, costUsd: 0.001 * (1 + (index % 7)), toolFeatures: { 'search-1': 1 + (index % 3) } })));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A suite of `tasks` lines; with `deepMeta`, the first line's meta holds objects nested that deep
 * (each level 6 characters: 30,000 levels fit the 200,000-character line). */
export function suiteFile(sinkUrl: string, tasks: number, deepMeta = 0): string {
  const lines: string[] = [];
  for (let index = 0; index < tasks; index++) {
    const line = JSON.stringify({ id: `t${index}`, task: `Task ${index} ${bait(sinkUrl, `task-${index}`)}`, answer: 'x', meta: index === 0 && deepMeta > 0 ? '@@' : { n: index } });
    lines.push(index === 0 && deepMeta > 0 ? line.replace('"@@"', `${'{"n":'.repeat(deepMeta)}1${'}'.repeat(deepMeta)}`) : line);
  }
  return `${lines.join('\n')}\n`;
}

/** A τ² results file of `rollouts` rollouts of one task under one policy, each as small as a
 * record may be (about 330 bytes: 50,000 fit the 20 MB cap), graded by τ²'s criteria, all right
 * but the first, whose verdict carries bait. */
export function tau2ResultsFile(sinkUrl: string, rollouts: number): string {
  const lines = [JSON.stringify(RESULTS_HEADER)];
  for (let index = 0; index < rollouts; index++) {
    const correct = index !== 0;
    const criteria = [{ criterion: 'DB', counted: true, reward: correct ? 1 : 0 }];
    lines.push(
      JSON.stringify({
        type: 'rollout', policy: 'orchestrator', taskId: 't', rollout: index + 1, stopReason: 'answered', correct,
        verdict: { check: 'tau2', criteria, ...(index === 0 ? { reason: bait(sinkUrl, 'tau2-verdict') } : {}) },
        costUsd: 0, runCostUsd: 0, gradingCostUsd: 0, unknownCostEntries: 0, hasEstimates: false, latencyMs: 1, toolFeatures: {}, modelCalls: {},
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `runs` small runs (a start and an end each, about 1 KB), as a class's exports pile up. */
export function manyRunsFile(sinkUrl: string, runs: number): string {
  const list = Array.from({ length: runs }, (_, index) => {
    const id = `small-${index}`;
    const events = syntheticRun(id, index, 0).map((event) => {
      if (event.type === 'run_started' && index === 0) return { ...event, task: `${event.task} ${bait(sinkUrl, 'many')}` };
      // A run of no steps called no tool.
      if (event.type === 'run_finished') return { ...event, totals: { ...event.totals, toolCounts: { tools: {}, aliases: {} } } };
      return event;
    });
    return { id, events };
  });
  return runFileText(list);
}

/** One run whose task is `chars` characters of markup aimed at the sink (a few words first). */
export function longTaskRunFile(sinkUrl: string, chars: number, id = 'long-task'): string {
  const filler = bait(sinkUrl, 'long-task-text');
  const task = `A long task ${filler.repeat(Math.ceil(chars / filler.length))}`.slice(0, chars);
  return runFileText([{ id, events: [runStarted(id, task), ...syntheticRun(id, 1, 1).slice(1)] }]);
}
