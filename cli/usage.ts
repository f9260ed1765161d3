// Command-line usage: the help texts, exit codes, and argument parsing that turns every mistake
// into a UsageError (printed with the command's usage, exit code 2).

import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT_CODES = {
  /** The run ended normally: answered, or a final message to the user. */
  ok: 0,
  /** The run stopped on an error, a limit or invalid output. */
  failed: 1,
  /** Bad arguments, an unreadable or invalid configuration or run file, a missing API key variable. */
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
  replay     Print the trace of runs saved with "run --save", calling nothing
  reward     Compute the paper's group reward and advantages for a set of rollouts
  eval       Run a suite of tasks under several policies and report accuracy, cost and latency
  validate   Check a configuration file and show what it resolves to
  tasks      Print the built-in sample multi-hop tasks as JSONL
  serve-scripted  Serve a scripted OpenAI-compatible model server (tests, benchmarks, offline demos)

Run "orchestra <command> --help" for the options of a command.
Exit codes: 0 ended normally, 1 the run stopped on an error or a limit, 2 usage,
configuration or run-file error, 130 interrupted (Ctrl-C).`;

export const RUN_USAGE = `Usage:
  orchestra run --config <file> --task "<text>" [--json] [--rollouts N] [--correct "<answer>"]
                [--save <file.json>]
  orchestra run --config <file> --tasks <file.jsonl> --out <file.jsonl> [--concurrency K]

One task:
  --config <file>        the configuration (JSON; see cli/examples/)
  --task <text>          the task to solve
  --json                 print the engine's events as JSON, one per line, then a summary line
  --rollouts <N>         run the task N times and compute the group reward (default 1)
  --correct <answer>     the expected answer; a rollout is correct when its answer equals it
                         after normalisation (case, accents, punctuation, articles and number
                         formatting aside: "558,457" = "558457"). Rewards need it.
  --save <file.json>     write the run (every rollout) to a run file when it ends, also when it
                         stops on an error or Ctrl-C (what was recorded until then; a second
                         Ctrl-C quits without saving). "orchestra replay" prints it again.

A batch:
  --tasks <file.jsonl>   one {"id", "question" or "task", "answer"?} per line (the suite format
                         of "orchestra eval", without domains or other checks)
  --out <file.jsonl>     summaries are appended here as tasks finish; ids already in it are
                         skipped, so an interrupted batch resumes where it stopped
  --concurrency <K>      tasks run at once (default 2)

  -h, --help             show this help

API keys are read from the environment variables the configuration names (apiKeyEnv).
With --rollouts, the summary's top-level figures are the group's: cost, turns and tool counts
summed, latency the group's wall time, the most common answer; each rollout is in "rollouts".`;

export const REPLAY_USAGE = `Usage: orchestra replay <file.json> [--run <id>] [--json]

Prints the runs of a run file (as "orchestra run --save" writes it) as "orchestra run"
printed them: the trace and the result block of each, from the recorded events alone.
Nothing is called: no model, no search, no network. A run cut off before it finished (a
closed tab) prints up to where its log ends.

  --run <id>   only the run with this id
  --json       the recorded events as JSON, one per line, then each finished run's summary
               line, as "orchestra run --json" prints them
  -h, --help   show this help

What the file cannot give is not shown: whether an answer was correct ("run --correct" is not
recorded) and the group reward of rollouts.
Exit codes: 0 every run of the file printed, 1 some runs could not be read and were left out
(each named on stderr; the others printed), 2 the file cannot be read at all, or no run has
that id.`;

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

export const SERVE_SCRIPTED_USAGE = `Usage: orchestra serve-scripted --scenario <file.json> [--port N] [--host H]

Serves an OpenAI-compatible chat completions API (/v1/chat/completions, /v1/models) that answers
with the scenario's scripted replies in order and injects its faults (rate limits, cut streams,
hangs...): what the tests and benchmarks run against, and a model server for trying the
playground offline. Scenarios: e2e/fixtures/scenarios/*.json. Prints its URL, then serves until
Ctrl-C.

Options:
  --scenario <file>  the scenario (required)
  --port <n>         the port (default: any free one)
  --host <h>         the address to listen on (default: 127.0.0.1)`;

export const VALIDATE_USAGE = `Usage: orchestra validate --config <file>

Checks the configuration and prints what it resolves to: the orchestrator, each expert alias
with its model and price, the pricing date, the preference, the limits, and which environment
variable holds each provider's key (whether it is set; never its value). Exit code 2 lists
every field that is wrong.

  --config <file>  the configuration (JSON)
  -h, --help       show this help`;

export const TASKS_USAGE = `Usage: orchestra tasks [--suite corpus|retail|clinic]

Prints the built-in sample multi-hop tasks (answerable from the local corpus) as JSONL:
{"id", "question", "answer"} per line, ready for "orchestra run --tasks" or "orchestra eval".
With --suite, prints that built-in suite in the suite format ({"id", "task", "answer"?,
"check"?, "domain"?, "meta"?}), to copy and edit.

  --suite <name>  corpus (the 50 questions), retail or clinic (a domain's tasks)
  -h, --help      show this help`;

export const EVAL_USAGE = `Usage:
  orchestra eval --config <file> --suite <file.jsonl | builtin:NAME> --out <results.jsonl>
                 [--policy NAME ...] [--sweep presets | cost=W,W,...] [--rollouts N]
                 [--concurrency K] [--seed S] [--budget USD] [--domain DIR ...]
                 [--shard I/N] [--user ALIAS | --user scripted] [--airline-db FILE]
                 [--task ID ...] [--limit N]
                 [--json] [--csv FILE] [--report FILE] [--force]
  orchestra eval merge <results.jsonl> ... --out <all.jsonl> [--json] [--csv FILE] [--report FILE] [--force]

Runs every task of the suite under each policy, N rollouts each, grades each answer with the
task's check, and prints the results: accuracy with its 95% Wilson interval, mean cost and
latency per task, cost per correct answer, tool-call shares, and the Pareto front over cost and
accuracy. docs/evaluation.md explains suites, checks, domains and policies.

  --config <file>         the configuration (JSON; see cli/examples/)
  --suite <file.jsonl>    one {"id", "task", "answer"?, "check"?, "domain"?, "meta"?} per line;
                          or builtin:corpus (50 questions), builtin:retail, builtin:clinic,
                          builtin:tau2-retail, builtin:tau2-telecom, builtin:tau2-airline
                          (τ²-Bench, graded as τ² grades), builtin:toolscale-<domain> (bank, basketball, ecommerce,
                          medicine, movie, railway, restaurant, school, travel, weather)
  --user <alias>          τ² suites: the expert alias of the config whose model plays the
                          simulated user (τ²'s user simulator), or "scripted" (a scripted user
                          that states its reason, acts when asked, and says goodbye)
  --airline-db <file>     builtin:tau2-airline: τ²'s airline db.json (not shipped; from a
                          τ²-Bench checkout, data/tau2/domains/airline/db.json)
  --task <id>             run only this task of the suite; repeat for several
  --limit <N>             run only the suite's first N tasks (after --task)
  --out <file.jsonl>      each rollout is appended here as it finishes; run the same command
                          again to resume (rollouts already there are skipped; those that
                          stopped on an error run again)
  --policy <name>         repeat for several (default: orchestrator):
                            orchestrator, orchestrator@<preset>, orchestrator@cost=<0..1>,
                            strongest, cheapest (that expert answering alone), random,
                            qwen3=<provider>/<model> (a prompted Qwen3 as orchestrator)
  --sweep <spec>          adds orchestrator policies: "presets" (cheapest, balanced,
                          best-answer, fastest) or "cost=0,0.5,1" (a grid over the cost weight)
  --rollouts <N>          rollouts per task and policy (default 1); with 2 or more the report
                          has each task's group rewards and advantages
  --concurrency <K>       rollouts at once (default 2)
  --seed <text>           seeds the random policy (default "0"); the same seed, the same routes
  --budget <usd>          no new rollout starts once this run has spent this much
  --domain <dir>          a domain folder of your own (domain.json, policy.md, db.json,
                          tools.js, tasks.jsonl); repeat for several
  --shard <i/n>           run only part i of n of the suite, counted from 0 (0/4 … 3/4), so n
                          machines share it: --shard $JOB_COMPLETION_INDEX/4 in a Kubernetes
                          Indexed Job. A task's part depends on its id alone. Combine the parts'
                          --out files with "orchestra eval merge" (see "eval merge --help")
  --json                  end with one line {"type":"eval_summary","policies":[…]} instead of the
                          table
  --csv <file>            also write the per-policy table as CSV
  --report <file>         also write the full report as JSON (with per-task groups)
  --force                 let --csv and --report replace a file already there (never one the
                          command reads: the config, the suite, --out)
  -h, --help              show this help

Exit codes: 0 every rollout ran and none stopped on an error (wrong answers are results, not
failures), 1 some stopped on an error or did not run (budget), 2 usage, 130 interrupted.`;

export const EVAL_MERGE_USAGE = `Usage:
  orchestra eval merge <results.jsonl> ... --out <all.jsonl> [--json] [--csv FILE] [--report FILE] [--force]

Combines the results files of one evaluation run in parts (orchestra eval --shard i/n, one part
per machine) into the results file one machine would have written, and prints the report one
machine would have printed: accuracy, cost, pass^k and the rest are computed again from the
rollouts, never from the parts' reports. Files of different evaluations (suite, configuration,
seed, policies or rollouts), a rollout found in two files and a header no evaluation could have
written (a part of more than 10,000, as --shard allows) are refused, naming the files. A
missing part is named; the report then covers the parts given. The merged file resumes as any
results file: "orchestra eval" on it without --shard runs only what is missing.

  --out <file.jsonl>      the merged results file (a new file; never overwritten)
  --json                  end with one line {"type":"eval_summary",…} instead of the table
  --csv <file>            also write the per-policy table as CSV
  --report <file>         also write the full report as JSON (with per-task groups)
  --force                 let --csv and --report replace a file already there (never a results
                          file given, nor --out)
  -h, --help              show this help

Exit codes: 0 every planned rollout is there and none stopped on an error, 1 some are missing or
stopped on an error, 2 usage (a file that does not fit, named).`;

type Options = NonNullable<ParseArgsConfig['options']>;

/** Answers --help: prints the command's usage; the command then ends with this exit code (ok). */
export function printUsage(io: { stdout: { write(text: string): unknown } }, usage: string): number {
  io.stdout.write(`${usage}\n`);
  return EXIT_CODES.ok;
}

/** Parses `argv` strictly (unknown flags, missing values and stray words are errors). */
export function parseCommandArgs<const T extends Options>(argv: string[], options: T, usage: string) {
  return parseCommandLine(argv, options, usage, false).values;
}

/** Parses `argv` strictly, with words that are no flag's value allowed when `positionals`. */
export function parseCommandLine<const T extends Options>(argv: string[], options: T, usage: string, positionals = true) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: positionals });
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
