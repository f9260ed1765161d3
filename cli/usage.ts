// Command-line usage: the help texts, exit codes, and argument parsing that turns every mistake
// into a UsageError (printed with the command's usage, exit code 2).

import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT_CODES = {
  /** The run ended normally: answered, or a final message to the user. */
  ok: 0,
  /** The run stopped on an error, a limit or invalid output. */
  failed: 1,
  /** Bad arguments, an unreadable or invalid configuration, a missing API key variable. */
  usage: 2,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    /** The usage text to print after the message, when it helps. */
    readonly usage?: string,
  ) {
    super(message);
  }
}

export const MAIN_USAGE = `Usage: orchestra <command> [options]

Commands:
  run        Run a task (or a batch of tasks) through the orchestrator, with a live trace
  reward     Compute the paper's group reward and advantages for a set of rollouts
  validate   Check a configuration file and show what it resolves to
  tasks      Print the built-in sample multi-hop tasks as JSONL

Run "orchestra <command> --help" for the options of a command.
Exit codes: 0 ended normally, 1 the run stopped on an error or a limit, 2 usage or
configuration error, 130 interrupted (Ctrl-C).`;

export const RUN_USAGE = `Usage:
  orchestra run --config <file> --task "<text>" [--json] [--rollouts N] [--correct "<answer>"]
  orchestra run --config <file> --tasks <file.jsonl> --out <file.jsonl> [--concurrency K]

One task:
  --config <file>        the configuration (JSON; see cli/examples/)
  --task <text>          the task to solve
  --json                 print the engine's events as JSON, one per line, then a summary line
  --rollouts <N>         run the task N times and compute the group reward (default 1)
  --correct <answer>     the expected answer; a rollout is correct when its answer equals it
                         (case-insensitive, trimmed). Rewards need it.

A batch:
  --tasks <file.jsonl>   one {"id", "question" or "task", "answer"?} per line
  --out <file.jsonl>     summaries are appended here as tasks finish; ids already in it are
                         skipped, so an interrupted batch resumes where it stopped
  --concurrency <K>      tasks run at once (default 2)

  -h, --help             show this help

API keys are read from the environment variables the configuration names (apiKeyEnv).
With --rollouts, the summary's top-level figures are the group's: cost, turns and tool counts
summed, latency the group's wall time, the most common answer; each rollout is in "rollouts".`;

export const REWARD_USAGE = `Usage: orchestra reward --input <file.json | ->

Computes the paper's reward over one group of rollouts of the same task and prints JSON:
{ rewards, advantages, mean, std, lowSpread, tooSmall, normalized, skippedFeatures }.

The input:
  { "preference": "balanced" | { "outcome", "cost", "latency", "tools": { "<alias>": w } },
    "rollouts": [ { "toolCounts": { "search-1": 2 }, "correct": true, "costUsd": 0.01, "latencyMs": 1200 } ] }
Preset names: cheapest, balanced, best-answer, fastest. The "rollouts" of a
"orchestra run --rollouts N --correct ... --json" summary can be used as they are.

  --input <file>   the input JSON ("-" reads standard input)
  -h, --help       show this help`;

export const VALIDATE_USAGE = `Usage: orchestra validate --config <file>

Checks the configuration and prints what it resolves to: the orchestrator, each expert alias
with its model and price, the pricing date, the preference, the limits, and which environment
variable holds each provider's key (whether it is set; never its value). Exit code 2 lists
every field that is wrong.

  --config <file>  the configuration (JSON)
  -h, --help       show this help`;

export const TASKS_USAGE = `Usage: orchestra tasks

Prints the built-in sample multi-hop tasks (answerable from the local corpus) as JSONL:
{"id", "question", "answer"} per line, ready for "orchestra run --tasks".

  -h, --help  show this help`;

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses `argv` strictly (unknown flags, missing values and stray words are errors). */
export function parseCommandArgs<const T extends Options>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), usage);
  }
}

/** A whole number ≥ 1 from a flag's text. */
export function positiveInteger(value: string | undefined, flag: string, fallback: number, usage: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new UsageError(`${flag} must be a whole number of at least 1, got "${value}".`, usage);
  }
  return parsed;
}
