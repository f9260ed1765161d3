// The domain a single run of a typed task plays in (the Task tab's domain picker): a built-in one
// (retail, clinic: tools.js in the JavaScript sandbox) by its name, a τ² or ToolScale one by its
// suite's name (tau2-retail, toolscale-bank…). The run gets the domain's policy as its system
// prompt, its tools over a fresh copy of its database, and the function-calling protocol
// (prepareRun's `domain`). A domain's files are loaded and parsed once per worker, on its first
// run; the orchestrator worker imports this module with the first run that names a domain.

import { MAX_TURNS } from '../engine/config.ts';
import { formatSeconds } from '../engine/format.ts';
import type { ForkFrom } from '../engine/events.ts';
import { MAX_CALLS_PER_TURN } from '../engine/protocols/functionCalling.ts';
import type { JavaScriptRunner } from '../engine/ports.ts';
import type { DomainTools } from '../engine/preparedRun.ts';
import { isBuiltInDomain } from '../eval/builtInSuites.ts';
import { DomainError, parseDomain } from '../domains/domain.ts';
import { DomainEnvironment } from '../domains/environment.ts';
import type { LoadedTau2Domain, Tau2DomainName } from '../domains/tau2/domains.ts';
import { tau2DomainOfSuite } from '../domains/tau2/taskDomain.ts';
import { typedTaskTools } from '../domains/tau2/typedTask.ts';

export interface TaskDomainSources {
  /** The sandbox the built-in domains' tools run in. */
  javascript: JavaScriptRunner;
  /** A τ² or ToolScale domain, its files read and its database parsed. */
  tau2(name: Tau2DomainName): Promise<LoadedTau2Domain>;
}

/** One run's domain: what prepareRun needs for it. */
export type TaskDomains = (name: string) => Promise<DomainTools>;

export function createTaskDomains(sources: TaskDomainSources): TaskDomains {
  const loaded = new Map<string, Promise<() => DomainTools>>();
  const load = async (name: string): Promise<() => DomainTools> => {
    if (isBuiltInDomain(name)) {
      const { BUILT_IN_DOMAIN_FILES } = await import('../domains/browserDomains.ts');
      const domain = parseDomain(BUILT_IN_DOMAIN_FILES[name], name);
      const environment = new DomainEnvironment(domain, sources.javascript);
      const problems = await environment.verify();
      if (problems.length > 0) throw new DomainError(domain.name, problems);
      return () => ({ system: domain.policy, tools: environment.newSession().tools });
    }
    const tau2 = tau2DomainOfSuite(name);
    if (tau2 === undefined) throw new Error(`There is no domain "${name}" to run the task in.`);
    const domain = await sources.tau2(tau2);
    return () => typedTaskTools(domain, name);
  };
  return async (name) => {
    let run = loaded.get(name);
    if (!run) {
      run = load(name);
      loaded.set(name, run);
      // A load that failed is tried again by the next run (a chunk the network lost).
      run.catch(() => loaded.delete(name));
    }
    return (await run)();
  };
}

/** The most domain calls a run can make (each turn makes at most MAX_CALLS_PER_TURN): a stored
 * log whose kept steps hold more was not written by a run, and is not replayed. */
export const MAX_REPLAYED_CALLS = MAX_TURNS * MAX_CALLS_PER_TURN;
/** How long the replay computes before it yields to the worker's event loop, so a Stop sent
 * meanwhile is heard (a τ² tool answers without awaiting anything; each is bounded, τ²'s
 * `calculate` at about ten milliseconds). */
const SLICE_MS = 8;

/**
 * A fork of a run that played in a domain goes on from the database its kept steps left: their
 * calls that succeeded are made again, in order, on this run's fresh copy, silently (the
 * orchestrator already read their recorded results). A domain's tools are functions of its
 * database, so the copy ends where the parent's did (ToolScale's stamps of the time aside). The
 * parent's log is untrusted: only calls to this domain's tools are made, as any run's would be,
 * each under the bounds any call has, no more than a run can make; a Stop ends the replay within
 * a slice, and so does the run's time limit (`maxMs`, the config's `maxWallSeconds`).
 */
export async function replayKeptCalls(domain: DomainTools, fork: ForkFrom, signal: AbortSignal, maxMs: number | null = null): Promise<number> {
  const succeeded = new Set<string>();
  for (const event of fork.events) {
    if (event.type === 'tool_result' && event.ok && event.step <= fork.throughStep) succeeded.add(event.callId);
  }
  const tools = new Map(domain.tools.map((tool) => [tool.name, tool]));
  const kept = fork.events.filter(
    (event) => event.type === 'tool_call' && event.step >= 1 && event.step <= fork.throughStep && succeeded.has(event.callId) && tools.has(event.name),
  ) as Array<Extract<ForkFrom['events'][number], { type: 'tool_call' }>>;
  if (kept.length > MAX_REPLAYED_CALLS) {
    throw new Error(`its kept steps hold ${kept.length.toLocaleString('en-US')} calls to the domain's tools, more than a run can make (${MAX_REPLAYED_CALLS.toLocaleString('en-US')}), so the stored log is not one a run wrote`);
  }
  let made = 0;
  const started = performance.now();
  let sliceStarted = -Infinity;
  for (const event of kept) {
    if (performance.now() - sliceStarted >= SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStarted = performance.now();
    }
    if (signal.aborted) throw new Error(`it was stopped after ${made} of the kept steps' ${kept.length} calls`);
    if (maxMs !== null && performance.now() - started > maxMs) {
      throw new Error(`replaying the kept steps' ${kept.length} calls passed the run's time limit (${formatSeconds(maxMs)}) after ${made}`);
    }
    const output = await tools.get(event.name)!.run(event.arguments, { signal, call: { id: event.callId, origin: 'server' } });
    if (output.isError) {
      throw new Error(`step ${event.step}'s call ${event.name} succeeded in the stored run but fails on a fresh copy of the domain's database (${output.content.slice(0, 200)}), so the database there is not known`);
    }
    made += 1;
  }
  return made;
}
