// τ²-Bench environments (`npm run bench -- --only tau2-env`): the whole retail database parsed
// once per evaluation, then a fresh environment per rollout (target ≤ 20 ms on full retail), and
// what 16 concurrent rollouts hold in memory after each has played its task's golden
// conversation (writes copy the rows they change; everything else is shared with the parsed
// seed). Also what grading one conversation as τ² grades it takes. It prints figures and asserts
// nothing.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadTau2Domain, type LoadedTau2Domain, type Tau2DomainName } from '../workers/domains/tau2/domains.ts';
import { evaluateConversation } from '../workers/domains/tau2/evaluate.ts';
import { deepCopy } from '../workers/domains/tau2/model.ts';
import { playGolden } from '../workers/domains/tau2/scripted.ts';
import type { Tau2Conversation } from '../workers/domains/tau2/conversation.ts';
import { median } from './stats.ts';

export const TARGET_SETUP_MS = 20;
const SETUPS = 200;
const CONCURRENT = 16;
const DOMAINS_DIR = path.resolve(import.meta.dirname, '../workers/domains/tau2');

export interface Tau2EnvReport {
  retailDbBytes: number;
  parseMs: number;
  setupMs: { retail: number; telecom: number };
  /** A rollout's golden conversation played and graded (two more environments, four hashes). */
  playMs: number;
  gradeMs: number;
  heapMiB: { seed: number; concurrentRollouts: number; perRollout: number; oneFullCopy: number };
  gcExposed: boolean;
}

function load(name: Tau2DomainName): LoadedTau2Domain {
  return loadTau2Domain(name, (file) => readFileSync(path.join(DOMAINS_DIR, name, file), 'utf8'));
}

/** A garbage collection before each heap reading, when V8 lets us ask for one. */
function collector(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function heapMiB(gc: (() => void) | undefined): number {
  gc?.();
  gc?.();
  return v8.getHeapStatistics().used_heap_size / 2 ** 20;
}

export async function runTau2EnvBenchmark(): Promise<Tau2EnvReport> {
  const gc = collector();
  const before = heapMiB(gc);
  const parseTimes: number[] = [];
  let retail = load('retail');
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    retail = load('retail');
    parseTimes.push(performance.now() - started);
  }
  const seed = heapMiB(gc) - before;
  const telecom = load('telecom');

  const setup = (domain: LoadedTau2Domain) => {
    const times: number[] = [];
    for (let i = 0; i < SETUPS; i++) {
      const started = performance.now();
      domain.newEnvironment();
      times.push(performance.now() - started);
    }
    return median(times);
  };
  const setupMs = { retail: setup(retail), telecom: setup(telecom) };

  // 16 rollouts alive at once, each after its task's golden conversation (writes included).
  const baseline = heapMiB(gc);
  const alive: Tau2Conversation[] = [];
  const playTimes: number[] = [];
  const gradeTimes: number[] = [];
  for (let i = 0; i < CONCURRENT; i++) {
    const task = retail.tasks[i]!;
    let started = performance.now();
    const conversation = playGolden(task, retail.newEnvironment());
    playTimes.push(performance.now() - started);
    started = performance.now();
    await evaluateConversation(task, conversation.messages, conversation.termination!, { newEnvironment: () => retail.newEnvironment() });
    gradeTimes.push(performance.now() - started);
    alive.push(conversation);
  }
  const concurrentRollouts = heapMiB(gc) - baseline;
  const copy = deepCopy(retail.newEnvironment().tools.db);
  const oneFullCopy = heapMiB(gc) - baseline - concurrentRollouts;
  if (alive.length !== CONCURRENT || !copy) throw new Error('unreachable');

  return {
    retailDbBytes: readFileSync(path.join(DOMAINS_DIR, 'retail', 'db.json')).length,
    parseMs: median(parseTimes),
    setupMs,
    playMs: median(playTimes),
    gradeMs: median(gradeTimes),
    heapMiB: { seed, concurrentRollouts, perRollout: concurrentRollouts / CONCURRENT, oneFullCopy },
    gcExposed: gc !== undefined,
  };
}

export function formatTau2EnvReport(r: Tau2EnvReport): string {
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const mib = (x: number) => `${x.toFixed(1)} MiB`;
  return [
    `τ² environments (full retail: ${(r.retailDbBytes / 1e6).toFixed(2)} MB db.json; medians)`,
    `  parse once per evaluation        ${ms(r.parseMs)}  (the database held: ${mib(r.heapMiB.seed)})`,
    `  a rollout's environment, retail  ${ms(r.setupMs.retail)}  — ${r.setupMs.retail <= TARGET_SETUP_MS ? 'meets' : 'MISSES'} the ≤ ${TARGET_SETUP_MS} ms target`,
    `  a rollout's environment, telecom ${ms(r.setupMs.telecom)}`,
    `  a golden conversation played     ${ms(r.playMs)};  graded as τ² grades ${ms(r.gradeMs)}`,
    `  ${CONCURRENT} concurrent rollouts          ${mib(r.heapMiB.concurrentRollouts)} beyond the parsed database (${mib(r.heapMiB.perRollout)} each); one full copy of the database would be ${mib(r.heapMiB.oneFullCopy)}`,
    r.gcExposed ? '' : '  (heap figures without a forced garbage collection: rough)',
  ]
    .filter(Boolean)
    .join('\n');
}
