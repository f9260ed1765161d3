// `orchestra replay`: the runs of a run file printed as `orchestra run` printed them, from their
// events alone. It builds no backend and no sandbox: nothing here can call out.

import type { RunEventOf } from '../workers/engine/events.ts';
import { resultOf, summarize } from '../workers/history/runLog.ts';
import type { RunFileRun } from '../workers/history/runFile.ts';
import { colorWanted, createStyle, jsonLine, oneLine, terminalText, type Style } from './format.ts';
import type { CliIo } from './io.ts';
import { loadRunFile } from './runFiles.ts';
import { createRunPrinter, formatRunHeader } from './trace.ts';
import { EXIT_CODES, parseCommandLine, printUsage, REPLAY_USAGE, UsageError } from './usage.ts';

const REPLAY_OPTIONS = {
  run: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function replayCommand(argv: string[], io: CliIo): Promise<number> {
  const { values: args, positionals } = parseCommandLine(argv, REPLAY_OPTIONS, REPLAY_USAGE);
  if (args.help) return printUsage(io, REPLAY_USAGE);
  const [path, ...extra] = positionals;
  if (path === undefined) throw new UsageError('Name the run file to replay.', REPLAY_USAGE);
  if (extra.length > 0) throw new UsageError(`One run file at a time; got also "${extra.join('", "')}".`, REPLAY_USAGE);

  const outcome = loadRunFile(path);
  if (!outcome.ok) {
    throw new UsageError(`Cannot replay "${path}":\n${outcome.problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  for (const warning of outcome.warnings) io.stderr.write(terminalText(`orchestra: ${path}: ${warning}\n`));

  let runs = outcome.runs;
  if (args.run !== undefined) {
    runs = runs.filter((run) => run.id === args.run);
    if (runs.length === 0) {
      const ids = outcome.runs.map((run) => run.id);
      const listed = ids.length > 10 ? `${ids.slice(0, 10).join(', ')}, …` : ids.join(', ');
      throw new UsageError(`"${path}" holds no run with the id "${args.run}"; its runs: ${listed}.`);
    }
  }

  const style = createStyle(colorWanted(io.stdout, io.env));
  runs.forEach((run, index) => {
    if (!args.json && runs.length > 1) io.stdout.write(formatRunHeader(`Run ${index + 1}/${runs.length} · ${oneLine(run.name ?? run.id, 80)}`, style));
    replayRun(run, args.json === true, style, io);
  });
  return args.run === undefined && outcome.leftOut > 0 ? EXIT_CODES.failed : EXIT_CODES.ok;
}

function replayRun(run: RunFileRun, json: boolean, style: Style, io: CliIo): void {
  const printer = createRunPrinter(io.stdout, style, json);
  for (const event of run.events) printer.onEvent(event);
  const result = resultOf(run.events);
  if (result) {
    // readRunFile has checked that a run begins with run_started.
    const start = run.events[0] as RunEventOf<'run_started'>;
    const summary = printer.finish(result, { counterfactualModel: start.counterfactualModel ?? undefined });
    if (json) io.stdout.write(`${jsonLine(summary)}\n`);
    return;
  }
  const steps = summarize(null, run.events)?.steps ?? 0;
  const note = `The log ends at step ${steps}, before the run finished: it was cut off (the tab or the process closed while it ran).`;
  if (json) io.stderr.write(terminalText(`orchestra: run ${run.id}: ${note}\n`));
  else io.stdout.write(`\n${style.bold('── Interrupted ──')}\n${style.yellow(note)}\n`);
}
