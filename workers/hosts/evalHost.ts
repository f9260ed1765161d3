// Evaluations in the orchestrator worker: the suite read and checked, its domains loaded in the
// QuickJS sandbox, the policies built from the page's config through the same prepareRun as any
// run, and workers/eval/runner.ts driving the rollouts — the very loop `orchestra eval` drives.
// The worker loads this module with the first suite it reads, so runs alone never pay for it.

import type { SampleTask } from '../../tools/search/sampleTasks.ts';
import { parseDomain, DomainError } from '../domains/domain.ts';
import type { JavaScriptRunner } from '../engine/ports.ts';
import { ConfigError, type OrchestraConfig } from '../engine/config.ts';
import { parseConfig } from './config.ts';
import { redact } from '../engine/errors.ts';
import { Redactor, type Secret } from '../engine/redact.ts';
import type { RunEvent } from '../engine/events.ts';
import { BUILT_IN_DOMAINS, isBuiltInDomain } from '../eval/builtInSuites.ts';
import { createPolicies, parsePolicy } from '../eval/policies.ts';
import { PolicyError } from '../eval/policy.ts';
import { policyDescriptions } from '../eval/results.ts';
import { runEvaluation } from '../eval/runner.ts';
import { domainsOf, evalJudge } from '../eval/setup.ts';
import { domainEnvironments } from '../domains/setup.ts';
import { corpusSuite, parseSuite, SuiteError, type SuiteTask } from '../eval/suite.ts';
import type { EvalRequest, EvalStart, EvalSuiteInput, FromWorker, SuiteReading } from './messages.ts';
import { runFactory, type RunEnvironment } from './prepareRun.ts';
import type { RunFactory, TaskDomain } from '../eval/ports.ts';
import { resolveExperts } from '../engine/configExperts.ts';
import type { LoadedTau2Domain } from '../domains/tau2/domains.ts';
import { isTau2SuiteName } from '../domains/tau2/suiteNames.ts';
import { checkEndpoints, usesOf } from './endpointCheck.ts';

/** The endpoints or in-browser models an evaluation needs that are not there (endpointCheck.ts). */
class EndpointsMissing extends Error {
  constructor(readonly problems: string[]) {
    super(problems[0]);
  }
}

export interface EvalHostOptions {
  /** The environment of every run in this worker (keys, search, sandboxes, local models). */
  environment(config: OrchestraConfig): Promise<RunEnvironment>;
  javascript: JavaScriptRunner;
  /** The built-in multi-hop questions (public/generated/sample-tasks.json). */
  sampleTasks(): Promise<SampleTask[]>;
  post(message: FromWorker): void;
  /** Runs the evaluation's rollouts once the reply that it started has gone (orchestratorHost.ts). */
  afterReply(work: () => Promise<void>): void;
  /** Batches the rollouts' run events for the page (like a run's). */
  emit(event: RunEvent): void;
  /** The keys held, so no error message, record or event can carry one to the page. */
  secrets(): Secret[];
}

interface LoadedSuite {
  source: string;
  tasks: SuiteTask[];
  warnings: string[];
  /** A τ² or ToolScale suite's domain. */
  tau2?: LoadedTau2Domain;
}

async function loadSuite(input: EvalSuiteInput, sampleTasks: () => Promise<SampleTask[]>): Promise<LoadedSuite> {
  if (input.kind === 'file') {
    const parsed = parseSuite(input.text, { source: input.name, requireCheck: true });
    return { source: input.name, tasks: parsed.tasks, warnings: parsed.warnings };
  }
  const source = `builtin:${input.name}`;
  if (input.name === 'corpus') return { source, tasks: corpusSuite(await sampleTasks()), warnings: [] };
  if (isTau2SuiteName(input.name)) {
    const { loadBrowserSuite } = await import('../domains/browserTau2.ts');
    const { domain, tasks } = await loadBrowserSuite(input.name);
    return { source, tasks, warnings: [], tau2: domain };
  }
  const { BUILT_IN_DOMAIN_FILES } = await import('../domains/browserDomains.ts');
  return { source, tasks: parseDomain(BUILT_IN_DOMAIN_FILES[input.name], source).tasks, warnings: [] };
}

/** The problems of an error the page should read (a suite's lines, a domain's files, a policy). */
function problemsOf(error: unknown, secrets: string[]): string[] {
  if (error instanceof EndpointsMissing) return error.problems.map((line) => redact(line, secrets));
  if (error instanceof SuiteError || error instanceof DomainError) return [error.message.split('\n')[0] ?? error.message, ...error.problems];
  if (error instanceof ConfigError) return error.problems;
  return [redact((error as Error).message, secrets)];
}

/** The suite's domains as evaluation sees them: a τ² suite's, with its simulated user; or the
 * built-in domains its tasks name, loaded in the JavaScript sandbox. */
async function taskDomains(suite: LoadedSuite, config: OrchestraConfig, user: string | undefined, runs: RunFactory, javascript: JavaScriptRunner): Promise<Map<string, TaskDomain>> {
  if (suite.tau2) {
    if (user === undefined) throw new PolicyError('A τ² suite needs a simulated user: the scripted user, or one of the configuration\'s experts.');
    if (user !== 'scripted' && !resolveExperts(config)[user]) throw new PolicyError(`The simulated user "${user}" is not an expert of the configuration (it has ${Object.keys(resolveExperts(config)).join(', ') || 'none'}).`);
    const { loadBrowserGuidelines, tau2DomainFromConfig } = await import('../domains/browserTau2.ts');
    const domain = tau2DomainFromConfig(suite.tau2, config, runs, user === 'scripted' ? null : user, await loadBrowserGuidelines());
    return new Map([[domain.domain.name, domain]]);
  }
  if (user !== undefined) throw new PolicyError('A simulated user is for τ² and ToolScale suites, whose tasks talk with one.');
  const unknown = domainsOf(suite.tasks).filter((name) => !isBuiltInDomain(name));
  if (unknown.length > 0) {
    throw new SuiteError(suite.source, [`its tasks run in the domain${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `"${n}"`).join(', ')}, which the playground does not have (built in: ${BUILT_IN_DOMAINS.join(', ')}); run it with the CLI's --domain`]);
  }
  const { BUILT_IN_DOMAIN_FILES } = await import('../domains/browserDomains.ts');
  const domains = domainsOf(suite.tasks).map((name) => parseDomain(BUILT_IN_DOMAIN_FILES[name as keyof typeof BUILT_IN_DOMAIN_FILES], `builtin:${name}`));
  return domainEnvironments(domains, suite.tasks, javascript, suite.source);
}

/** What an evaluation needs before its first rollout: its config, suite, the domains' environments,
 * its policies and judge. Throws what the page shows. */
async function prepareEvaluation(request: EvalRequest, options: EvalHostOptions, signal: AbortSignal) {
  const config = parseConfig(request.config);
  const loaded = await loadSuite(request.suite, options.sampleTasks);
  // "Tasks (first N)" in the tab, the CLI's --limit.
  const suite = request.limit === undefined ? loaded : { ...loaded, tasks: loaded.tasks.slice(0, request.limit) };
  const environment = await options.environment(config);
  const runs = runFactory(environment);
  const domainEnvs = await taskDomains(suite, config, request.user, runs, options.javascript);
  const specs = request.policies.map((name) => parsePolicy(name));
  if (specs.length === 0) throw new PolicyError('Pick at least one policy.');
  const policies = createPolicies(specs, { config, runs, domains: domainEnvs, seed: request.seed });
  const judge = evalJudge(config, runs, suite.tasks);
  // Before the first rollout is paid for: is every endpoint these policies call there?
  const uses = usesOf(config, specs, runs, suite.tau2 !== undefined || suite.tasks.some((task) => task.domain !== undefined));
  const userModel = request.user !== undefined && request.user !== 'scripted' ? resolveExperts(config)[request.user] : undefined;
  if (userModel) uses.push({ provider: userModel.provider, model: userModel.model, who: `alias ${request.user} (the simulated user)` });
  const missing = [...new Set(await checkEndpoints(config, uses, environment, signal))];
  if (missing.length > 0) throw new EndpointsMissing(missing);
  return { suite, policies, domainEnvs, judge };
}

export function createEvalHost(options: EvalHostOptions) {
  const evaluations = new Map<string, AbortController>();

  async function readSuite(input: EvalSuiteInput): Promise<SuiteReading> {
    let reading: SuiteReading;
    try {
      const suite = await loadSuite(input, options.sampleTasks);
      const checks: Record<string, number> = {};
      for (const task of suite.tasks) if (task.check) checks[task.check.kind] = (checks[task.check.kind] ?? 0) + 1;
      // A τ² task is graded by its own criteria (DB, ACTION, COMMUNICATE…), not a suite check.
      if (suite.tau2) checks['τ² criteria'] = suite.tasks.length;
      reading = { ok: true, source: suite.source, tasks: suite.tasks.length, domains: domainsOf(suite.tasks), checks, warnings: suite.warnings };
    } catch (error) {
      reading = { ok: false, problems: problemsOf(error, options.secrets().map((secret) => secret.value)) };
    }
    return reading;
  }

  async function start(request: EvalRequest): Promise<EvalStart> {
    const { evalId } = request;
    // Registered before anything is awaited, so a Stop pressed while the suite loads is not lost.
    const controller = new AbortController();
    evaluations.set(evalId, controller);
    let prepared;
    try {
      prepared = await prepareEvaluation(request, options, controller.signal);
    } catch (error) {
      evaluations.delete(evalId);
      return { ok: false, problems: problemsOf(error, options.secrets().map((secret) => secret.value)) };
    }
    options.afterReply(() => rollouts(request, prepared, controller));
    const { suite, policies } = prepared;
    return { ok: true, source: suite.source, taskIds: suite.tasks.map((task) => task.id), policies: policyDescriptions(policies), rollouts: request.rollouts };
  }

  async function rollouts(request: EvalRequest, prepared: Awaited<ReturnType<typeof prepareEvaluation>>, controller: AbortController): Promise<void> {
    const { evalId } = request;
    const { suite, policies, domainEnvs, judge } = prepared;
    try {
      const outcome = await runEvaluation({
        tasks: suite.tasks,
        policies,
        rollouts: request.rollouts,
        concurrency: request.concurrency,
        budgetUsd: request.budgetUsd,
        grading: { javascript: options.javascript, domains: domainEnvs, ...(judge ? { judge } : {}) },
        previous: request.previous,
        signal: controller.signal,
        // The page keeps each record from its rollout_finished event.
        onRecord: () => {},
        // A record's answer and verdict (a judge's words among them) hold no key, as no event does.
        onProgress: (event) => options.post({ type: 'eval_progress', evalId, event: new Redactor(options.secrets()).value(event) }),
        onRunEvent: (_key, event) => options.emit(event),
      });
      const { records: _records, ...end } = outcome;
      options.post({ type: 'eval_finished', evalId, end });
    } catch (error) {
      options.post({ type: 'eval_failed', evalId, message: redact(`The evaluation failed unexpectedly: ${(error as Error).message}`, options.secrets().map((secret) => secret.value)) });
    } finally {
      evaluations.delete(evalId);
    }
  }

  return {
    readSuite,
    start,
    stop(evalId: string): void {
      evaluations.get(evalId)?.abort();
    },
  };
}

export type EvalHost = ReturnType<typeof createEvalHost>;
