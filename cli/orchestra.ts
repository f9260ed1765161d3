// The command-line runner: `npm run orchestra -- <command>` (run, replay, eval, reward, validate,
// tasks, serve-scripted).
// It drives the same engine as the playground, from Node.

import { pathToFileURL } from 'node:url';
import { BUILT_IN_DOMAINS, builtInDomainDir, loadDomainDir } from './nodeDomains.ts';
import { loadNodeSampleTasks } from '../tools/search/nodeCorpus.ts';
import { corpusSuite, suiteToJsonl } from '../workers/eval/suite.ts';
import { evalCommand } from './evalCommand.ts';
import type { CliIo } from './io.ts';
import { jsonLine, terminalText } from './format.ts';
import { replayCommand } from './replayCommand.ts';
import { rewardCommand } from './rewardCommand.ts';
import { runCommand } from './runCommand.ts';
import { serveScriptedCommand } from './serveScriptedCommand.ts';
import { EXIT_CODES, MAIN_USAGE, parseCommandArgs, printUsage, TASKS_USAGE, UsageError } from './usage.ts';
import { validateCommand } from './validateCommand.ts';

async function tasksCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommandArgs(argv, { help: { type: 'boolean', short: 'h' }, suite: { type: 'string' } } as const, TASKS_USAGE);
  if (args.help) return printUsage(io, TASKS_USAGE);
  if (args.suite === undefined) {
    for (const task of loadNodeSampleTasks()) io.stdout.write(`${jsonLine(task)}\n`);
  } else if (args.suite === 'corpus') {
    io.stdout.write(suiteToJsonl(corpusSuite(loadNodeSampleTasks())));
  } else if ((BUILT_IN_DOMAINS as readonly string[]).includes(args.suite)) {
    io.stdout.write(suiteToJsonl(loadDomainDir(builtInDomainDir(args.suite as (typeof BUILT_IN_DOMAINS)[number])).tasks));
  } else {
    throw new UsageError(`--suite must be corpus, ${BUILT_IN_DOMAINS.join(' or ')}; got "${args.suite}".`, TASKS_USAGE);
  }
  return EXIT_CODES.ok;
}

const COMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<number>> = {
  run: runCommand,
  replay: replayCommand,
  eval: evalCommand,
  reward: rewardCommand,
  validate: validateCommand,
  tasks: tasksCommand,
  'serve-scripted': serveScriptedCommand,
};

/** Runs one command line and returns the exit code; never throws for a user's mistake. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? io.stderr : io.stdout).write(`${MAIN_USAGE}\n`);
    return command === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  const handler = COMMANDS[command];
  try {
    if (!handler) throw new UsageError(`Unknown command "${command}".`, MAIN_USAGE);
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      // A message may quote a file or a server: the terminal gets it as text.
      io.stderr.write(`orchestra: ${terminalText(error.message)}\n${error.usage ? `\n${error.usage}\n` : ''}`);
      return EXIT_CODES.usage;
    }
    io.stderr.write(`orchestra: ${terminalText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    return EXIT_CODES.failed;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const controller = new AbortController();
  // `orchestra tasks | head`: a closed pipe is the reader's choice, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_CODES.ok);
    throw error;
  });
  const canWindDown = process.argv[2] === 'run' || process.argv[2] === 'eval';
  const serving = process.argv[2] === 'serve-scripted';
  process.on('SIGINT', () => {
    // Only `run` and `eval` have calls to cancel and results to keep, and a server its sockets to
    // close; anything else stops at once.
    if (serving) return controller.abort();
    if (!canWindDown || controller.signal.aborted) process.exit(EXIT_CODES.interrupted);
    process.stderr.write('\nStopping: in-flight calls are being cancelled (Ctrl-C again to quit at once).\n');
    controller.abort();
  });
  if (serving) process.on('SIGTERM', () => controller.abort());
  const io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: controller.signal, readStdin };
  const code = await main(process.argv.slice(2), io);
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  // Keep-alive sockets or a worker still winding down must not hold the process open.
  process.exit(code);
}
