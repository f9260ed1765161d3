// `orchestra serve-scripted`: the scripted OpenAI-compatible server (scriptedServer.ts) as a
// process, for trying the playground or the CLI with no model server, and for scripts.

import { readNamedFile } from './files.ts';
import type { CliIo } from './io.ts';
import { EXIT_CODES, parseCommandArgs, printUsage, SERVE_SCRIPTED_USAGE, UsageError } from './usage.ts';
import { parseScenario, type Scenario } from './scripted/scenario.ts';
import { startScriptedServer } from './scripted/scriptedServer.ts';

function readScenario(path: string): Scenario {
  const text = readNamedFile(path, 'the scenario', { maxBytes: 64 * 1024 * 1024 });
  try {
    return parseScenario(JSON.parse(text));
  } catch (error) {
    throw new UsageError(`The scenario ${path} is not valid: ${(error as Error).message}`);
  }
}

/** Serves until the CLI's signal aborts (Ctrl-C, or SIGTERM), then closes and exits 0. */
export async function serveScriptedCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommandArgs(
    argv,
    { help: { type: 'boolean', short: 'h' }, scenario: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } } as const,
    SERVE_SCRIPTED_USAGE,
  );
  if (args.help) return printUsage(io, SERVE_SCRIPTED_USAGE);
  if (args.scenario === undefined) throw new UsageError('--scenario is required.', SERVE_SCRIPTED_USAGE);
  const port = args.port === undefined ? 0 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, got "${args.port}".`, SERVE_SCRIPTED_USAGE);
  const scenario = readScenario(args.scenario);
  const server = await startScriptedServer({ scenario, port, ...(args.host === undefined ? {} : { host: args.host }) });
  io.stdout.write(`${server.url}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return EXIT_CODES.ok;
}
