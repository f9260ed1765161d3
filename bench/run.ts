// `npm run bench`: prints the benchmark figures and their targets. Record them in
// docs/benchmarks.md with the command and the machine they came from.
//
//   npm run bench                                  engine, evaluation, τ² environments, bundle size, the 500-step streaming run and the sandboxes
//   npm run bench -- --only engine|eval|ui|bundle|stream|sandbox
//   npm run bench -- --only ui --steps 50          a quick streaming check
//   npm run bench -- --only ui --dist dist         measure and serve an existing build
//   npm run bench -- --only sandbox --dist dist-e2e  the same with the harness pages (vite build --mode e2e)
//   npm run bench -- --only stream --profile       say where long tasks spend their time
//   npm run bench -- --only first-screen           seconds to a clickable "Try the demo", 5 fresh loads
//   npm run bench -- --only history                the History list with 5,000 stored runs
//   npm run bench -- --only eval-ui                the Evaluate tab running 200 tasks at concurrency 8 (--profile too)
//   npm run bench -- --only gguf                   llama.cpp (wllama) on the CPU: our worker and ChatModel against wllama directly,
//                                                  then issue 25's targets (context reuse, the grammar's cost, native llama.cpp, split-file memory)
//   npm run bench -- --only gguf --gguf targets    the targets alone
//   npm run bench -- --only gguf --gguf anchor     of the targets, wasm against native llama.cpp and the memory while a model loads
//   npm run bench -- --only tau2-env               τ²-Bench: full retail parsed once, a rollout's environment, 16 rollouts' memory
//   npm run bench -- --json

import os from 'node:os';
import { parseArgs } from 'node:util';
import { runEngineBenchmarks } from './engine.bench.ts';
import { formatHistoryReport, runHistoryBenchmark } from './history.bench.ts';
import { formatFirstScreenReport, runFirstScreenBenchmark } from './firstScreen.bench.ts';
import { formatEvalReport, runEvalBenchmarks } from './eval.bench.ts';
import { formatEvalUiReport, runEvalUiBenchmark } from './evalUi.bench.ts';
import { formatGgufReport, runGgufBenchmark } from './gguf.bench.ts';
import { formatGgufTargetsReport, runGgufTargets } from './ggufTargets.bench.ts';
import { buildApp } from './previewServer.ts';
import { rm } from 'node:fs/promises';
import { formatSandboxReport, runSandboxBenchmarks } from './sandbox.bench.ts';
import { formatTau2EnvReport, runTau2EnvBenchmark } from './tau2.bench.ts';
import { formatUiReport, runUiBenchmarks } from './ui.bench.ts';

const TARGET_TURN_OVERHEAD_MS = 0.2;
const TARGET_CONTEXT_MS = 2;
const PARTS = ['engine', 'eval', 'ui', 'bundle', 'stream', 'sandbox', 'history', 'eval-ui', 'gguf', 'tau2-env', 'first-screen'] as const;
type Part = (typeof PARTS)[number];

const fmt = (ms: number) => `${ms.toFixed(4)} ms`;

interface BenchOptions {
  only: Part | undefined;
  steps: number;
  distDir: string | undefined;
  profile: boolean;
  json: boolean;
  /** `--gguf targets`: only issue 25's targets of the GGUF bench; `anchor`: of those, only native
   * llama.cpp's comparison and the memory while a model loads. */
  gguf: 'all' | 'targets' | 'anchor';
}

function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      steps: { type: 'string', default: '500' },
      dist: { type: 'string' },
      profile: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      gguf: { type: 'string', default: 'all' },
    },
    strict: true,
  });
  const only = values.only;
  if (only !== undefined && !(PARTS as readonly string[]).includes(only)) {
    throw new Error(`--only must be one of ${PARTS.join(', ')} (got "${only}").`);
  }
  const steps = Number(values.steps);
  if (!Number.isInteger(steps) || steps < 1 || steps > 500) throw new Error(`--steps must be a whole number from 1 to 500 (got "${values.steps}").`);
  if (values.gguf !== 'all' && values.gguf !== 'targets' && values.gguf !== 'anchor') throw new Error(`--gguf must be all, targets or anchor (got "${values.gguf}").`);
  return { only: only as Part | undefined, steps, distDir: values.dist, profile: values.profile, json: values.json, gguf: values.gguf };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const wants = (part: Part) =>
    options.only === undefined || options.only === part || (options.only === 'ui' && (part === 'bundle' || part === 'stream'));
  const log = (line: string) => console.error(line);

  const engine = wants('engine') ? await runEngineBenchmarks() : undefined;
  const evaluation = wants('eval') ? await runEvalBenchmarks() : undefined;
  const tau2Env = wants('tau2-env') ? await runTau2EnvBenchmark() : undefined;
  const ui =
    wants('bundle') || wants('stream')
      ? await runUiBenchmarks({
          bundle: wants('bundle'),
          streaming: wants('stream'),
          steps: options.steps,
          profile: options.profile,
          log,
          ...(options.distDir !== undefined ? { distDir: options.distDir } : {}),
        })
      : undefined;
  const sandbox = wants('sandbox')
    ? await runSandboxBenchmarks({ log, ...(options.distDir !== undefined ? { distDir: options.distDir } : {}) })
    : undefined;

  const firstScreen = wants('first-screen')
    ? await runFirstScreenBenchmark({ log, ...(options.distDir !== undefined ? { distDir: options.distDir } : {}) })
    : undefined;

  const history = wants('history')
    ? await runHistoryBenchmark({ log, ...(options.distDir !== undefined ? { distDir: options.distDir } : {}) })
    : undefined;
  // Minutes of a browser evaluating: only when asked for.
  const evalUi =
    options.only === 'eval-ui'
      ? await runEvalUiBenchmark({ log, profile: options.profile, ...(options.distDir !== undefined ? { distDir: options.distDir } : {}) })
      : undefined;

  // Minutes of llama.cpp on the CPU: only when asked for.
  let gguf: Awaited<ReturnType<typeof runGgufBenchmark>> | undefined;
  let ggufTargets: Awaited<ReturnType<typeof runGgufTargets>> | undefined;
  if (options.only === 'gguf') {
    if (options.distDir === undefined) log('Building the app (vite build --mode e2e) for the GGUF harness pages …');
    const distDir = options.distDir ?? (await buildApp({ harness: true }));
    try {
      if (options.gguf === 'all') gguf = await runGgufBenchmark({ log, distDir });
      ggufTargets = await runGgufTargets({ log, distDir, anchorOnly: options.gguf === 'anchor' });
    } finally {
      if (options.distDir === undefined) await rm(distDir, { recursive: true, force: true });
    }
  }

  if (options.json) {
    console.log(JSON.stringify({ machine: machine(), date: new Date().toISOString(), engine, evaluation, tau2Env, ui, sandbox, firstScreen, history, evalUi, gguf, ggufTargets }, null, 2));
    return;
  }
  console.log(`Benchmarks on ${machine()}, ${new Date().toISOString().slice(0, 10)}\n`);
  if (engine) printEngine(engine);
  if (engine && evaluation) console.log('');
  if (evaluation) console.log(formatEvalReport(evaluation));
  if (tau2Env) console.log(`${engine || evaluation ? '\n' : ''}${formatTau2EnvReport(tau2Env)}`);
  if ((engine || evaluation) && ui) console.log('');
  if (ui) console.log(formatUiReport(ui));
  if ((engine || evaluation || ui) && sandbox) console.log('');
  if (sandbox) console.log(formatSandboxReport(sandbox));
  if (history) console.log(`\n${formatHistoryReport(history)}`);
  if (firstScreen) console.log(`\n${formatFirstScreenReport(firstScreen)}`);
  if (evalUi) console.log(formatEvalUiReport(evalUi));
  if (gguf) console.log(formatGgufReport(gguf));
  if (ggufTargets) console.log(formatGgufTargetsReport(ggufTargets));
}

function printEngine(engine: Awaited<ReturnType<typeof runEngineBenchmarks>>) {
  console.log(`Engine benchmarks (${engine.runsPerMeasurement} runs × ${engine.turnsPerRun} turns per measurement, median of 5, zero-latency doubles)\n`);
  for (const loop of engine.loops) {
    const verdict = loop.overheadPerTurnMs < TARGET_TURN_OVERHEAD_MS ? 'meets' : 'MISSES';
    console.log(loop.name);
    console.log(`  engine per turn     ${fmt(loop.enginePerTurnMs)}  (${loop.eventsPerTurn.toFixed(1)} events per turn)`);
    console.log(`  bare loop per turn  ${fmt(loop.barePerTurnMs)}`);
    console.log(`  engine overhead     ${fmt(loop.overheadPerTurnMs)}  ratio ${loop.ratio.toFixed(1)}×  — ${verdict} the < ${TARGET_TURN_OVERHEAD_MS} ms target\n`);
  }
  const c = engine.context;
  const verdict = c.totalMs < TARGET_CONTEXT_MS ? 'meets' : 'MISSES';
  console.log(`24k-token context: render ${(c.promptChars / 1024).toFixed(0)} KB prompt ${fmt(c.renderMs)} + parse ${(c.replyChars / 1024).toFixed(0)} KB reply ${fmt(c.parseMs)}`);
  console.log(`  = ${fmt(c.totalMs)} — ${verdict} the < ${TARGET_CONTEXT_MS} ms target`);
}

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${cpu.trim()}, ${os.cpus().length} cores, Node ${process.version}`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
