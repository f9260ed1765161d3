// The sandboxes' measured limits (run with `npm run bench -- --only sandbox`): the browser Python
// runner (Pyodide) and the JavaScript runner (QuickJS), each in its worker, driven in Chromium
// through the production build's harness pages (e2e/harness/). Prints figures; asserts only that
// each run ended the way it should, so a figure never comes from a run that did something else.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { CalculatorHarness } from '../e2e/harness/calculator.ts';
import type { JavaScriptHarness } from '../e2e/harness/javascript.ts';
import type { PythonHarness } from '../e2e/harness/python.ts';
import type { CalculatorRunResult } from '../workers/engine/ports.ts';
import type { JsRunResult } from '../workers/engine/ports.ts';
import type { PythonRunResult } from '../workers/engine/ports.ts';
import { buildApp, chromiumPath, startPreview } from './previewServer.ts';
import { summarize, type Summary } from './stats.ts';

export const SANDBOX_LIMIT_MS = 500;
/** Fresh browser contexts per cold-start figure. */
export const COLD_SAMPLES = 3;
/** Runs per figure on a warm page. */
export const RUN_SAMPLES = 7;

const PYTHON_HARNESS = '/e2e/harness/python.html';
const JAVASCRIPT_HARNESS = '/e2e/harness/javascript.html';
const CALCULATOR_HARNESS = '/e2e/harness/calculator.html';
/** Allowed by every cap and slow (from e2e/security/calculator.spec.ts): only the deadline stops it. */
const CALCULATOR_RUNAWAY = Array.from({ length: 60 }, () => 'setUnion(1:200, 1:200)').join('; ');
const PYTHON_LOOP = 'print("looping", flush=True)\nwhile True: pass';
const JS_LOOP = 'while(true){}';
/** From e2e/javascript-sandbox.spec.ts: fills the guest's 64 MiB heap. */
const JS_MEMORY_BOMB = 'const keep = []; while (true) keep.push(new Array(10000).fill(keep.length));';
const JS_MEMORY_BOMB_TIMEOUT_MS = 20_000;
/** From the spec: one call into QuickJS that never polls the deadline, so only the host's backstop stops it. */
const JS_STUCK_NATIVE_CALL = '"a".repeat(1e6).indexOf("a".repeat(5e5) + "b")';

export interface SandboxBenchOptions {
  /** An existing build to serve; otherwise the app is built into a temporary folder. */
  distDir?: string;
  /** Progress lines (stderr). */
  log: (line: string) => void;
}

/** A runaway run: how long past its limit its result came back, and how long after that the next
 * run's result did. */
export interface StopFigures {
  pastLimitMs: Summary;
  nextRunMs: Summary;
}

export interface PythonStopFigures extends StopFigures {
  crossOriginIsolated: boolean;
  /** Runs whose output printed before the stop came back (only an interrupt can keep it). */
  outputKept: number;
}

/** What a fresh interpreter per run costs: every run gets a new worker, booted in the background. */
export interface FreshInterpreterFigures {
  /** A trivial run while the spare is booted and waiting: the usual case. */
  spareReadyMs: Summary;
  /** A trivial run asked for the moment the previous one returned: it waits for the spare's boot. */
  backToBackMs: Summary;
}

export interface SandboxBenchResult {
  chromium: string;
  pyodideVersion: string;
  quickjsVersion: string;
  limitMs: number;
  coldSamples: number;
  runSamples: number;
  python: {
    /** warmUp() from its call to Pyodide ready, in a fresh browser context (empty cache). */
    coldBootMs: Summary;
    fresh: FreshInterpreterFigures;
    terminate: PythonStopFigures;
    interrupt: PythonStopFigures;
    secondVisit: SecondVisitFigures;
  };
  javascript: {
    /** The first run (`1 + 1`) of a fresh page: worker start and QuickJS load, plus the run. */
    workerStartMs: Summary;
    /** `1 + 1` on a warm worker, for reference. */
    warmRunMs: Summary;
    loop: StopFigures & { error: string };
    memoryBomb: { errorMs: Summary; error: string; nextRunMs: Summary };
    backstop: StopFigures & { error: string };
  };
  calculator: {
    /** The first `1 + 1` of a fresh page: worker start and mathjs load, plus the call. */
    workerStartMs: Summary;
    /** `1 + 1` on a warm worker. */
    warmCallMs: Summary;
    /** An expression the caps allow that runs on: its worker is ended at the deadline. */
    runaway: StopFigures;
  };
  /** Load average (1 min) of this machine before and after: other work on it shows here. */
  loadAverage: [number, number];
  pageErrors: string[];
}

export async function runSandboxBenchmarks(options: SandboxBenchOptions): Promise<SandboxBenchResult> {
  const { log } = options;
  const built = options.distDir === undefined;
  if (built) log('Building the app (vite build) for the sandbox harness pages …');
  const distDir = options.distDir ?? (await buildApp({ harness: true }));
  const loadBefore = loadavg()[0] ?? 0;
  const pageErrors: string[] = [];
  try {
    const preview = await startPreview(distDir);
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-background-networking'] });
      const open = (context: BrowserContext, path: string) => openPage(context, `${preview.url}${path}`, pageErrors);

      const bench: SandboxBench = { browser, log, url: preview.url, pageErrors, open };
      const python = await benchPython(bench);
      const javascript = await benchJavaScript(bench);
      const calculator = await benchCalculator(bench);

      return {
        chromium: browser.version(),
        pyodideVersion: packageVersion('pyodide'),
        quickjsVersion: packageVersion('@jitl/quickjs-wasmfile-release-sync'),
        limitMs: SANDBOX_LIMIT_MS,
        coldSamples: COLD_SAMPLES,
        runSamples: RUN_SAMPLES,
        python,
        javascript,
        calculator,
        loadAverage: [loadBefore, loadavg()[0] ?? 0],
        pageErrors,
      };
    } finally {
      await browser?.close();
      await preview.close();
    }
  } finally {
    if (built) rmSync(distDir, { recursive: true, force: true });
  }
}

/** What each sandbox's part of the bench works with: the browser, the app served, a page opener. */
interface SandboxBench {
  browser: Browser;
  log: (line: string) => void;
  url: string;
  pageErrors: string[];
  open: (context: BrowserContext, path: string) => Promise<Page>;
}

/** How long `start` takes on the harness page at `path`, in COLD_SAMPLES fresh browser contexts. */
async function coldStarts(bench: SandboxBench, path: string, start: (page: Page) => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let sample = 0; sample < COLD_SAMPLES; sample++) {
    await withContext(bench.browser, async (context) => times.push(await start(await bench.open(context, path))));
  }
  return times;
}

async function benchPython(bench: SandboxBench) {
  const { browser, log, open } = bench;
  log(`Python: cold boot in ${COLD_SAMPLES} fresh browser contexts …`);
  const coldBoots = await coldStarts(bench, PYTHON_HARNESS, bootPython);
  log(`Python: ${RUN_SAMPLES} runs each with a spare interpreter ready and back to back …`);
  const fresh = await withContext(browser, async (context) => freshInterpreterCost(await open(context, PYTHON_HARNESS)));
  log(`Python: a first and a second visit in ${COLD_SAMPLES} fresh browser profiles (on disk, as a person's) …`);
  const secondVisit = await secondVisits(bench.url, bench.pageErrors);
  log(`Python: ${RUN_SAMPLES} runaway loops without cross-origin isolation …`);
  const terminate = await withContext(browser, async (context) => {
    await serveWithoutIsolation(context, bench.url);
    return pythonStops(await open(context, PYTHON_HARNESS), false);
  });
  log(`Python: ${RUN_SAMPLES} runaway loops with cross-origin isolation (the app's own headers) …`);
  const interrupt = await withContext(browser, async (context) => pythonStops(await open(context, PYTHON_HARNESS), true));
  return { coldBootMs: summarize(coldBoots), fresh, terminate, interrupt, secondVisit };
}

async function benchJavaScript(bench: SandboxBench) {
  const { log, open } = bench;
  log(`JavaScript: worker start in ${COLD_SAMPLES} fresh browser contexts …`);
  const workerStarts = await coldStarts(bench, JAVASCRIPT_HARNESS, startJavaScript);
  log(`JavaScript: ${RUN_SAMPLES} each of a warm run, a runaway loop, a memory bomb and a stuck native call …`);
  const runs = await withContext(bench.browser, async (context) => {
    const page = await open(context, JAVASCRIPT_HARNESS);
    await startJavaScript(page);
    return {
      warmRunMs: summarize(await repeat(async () => (await jsTrial(page, '1 + 1', 5_000)).totalMs)),
      loop: await jsStops(page, JS_LOOP, SANDBOX_LIMIT_MS, /^Stopped: the code ran longer than 0\.5 s\.$/),
      memoryBomb: await jsMemoryBomb(page),
      backstop: await jsStops(page, JS_STUCK_NATIVE_CALL, SANDBOX_LIMIT_MS, /could not be interrupted, so the sandbox was restarted/),
    };
  });
  return { workerStartMs: summarize(workerStarts), ...runs };
}

async function benchCalculator(bench: SandboxBench) {
  bench.log(`Calculator: worker start in ${COLD_SAMPLES} fresh browser contexts, then ${RUN_SAMPLES} warm calls and runaway expressions …`);
  const calculatorStarts = await coldStarts(bench, CALCULATOR_HARNESS, startCalculator);
  return withContext(bench.browser, async (context) => {
    const page = await bench.open(context, CALCULATOR_HARNESS);
    await startCalculator(page);
    return {
      workerStartMs: summarize(calculatorStarts),
      warmCallMs: summarize(await repeat(async () => (await calculatorTrial(page, '1 + 1', 5_000)).totalMs)),
      runaway: await calculatorStops(page),
    };
  });
}

async function withContext<T>(browser: Browser, use: (context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await use(context);
  } finally {
    // A spare Python worker booted after the last run may still be fetching through a route.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  }
}

/** A page at the harness `url`, its script's `window` object ready. */
async function openPage(context: BrowserContext, url: string, pageErrors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => 'pythonHarness' in window || 'javascriptHarness' in window || 'calculatorHarness' in window);
  return page;
}

/** Every response of the app's origin loses COOP/COEP, so its pages are not cross-origin isolated
 * and the Python runner must terminate runaway code (a host serving the app without them). */
async function serveWithoutIsolation(context: BrowserContext, origin: string): Promise<void> {
  await context.route(
    (url) => url.origin === origin,
    async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    },
  );
}

async function repeat(measure: () => Promise<number>, times = RUN_SAMPLES): Promise<number[]> {
  const values: number[] = [];
  for (let attempt = 0; attempt < times; attempt++) values.push(await measure());
  return values;
}

// --- Python ---

export interface SecondVisitFigures {
  /** warmUp() to ready on a profile's first visit (empty HTTP cache). */
  firstVisitBootMs: Summary;
  /** The same on a second visit, a new page of the same profile. */
  secondVisitBootMs: Summary;
  /** Bytes of Pyodide's runtime files that came over the network on each visit (0: from the HTTP cache). */
  firstVisitRuntimeBytes: number[];
  secondVisitRuntimeBytes: number[];
}

/** A person's second visit: a browser profile on disk (an off-the-record context's memory cache
 * keeps no 9.6 MB wasm file), a first page that boots Python, then a new page that boots it again.
 * Counts the bytes of `/pyodide/` files the network delivered to each. */
async function secondVisits(origin: string, pageErrors: string[]): Promise<SecondVisitFigures> {
  const first: number[] = [];
  const second: number[] = [];
  const firstBytes: number[] = [];
  const secondBytes: number[] = [];
  for (let sample = 0; sample < COLD_SAMPLES; sample++) {
    const profile = mkdtempSync(join(tmpdir(), 'sandbox-bench-profile-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-background-networking'] });
    try {
      for (const [boots, bytes] of [[first, firstBytes], [second, secondBytes]] as const) {
        const page = await openPage(context, `${origin}${PYTHON_HARNESS}`, pageErrors);
        const received: Promise<number>[] = [];
        // Pyodide's files are fetched by its worker; sizes() waits for each body to finish.
        page.on('response', (response) => {
          if (new URL(response.url()).pathname.includes('/pyodide/')) received.push(response.request().sizes().then((sizes) => sizes.responseBodySize));
        });
        boots.push(await bootPython(page));
        bytes.push((await Promise.all(received)).reduce((sum, size) => sum + size, 0));
        await page.close();
      }
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }
  return { firstVisitBootMs: summarize(first), secondVisitBootMs: summarize(second), firstVisitRuntimeBytes: firstBytes, secondVisitRuntimeBytes: secondBytes };
}

/** Boots Pyodide in the harness page; returns warmUp()'s time. */
async function bootPython(page: Page): Promise<number> {
  const warm = await page.evaluate(() => window.pythonHarness.warmUp());
  if (!warm.ready) throw new Error(`Pyodide did not start: ${warm.error}`);
  return warm.ms;
}

interface PythonTrial {
  result: PythonRunResult;
  next: PythonRunResult;
  totalMs: number;
  nextRunMs: number;
}

const PRINT_ONE = 'print(1)';

/** A trivial run with the spare booted and waiting, and one asked for as the previous returned. */
async function freshInterpreterCost(page: Page): Promise<FreshInterpreterFigures> {
  await bootPython(page);
  const spareReady: number[] = [];
  const backToBack: number[] = [];
  for (let attempt = 0; attempt < RUN_SAMPLES; attempt++) {
    const trial = await page.evaluate(async (code) => {
      const harness: PythonHarness = window.pythonHarness;
      const ready = await harness.warmUp();
      if (!ready.ready) throw new Error(ready.error);
      const startedAt = performance.now();
      const first = await harness.run(code, 60_000);
      const returnedAt = performance.now();
      const second = await harness.run(code, 60_000);
      return { first, second, spareReadyMs: returnedAt - startedAt, backToBackMs: performance.now() - returnedAt };
    }, PRINT_ONE);
    for (const result of [trial.first, trial.second]) {
      if (result.stdout !== '1\n' || result.error !== null) throw new Error(`\`${PRINT_ONE}\` failed: ${JSON.stringify(result)}`);
    }
    spareReady.push(trial.spareReadyMs);
    backToBack.push(trial.backToBackMs);
  }
  return { spareReadyMs: summarize(spareReady), backToBackMs: summarize(backToBack) };
}

/** A runaway loop (which prints first) under the limit, then a trivial run. */
async function pythonStops(page: Page, isolated: boolean): Promise<PythonStopFigures> {
  await bootPython(page);
  const crossOriginIsolated = await page.evaluate(() => window.pythonHarness.crossOriginIsolated);
  if (crossOriginIsolated !== isolated) {
    throw new Error(`The Python harness page is ${crossOriginIsolated ? '' : 'not '}cross-origin isolated; the bench needs it ${isolated ? '' : 'not '}to be.`);
  }
  const trials: PythonTrial[] = [];
  for (let attempt = 0; attempt < RUN_SAMPLES; attempt++) {
    const trial = await page.evaluate(
      async ([loop, limitMs, code]) => {
        const harness: PythonHarness = window.pythonHarness;
        await harness.warmUp();
        const startedAt = performance.now();
        const result = await harness.run(loop, limitMs);
        const returnedAt = performance.now();
        const next = await harness.run(code, 60_000);
        return { result, next, totalMs: returnedAt - startedAt, nextRunMs: performance.now() - returnedAt };
      },
      [PYTHON_LOOP, SANDBOX_LIMIT_MS, PRINT_ONE] as const,
    );
    if (!trial.result.timedOut) throw new Error(`\`${PYTHON_LOOP}\` did not time out: ${JSON.stringify(trial.result)}`);
    if (trial.next.error !== null || trial.next.stdout !== '1\n') throw new Error(`The run after the loop failed: ${JSON.stringify(trial.next)}`);
    trials.push(trial);
  }
  return {
    crossOriginIsolated,
    pastLimitMs: summarize(trials.map((trial) => trial.totalMs - SANDBOX_LIMIT_MS)),
    nextRunMs: summarize(trials.map((trial) => trial.nextRunMs)),
    outputKept: trials.filter((trial) => trial.result.stdout === 'looping\n').length,
  };
}

// --- JavaScript ---

interface JsTrial {
  result: JsRunResult;
  next: JsRunResult;
  totalMs: number;
  nextRunMs: number;
}

/** Times the harness page's first run, which starts the worker and loads QuickJS. */
async function startJavaScript(page: Page): Promise<number> {
  const first = await jsTrial(page, '1 + 1', 30_000);
  if (first.result.value !== 2) throw new Error(`The first JavaScript run did not return 2: ${JSON.stringify(first.result)}`);
  return first.totalMs;
}

/** Runs `code`, then a plain run; checks that the plain run worked. */
async function jsTrial(page: Page, code: string, timeoutMs: number): Promise<JsTrial> {
  const trial = await page.evaluate(
    async ([source, limitMs]) => {
      const harness: JavaScriptHarness = window.javascriptHarness;
      const startedAt = performance.now();
      const result = await harness.run(source, { timeoutMs: limitMs });
      const returnedAt = performance.now();
      const next = await harness.run('[1, 2, 3].length', { timeoutMs: 5_000 });
      return { result, next, totalMs: returnedAt - startedAt, nextRunMs: performance.now() - returnedAt };
    },
    [code, timeoutMs] as const,
  );
  if (trial.next.value !== 3) throw new Error(`The run after \`${code}\` failed: ${JSON.stringify(trial.next)}`);
  return trial;
}

async function jsStops(page: Page, code: string, limitMs: number, error: RegExp): Promise<StopFigures & { error: string }> {
  const trials: JsTrial[] = [];
  for (let attempt = 0; attempt < RUN_SAMPLES; attempt++) {
    const trial = await jsTrial(page, code, limitMs);
    if (!trial.result.timedOut || !error.test(trial.result.error ?? '')) {
      throw new Error(`\`${code}\` did not stop as expected (${error}): ${JSON.stringify(trial.result)}`);
    }
    trials.push(trial);
  }
  return {
    pastLimitMs: summarize(trials.map((trial) => trial.totalMs - limitMs)),
    nextRunMs: summarize(trials.map((trial) => trial.nextRunMs)),
    error: trials[0]?.result.error ?? '',
  };
}

async function jsMemoryBomb(page: Page): Promise<SandboxBenchResult['javascript']['memoryBomb']> {
  const trials: JsTrial[] = [];
  for (let attempt = 0; attempt < RUN_SAMPLES; attempt++) {
    const trial = await jsTrial(page, JS_MEMORY_BOMB, JS_MEMORY_BOMB_TIMEOUT_MS);
    if (trial.result.timedOut || !/^Stopped: the code ran out of memory/.test(trial.result.error ?? '')) {
      throw new Error(`The memory bomb did not stop with an out-of-memory error: ${JSON.stringify(trial.result)}`);
    }
    trials.push(trial);
  }
  return {
    errorMs: summarize(trials.map((trial) => trial.totalMs)),
    error: trials[0]?.result.error ?? '',
    nextRunMs: summarize(trials.map((trial) => trial.nextRunMs)),
  };
}

// --- Calculator ---

interface CalculatorTrial {
  result: CalculatorRunResult;
  next: CalculatorRunResult;
  totalMs: number;
  nextRunMs: number;
}

/** Runs `expression`, then `1 + 1`; checks that the second call worked. */
async function calculatorTrial(page: Page, expression: string, timeoutMs: number): Promise<CalculatorTrial> {
  const trial = await page.evaluate(
    async ([source, limitMs]) => {
      const harness: CalculatorHarness = window.calculatorHarness;
      const startedAt = performance.now();
      const result = await harness.calculate(source, limitMs);
      const returnedAt = performance.now();
      const next = await harness.calculate('1 + 1', 30_000);
      return { result, next, totalMs: returnedAt - startedAt, nextRunMs: performance.now() - returnedAt };
    },
    [expression, timeoutMs] as const,
  );
  if (trial.next.calculation?.result !== '2') throw new Error(`The call after \`${expression.slice(0, 40)}\` failed: ${JSON.stringify(trial.next)}`);
  return trial;
}

async function startCalculator(page: Page): Promise<number> {
  const first = await calculatorTrial(page, '1 + 1', 30_000);
  if (first.result.calculation?.result !== '2') throw new Error(`The first calculation did not give 2: ${JSON.stringify(first.result)}`);
  return first.totalMs;
}

async function calculatorStops(page: Page): Promise<StopFigures> {
  const trials: CalculatorTrial[] = [];
  for (let attempt = 0; attempt < RUN_SAMPLES; attempt++) {
    const trial = await calculatorTrial(page, CALCULATOR_RUNAWAY, SANDBOX_LIMIT_MS);
    if (!trial.result.timedOut) throw new Error(`The runaway expression was not stopped: ${JSON.stringify(trial.result)}`);
    trials.push(trial);
  }
  return {
    pastLimitMs: summarize(trials.map((trial) => trial.totalMs - SANDBOX_LIMIT_MS)),
    nextRunMs: summarize(trials.map((trial) => trial.nextRunMs)),
  };
}

// --- Report ---

const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const figure = (summary: Summary) => `${whole(summary.median)} ms (${whole(summary.min)}–${whole(summary.max)})`;
const row = (label: string, text: string) => `  ${label.padEnd(46)} ${text}`;

export function formatSandboxReport(r: SandboxBenchResult): string {
  const { python, javascript } = r;
  const stops = (figures: StopFigures) => `result ${figure(figures.pastLimitMs)} past the limit, next run ${figure(figures.nextRunMs)} after it`;
  const kept = (figures: PythonStopFigures) => `; output kept ${figures.outputKept} of ${r.runSamples} times`;
  const lines = [
    `Sandbox limits: Chromium ${r.chromium} headless, the harness pages (e2e/harness/) of the e2e build under vite preview, with the app's headers.`,
    `Medians (min–max) of ${r.runSamples} runs on a warm page; cold starts in ${r.coldSamples} fresh browser contexts (empty cache). Timed in the page from the call.`,
    `Runaway code runs under a ${whole(r.limitMs)} ms limit; "next run" is the following trivial run's result, timed from the runaway's.`,
    `Python (Pyodide ${r.pyodideVersion}, in its worker)`,
    row('cold boot (warmUp() to ready)', figure(python.coldBootMs)),
    row(`\`${PRINT_ONE}\`, a fresh interpreter: spare ready`, figure(python.fresh.spareReadyMs)),
    row(`\`${PRINT_ONE}\`, back to back (waits for a boot)`, figure(python.fresh.backToBackMs)),
    row('first visit of a profile on disk: boot', `${figure(python.secondVisit.firstVisitBootMs)}; runtime bytes over the network ${python.secondVisit.firstVisitRuntimeBytes.join(', ')}`),
    row('second visit (a new page): boot', `${figure(python.secondVisit.secondVisitBootMs)}; runtime bytes over the network ${python.secondVisit.secondVisitRuntimeBytes.join(', ')}`),
    row('runaway loop, terminate (not isolated)', stops(python.terminate) + kept(python.terminate)),
    row('runaway loop, interrupt (COOP/COEP)', stops(python.interrupt) + kept(python.interrupt)),
    `JavaScript (QuickJS: @jitl/quickjs-wasmfile-release-sync ${r.quickjsVersion}, in its worker)`,
    row("worker start (a fresh page's first `1 + 1`)", figure(javascript.workerStartMs)),
    row('`1 + 1` on a warm worker', figure(javascript.warmRunMs)),
    row(`\`${JS_LOOP}\``, stops(javascript.loop)),
    row('memory bomb (64 MiB heap)', `error after ${figure(javascript.memoryBomb.errorMs)}, next run ${figure(javascript.memoryBomb.nextRunMs)} after it`),
    row('', `"${firstLine(javascript.memoryBomb.error)}"`),
    row('backstop: native call ignoring the deadline', stops(javascript.backstop)),
    row('', `"${firstLine(javascript.backstop.error)}"`),
    `Calculator (mathjs, in its worker)`,
    row("worker start (a fresh page's first `1 + 1`)", figure(r.calculator.workerStartMs)),
    row('`1 + 1` on a warm worker', figure(r.calculator.warmCallMs)),
    row('runaway expression (60 set unions), deadline', stops(r.calculator.runaway)),
    row('load average (1 min)', `${r.loadAverage[0].toFixed(2)} before, ${r.loadAverage[1].toFixed(2)} after`),
  ];
  if (r.pageErrors.length > 0) lines.push(row('page errors', `${r.pageErrors.length}, first: ${r.pageErrors[0]}`));
  return lines.join('\n');
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function packageVersion(name: string): string {
  const file = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

