// `orchestra run`: one task (optionally N rollouts with the group reward) or a batch from JSONL.

import { type OrchestraConfig } from '../workers/engine/config.ts';
import { protocolExperts } from '../workers/engine/configExperts.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { runOrchestration, type RunResult } from '../workers/engine/run.ts';
import { prepareRun } from '../workers/hosts/prepareRun.ts';
import { type PreparedRun } from '../workers/engine/preparedRun.ts';
import { createProgress, parseTasksFile, runBatch } from './batch.ts';
import { readNamedFile } from './files.ts';
import { SUITE_LIMITS } from '../workers/eval/suite.ts';
import { colorWanted, createStyle, jsonLine, terminalValue } from './format.ts';
import { loadConfig } from './loadConfig.ts';
import { createNodeEnvironment, describeMissingKeys, missingKeys } from './nodeEnvironment.ts';
import { checkSavePath, saveRunFile } from './runFiles.ts';
import { createRunWatcher, NORMAL_STOPS, summarizeGroup, summarizeRun, type RunSummary } from './summary.ts';
import { createRunPrinter, formatGroupBlock, formatRunHeader } from './trace.ts';
import { EXIT_CODES, parseCommandArgs, positiveInteger, printUsage, RUN_USAGE, UsageError } from './usage.ts';
import type { CliIo } from './io.ts';

const RUN_OPTIONS = {
  config: { type: 'string' },
  task: { type: 'string' },
  json: { type: 'boolean' },
  rollouts: { type: 'string' },
  correct: { type: 'string' },
  tasks: { type: 'string' },
  out: { type: 'string' },
  save: { type: 'string' },
  concurrency: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommandArgs(argv, RUN_OPTIONS, RUN_USAGE);
  if (args.help) return printUsage(io, RUN_USAGE);
  if (!args.config) throw new UsageError('--config <file> is required.', RUN_USAGE);
  if ((args.task === undefined) === (args.tasks === undefined)) {
    throw new UsageError('Give either --task "<text>" (one task) or --tasks <file.jsonl> (a batch).', RUN_USAGE);
  }
  const batch = args.tasks !== undefined;
  const onlyFor = (flags: Array<[string, unknown]>, mode: string) => {
    for (const [flag, value] of flags) {
      if (value !== undefined) throw new UsageError(`${flag} only goes with ${mode}.`, RUN_USAGE);
    }
  };
  if (batch) {
    onlyFor([['--json', args.json], ['--rollouts', args.rollouts], ['--correct', args.correct], ['--save', args.save]], '--task');
    if (!args.out) throw new UsageError('A batch needs --out <file.jsonl> for its results.', RUN_USAGE);
  } else {
    onlyFor([['--out', args.out], ['--concurrency', args.concurrency]], '--tasks');
    if (!args.task?.trim()) throw new UsageError('--task must not be empty.', RUN_USAGE);
  }
  const rollouts = positiveInteger(args.rollouts, '--rollouts', 1, RUN_USAGE);
  const concurrency = positiveInteger(args.concurrency, '--concurrency', 2, RUN_USAGE);
  if (args.save !== undefined) checkSavePath(args.save, RUN_USAGE);

  const config = await loadConfig(args.config);
  const tasks = batch ? parseTasksFile(readTasksText(args.tasks ?? ''), args.tasks ?? '') : [];
  const missing = missingKeys(config, io.env);
  if (missing.length > 0) throw new UsageError(describeMissingKeys(missing));

  const node = await createNodeEnvironment(io.env);
  try {
    // Each run gets its own parts (PreparedRun); this first one refuses a configuration that cannot
    // run before anything starts, and gives what every run shares (preference, counterfactual).
    const prepared = prepareRun(config, node.environment);
    const prepare = () => prepareRun(config, node.environment);
    if (batch) {
      return await runBatchCommand({ config, prepared, prepare, tasks, outPath: args.out ?? '', concurrency, io });
    }
    return await runSingle({
      config,
      prepared,
      prepare,
      task: args.task ?? '',
      json: args.json === true,
      rollouts,
      expected: args.correct,
      save: args.save,
      io,
    });
  } finally {
    await node.dispose();
  }
}

function readTasksText(path: string): string {
  return readNamedFile(path, 'the tasks file', { maxBytes: SUITE_LIMITS.fileChars });
}

function runPrepared(
  prepared: PreparedRun,
  task: string,
  signal: AbortSignal,
  onEvent: (event: RunEvent) => void,
): Promise<RunResult> {
  return runOrchestration({ ...prepared, task, signal, onEvent });
}

function exitCodeFor(stops: readonly RunSummary['stopReason'][], interrupted: boolean): number {
  if (interrupted || stops.includes('aborted')) return EXIT_CODES.interrupted;
  return stops.every((stop) => NORMAL_STOPS.has(stop)) ? EXIT_CODES.ok : EXIT_CODES.failed;
}

async function runSingle(options: {
  config: OrchestraConfig;
  prepared: PreparedRun;
  prepare: () => PreparedRun;
  task: string;
  json: boolean;
  rollouts: number;
  expected: string | undefined;
  save: string | undefined;
  io: CliIo;
}): Promise<number> {
  const { prepared, io } = options;
  const style = createStyle(colorWanted(io.stdout, io.env));
  const runs: Array<{ result: RunResult; error?: string; summary: RunSummary }> = [];
  const started = performance.now();

  // Every rollout's events, for --save: what was recorded is saved however the loop ends.
  const logs: RunEvent[][] = [];
  try {
    for (let i = 0; i < options.rollouts && !io.signal.aborted; i++) {
      if (!options.json && options.rollouts > 1) io.stdout.write(formatRunHeader(`Rollout ${i + 1}/${options.rollouts}`, style));
      const printer = createRunPrinter(io.stdout, style, options.json);
      const events: RunEvent[] = [];
      logs.push(events);
      const result = await runPrepared(options.prepare(), options.task, io.signal, (event) => {
        if (options.save !== undefined) events.push(event);
        printer.onEvent(event);
      });
      const summary = printer.finish(result, { counterfactualModel: prepared.counterfactualModel, expected: options.expected });
      // A rollout stopped by Ctrl-C is no sample of the task: it must not enter the reward as a loss.
      if (result.stopReason !== 'aborted') runs.push(summary.error === undefined ? { result, summary } : { result, error: summary.error, summary });
    }
  } finally {
    if (options.save !== undefined) reportSaved(options.save, saveRunFile(options.save, logs, prepared.secrets), io);
  }

  const first = runs[0];
  if (!first) return EXIT_CODES.interrupted;
  let summary: RunSummary;
  if (options.rollouts === 1) {
    summary = first.summary;
  } else {
    const group = summarizeGroup(runs, {
      expected: options.expected,
      preference: prepared.preference,
      expertTools: new Set(protocolExperts(options.config).map(([, expert]) => expert.tool)),
      counterfactualModel: prepared.counterfactualModel,
      wallMs: Math.round(performance.now() - started),
      interrupted: io.signal.aborted ? { ran: runs.length, asked: options.rollouts } : undefined,
    });
    if (!options.json) io.stdout.write(formatGroupBlock(terminalValue(group), style));
    summary = group;
  }
  if (options.json) io.stdout.write(`${jsonLine(summary)}\n`);
  return exitCodeFor(
    runs.map(({ result }) => result.stopReason),
    io.signal.aborted,
  );
}

function reportSaved(path: string, runs: number, io: CliIo): void {
  io.stderr.write(
    runs === 0
      ? `Nothing was recorded: "${path}" was not written.\n`
      : `Saved ${runs === 1 ? 'the run' : `${runs} runs`} to ${path} ("orchestra replay ${path}" prints ${runs === 1 ? 'it' : 'them'} again).\n`,
  );
}

async function runBatchCommand(options: {
  config: OrchestraConfig;
  prepared: PreparedRun;
  prepare: () => PreparedRun;
  tasks: ReturnType<typeof parseTasksFile>;
  outPath: string;
  concurrency: number;
  io: CliIo;
}): Promise<number> {
  const { prepared, io } = options;
  const outcome = await runBatch({
    tasks: options.tasks,
    outPath: options.outPath,
    concurrency: options.concurrency,
    signal: io.signal,
    progress: createProgress(io.stderr, createStyle(colorWanted(io.stderr, io.env))),
    async runOne(task, signal) {
      const watcher = createRunWatcher();
      const result = await runPrepared(options.prepare(), task.task, signal, watcher.onEvent);
      return summarizeRun(result, {
        counterfactualModel: prepared.counterfactualModel,
        error: watcher.fatalError(),
        expected: task.answer,
      });
    },
  });
  if (outcome.interrupted) return EXIT_CODES.interrupted;
  return outcome.failed > 0 ? EXIT_CODES.failed : EXIT_CODES.ok;
}
