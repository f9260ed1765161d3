// `orchestra eval`: a suite under one or more policies, N rollouts per task, graded, summarised.
// Everything but the files and the terminal is in workers/eval/, which the
// playground runs too.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DOMAIN_FILE_NAMES, DomainError, type Domain } from '../workers/domains/domain.ts';
import { builtInDomainDir, loadDomainDir } from './nodeDomains.ts';
import { loadNodeSampleTasks } from '../tools/search/nodeCorpus.ts';
import { CALL_EXPERT_TOOL, type OrchestraConfig } from '../workers/engine/config.ts';
import { resolveExperts } from '../workers/engine/configExperts.ts';
import { BUILT_IN_DOMAINS, BUILT_IN_SUITES, isBuiltInDomain } from '../workers/eval/builtInSuites.ts';
import { createPolicies, parsePolicy, sweepPolicies } from '../workers/eval/policies.ts';
import { PolicyError, type PolicySpec } from '../workers/eval/policy.ts';
import { evalHeader, evalPlan, policyDescriptions, summarizeEval } from '../workers/eval/results.ts';
import { runEvaluation, type EvalOutcome } from '../workers/eval/runner.ts';
import { domainsOf, evalJudge } from '../workers/eval/setup.ts';
import { formatShard, parseShard, ShardError, tasksOfShard, type Shard } from '../workers/eval/shard.ts';
import { domainEnvironments } from '../workers/domains/setup.ts';
import { corpusSuite, parseSuite, SuiteError, SUITE_LIMITS, type SuiteTask } from '../workers/eval/suite.ts';
import { evalMergeCommand } from './evalMergeCommand.ts';
import { checkReportFiles, createEvalProgress, formatEvalEnd, printReport, REPORT_OPTIONS } from './evalOutput.ts';
import { openResults, readResults } from './evalStore.ts';
import { readNamedFile } from './files.ts';
import { colorWanted, createStyle, terminalText } from './format.ts';
import type { CliIo } from './io.ts';
import { loadConfig } from './loadConfig.ts';
import { createNodeEnvironment, describeMissingKeys, providersInUse, type MissingKey } from './nodeEnvironment.ts';
import { EVAL_USAGE, EXIT_CODES, parseCommandArgs, positiveInteger, printUsage, UsageError } from './usage.ts';
import { formatCount } from '../workers/engine/format.ts';
import { runFactory } from '../workers/hosts/prepareRun.ts';
import type { TaskDomain } from '../workers/eval/ports.ts';
import type { LoadedTau2Domain } from '../workers/domains/tau2/domains.ts';
import { TAU2_SUITE_NAMES, tau2DomainFromConfig, tau2DomainOfSuite, tau2Suite, tau2SuiteName } from '../workers/domains/tau2/taskDomain.ts';
import { readTau2Domain, readTau2Guidelines, UserFileError, type NodeTau2Options } from './nodeTau2.ts';
import { Tau2DomainError } from '../workers/domains/tau2/domains.ts';

const EVAL_OPTIONS = {
  config: { type: 'string' },
  suite: { type: 'string' },
  policy: { type: 'string', multiple: true },
  sweep: { type: 'string' },
  rollouts: { type: 'string' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  budget: { type: 'string' },
  domain: { type: 'string', multiple: true },
  shard: { type: 'string' },
  user: { type: 'string' },
  'airline-db': { type: 'string' },
  task: { type: 'string', multiple: true },
  limit: { type: 'string' },
  ...REPORT_OPTIONS,
} as const;

export async function evalCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'merge') return evalMergeCommand(argv.slice(1), io);
  const args = parseCommandArgs(argv, EVAL_OPTIONS, EVAL_USAGE);
  if (args.help) return printUsage(io, EVAL_USAGE);
  const { config: configPath, suite: suitePath, out } = required(args);
  const rollouts = positiveInteger(args.rollouts, '--rollouts', 1, EVAL_USAGE);
  const concurrency = positiveInteger(args.concurrency, '--concurrency', 2, EVAL_USAGE);
  const budgetUsd = parseBudget(args.budget);
  const seed = args.seed ?? '0';
  const specs = policySpecs(args.policy ?? [], args.sweep);
  const shard = shardOf(args.shard);

  const config = await loadConfig(configPath);
  const domainDirs = (args.domain ?? []).map((dir) => resolve(dir));
  const domainFiles = domainDirs.flatMap((dir) => Object.values(DOMAIN_FILE_NAMES).map((name) => join(dir, name)));
  const airlineDb = args['airline-db'] === undefined ? [] : [args['airline-db']];
  checkReportFiles(args, [configPath, ...(suitePath.startsWith('builtin:') ? [] : [suitePath]), out, ...domainFiles, ...airlineDb]);
  const suite = selectTasks(loadSuite(suitePath, { ...(args['airline-db'] === undefined ? {} : { airlineDb: args['airline-db'] }) }), args.task, args.limit);
  if (args['airline-db'] !== undefined && suite.tau2?.name !== 'airline') throw new UsageError('--airline-db is for builtin:tau2-airline, whose database is not shipped.', EVAL_USAGE);
  const { source, warnings } = suite;
  for (const warning of warnings) io.stderr.write(terminalText(`orchestra: ${suitePath}: ${warning}\n`));
  // The header names the whole suite (its hash, its order), so the parts' files merge.
  const header = evalHeader({ suite: source, tasks: suite.tasks, config, seed, ...(shard ? { shard } : {}) });
  const tasks = shard ? tasksOfShard(suite.tasks, shard) : suite.tasks;
  if (shard) io.stderr.write(`Part ${formatShard(shard)} of the suite: ${formatCount(tasks.length)} of its ${formatCount(suite.tasks.length)} tasks.\n`);
  const domains = suite.tau2 ? [] : loadDomains(tasks, domainDirs);
  const userAlias = suite.tau2 ? tau2UserAlias(config, args.user) : null;
  if (!suite.tau2 && args.user !== undefined) throw new UsageError('--user is for τ² and ToolScale suites (builtin:tau2-retail, …), whose tasks talk with a simulated user.', EVAL_USAGE);
  const missing = missingEvalKeys(config, specs, io.env, userAlias);
  if (missing.length > 0) throw new UsageError(describeMissingKeys(missing));

  const stored = readResults(out);
  const node = await createNodeEnvironment(io.env);
  try {
    const javascript = node.environment.javascript;
    if (!javascript) throw new Error('The CLI environment has no JavaScript sandbox.');
    const environments = await asUsageError<Map<string, TaskDomain>>([DomainError, SuiteError], () =>
      suite.tau2
        ? new Map([[tau2SuiteName(suite.tau2.name), tau2DomainFromConfig(suite.tau2, config, runFactory(node.environment), userAlias, readTau2Guidelines())]])
        : domainEnvironments(domains, tasks, javascript, source),
    );
    const { policies, judge } = await asUsageError(
      [PolicyError],
      () => ({
        policies: createPolicies(specs, { config, runs: runFactory(node.environment), domains: environments, seed }),
        judge: evalJudge(config, runFactory(node.environment), tasks),
      }),
      EVAL_USAGE,
    );
    const append = openResults(out, stored, header, evalPlan(policyDescriptions(policies), rollouts));
    const style = createStyle(colorWanted(io.stderr, io.env));
    const printProgress = createEvalProgress(io.stderr, style);
    const outcome = await runEvaluation({
      tasks,
      policies,
      rollouts,
      concurrency,
      budgetUsd,
      grading: { javascript, domains: environments, ...(judge ? { judge } : {}) },
      previous: stored.records,
      signal: io.signal,
      onRecord: append,
      onProgress: printProgress,
    });
    if (io.stderr.isTTY) io.stderr.write('\r\u001b[K');
    io.stderr.write(formatEvalEnd(outcome));

    const report = summarizeEval({
      taskIds: tasks.map((task) => task.id),
      policies: policyDescriptions(policies),
      rollouts,
      records: outcome.records,
    });
    printReport(report, args, io);

    return exitCodeOf(outcome);
  } finally {
    await node.dispose();
  }
}

/** Interrupted, failed (a rollout stopped on an error, or one is missing) or ok. */
function exitCodeOf(outcome: EvalOutcome): number {
  if (outcome.interrupted) return EXIT_CODES.interrupted;
  const errors = outcome.records.some((record) => record.stopReason === 'error');
  return errors || outcome.missing > 0 ? EXIT_CODES.failed : EXIT_CODES.ok;
}

/** The three files an evaluation cannot go without, each asked for in words. */
function required(args: { config?: string; suite?: string; out?: string }): { config: string; suite: string; out: string } {
  if (!args.config) throw new UsageError('--config <file> is required.', EVAL_USAGE);
  if (!args.suite) throw new UsageError(`--suite <file.jsonl> is required (or builtin:${BUILT_IN_SUITES.join(', builtin:')}).`, EVAL_USAGE);
  if (!args.out) throw new UsageError('--out <file.jsonl> is required: each rollout is appended there as it finishes, so a stopped evaluation resumes.', EVAL_USAGE);
  return { config: args.config, suite: args.suite, out: args.out };
}

/** What `make` returns; an error of one of `kinds` (a bad suite, domain or policy the person
 * named) becomes a usage error that says what is wrong. */
async function asUsageError<T>(kinds: ReadonlyArray<new (...args: never[]) => Error>, make: () => T | Promise<T>, usage?: string): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (kinds.some((kind) => error instanceof kind)) throw new UsageError((error as Error).message, usage);
    throw error;
  }
}

/** --shard i/n; part 0 of 1 is the whole suite. */
function shardOf(text: string | undefined): Shard | null {
  if (text === undefined) return null;
  try {
    const shard = parseShard(text);
    return shard.count === 1 ? null : shard;
  } catch (error) {
    if (error instanceof ShardError) throw new UsageError(error.message, EVAL_USAGE);
    throw error;
  }
}

function parseBudget(text: string | undefined): number | null {
  if (text === undefined) return null;
  const usd = Number(text.replace(/^\$/, ''));
  if (!Number.isFinite(usd) || usd <= 0) throw new UsageError(`--budget must be a positive amount of US dollars, such as 2.50; got "${text}".`, EVAL_USAGE);
  return usd;
}

function policySpecs(names: string[], sweep: string | undefined): PolicySpec[] {
  try {
    const specs = names.map((name) => parsePolicy(name));
    if (sweep !== undefined) specs.push(...sweepPolicies(sweep));
    return specs.length > 0 ? specs : [parsePolicy('orchestrator')];
  } catch (error) {
    if (error instanceof PolicyError) throw new UsageError(error.message, EVAL_USAGE);
    throw error;
  }
}

interface LoadedSuite {
  tasks: SuiteTask[];
  source: string;
  warnings: string[];
  /** A τ² or ToolScale suite's domain. */
  tau2?: LoadedTau2Domain;
}

/** --task and --limit: the suite's tasks to run (the header still names the whole suite's
 * source; its hash covers the tasks chosen, so a resumed run must choose the same). */
function selectTasks(suite: LoadedSuite, ids: string[] | undefined, limit: string | undefined): LoadedSuite {
  let tasks = suite.tasks;
  if (ids && ids.length > 0) {
    const known = new Set(tasks.map((task) => task.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new UsageError(`--task: the suite has no task ${unknown.map((id) => `"${id}"`).join(', ')}.`, EVAL_USAGE);
    tasks = tasks.filter((task) => ids.includes(task.id));
  }
  if (limit !== undefined) tasks = tasks.slice(0, positiveInteger(limit, '--limit', 1, EVAL_USAGE));
  return { ...suite, tasks };
}

/** The config's expert alias whose model plays the simulated user, or null for the scripted user. */
function tau2UserAlias(config: OrchestraConfig, user: string | undefined): string | null {
  const aliases = Object.keys(resolveExperts(config));
  if (user === undefined) {
    throw new UsageError(`A τ² suite needs a simulated user: --user <alias> (one of the config's experts: ${aliases.join(', ') || 'none'}) or --user scripted.`, EVAL_USAGE);
  }
  if (user === 'scripted') return null;
  if (!aliases.includes(user)) throw new UsageError(`--user ${user}: the config has no expert "${user}" (it has ${aliases.join(', ') || 'none'}), nor is it "scripted".`, EVAL_USAGE);
  return user;
}

/** A built-in suite (builtin:corpus, builtin:retail, builtin:clinic, builtin:tau2-retail…) or a JSONL file. */
function loadSuite(spec: string, tau2Options: NodeTau2Options = {}): LoadedSuite {
  if (spec.startsWith('builtin:')) {
    const name = spec.slice('builtin:'.length);
    if (name === 'corpus') return { tasks: corpusSuite(loadNodeSampleTasks()), source: spec, warnings: [] };
    if (isBuiltInDomain(name)) return { tasks: loadDomainDir(builtInDomainDir(name)).tasks, source: spec, warnings: [] };
    const tau2 = tau2DomainOfSuite(name);
    if (tau2) {
      let domain;
      try {
        domain = readTau2Domain(tau2, tau2Options);
      } catch (error) {
        if (error instanceof UserFileError || error instanceof Tau2DomainError) throw new UsageError(error.message, EVAL_USAGE);
        throw error;
      }
      return { tasks: tau2Suite(domain), source: spec, warnings: [], tau2: domain };
    }
    throw new UsageError(`There is no built-in suite "${name}"; built in: ${[...BUILT_IN_SUITES, ...TAU2_SUITE_NAMES].map((s) => `builtin:${s}`).join(', ')}.`);
  }
  const text = readNamedFile(spec, 'the suite', {
    maxBytes: SUITE_LIMITS.fileChars,
    tooLarge: (bytes) => `it is ${formatCount(bytes)} bytes; a suite may hold ${formatCount(SUITE_LIMITS.fileChars)}`,
  });
  try {
    const parsed = parseSuite(text, { source: spec, requireCheck: true });
    return { tasks: parsed.tasks, source: spec, warnings: parsed.warnings };
  } catch (error) {
    if (error instanceof SuiteError) throw new UsageError(error.message);
    throw error;
  }
}

/** The domains the suite's tasks name: the built-in ones, or those in --domain folders (which
 * win over a built-in of the same name). */
function loadDomains(tasks: readonly SuiteTask[], dirs: readonly string[]): Domain[] {
  const wanted = domainsOf(tasks);
  if (wanted.length === 0) return [];
  const byName = new Map<string, Domain>();
  const load = (dir: string) => {
    try {
      return loadDomainDir(dir);
    } catch (error) {
      if (error instanceof DomainError) throw new UsageError(error.message);
      throw error;
    }
  };
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new UsageError(`--domain ${dir}: no such folder.`);
    const domain = load(dir);
    byName.set(domain.name, domain);
  }
  for (const name of wanted) {
    if (byName.has(name)) continue;
    if (!isBuiltInDomain(name)) {
      throw new UsageError(`The suite has tasks of the domain "${name}", which is not built in (${BUILT_IN_DOMAINS.join(', ')}): pass its folder with --domain <dir>.`);
    }
    byName.set(name, load(builtInDomainDir(name)));
  }
  return wanted.map((name) => byName.get(name) as Domain);
}

/** Key variables the evaluation needs and the environment lacks: the run's providers, the judge's,
 * a prompted Qwen3's, and call_expert experts' (domain tasks use them whatever the protocol). */
function missingEvalKeys(config: OrchestraConfig, specs: readonly PolicySpec[], env: NodeJS.ProcessEnv, userAlias: string | null): MissingKey[] {
  const providers = new Set(providersInUse(config));
  const user = userAlias === null ? undefined : resolveExperts(config)[userAlias];
  if (user) providers.add(user.provider);
  if (config.evaluation?.judge) providers.add(config.evaluation.judge.provider);
  for (const spec of specs) if (spec.provider !== undefined) providers.add(spec.provider);
  for (const expert of Object.values(resolveExperts(config))) if (expert.tool === CALL_EXPERT_TOOL || expert.tool === 'answer') providers.add(expert.provider);
  return [...providers].flatMap((name) => {
    const variable = config.providers[name]?.apiKeyEnv;
    return variable !== undefined && !env[variable] ? [{ provider: name, variable }] : [];
  });
}
