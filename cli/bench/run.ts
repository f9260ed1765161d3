// `npm run bench`: prints the benchmark figures and their targets. Record them in
// docs/benchmarks.md with the command and the machine they came from.

import os from 'node:os';
import { runEngineBenchmarks } from './engine.bench.ts';

const TARGET_TURN_OVERHEAD_MS = 0.2;
const TARGET_CONTEXT_MS = 2;

const fmt = (ms: number) => `${ms.toFixed(4)} ms`;

async function main() {
  const json = process.argv.includes('--json');
  const engine = await runEngineBenchmarks();
  if (json) {
    console.log(JSON.stringify({ machine: machine(), engine }, null, 2));
    return;
  }
  console.log(`Engine benchmarks on ${machine()}`);
  console.log(`(${engine.runsPerMeasurement} runs × ${engine.turnsPerRun} turns per measurement, median of 5, zero-latency doubles)\n`);
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

await main();
