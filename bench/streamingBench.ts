// The streaming benchmark: a long run streamed through the real playground in Chromium (the
// production build, its worker, engine and HTTP client) against the scripted server, counting the
// main thread's long tasks (> 50 ms) while it streams.

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { describeStopReason } from '../app/errors/explain.ts';
import { chromiumPath } from './previewServer.ts';
import { parseScenario } from '../cli/scripted/scenario.ts';
import { startScriptedServer } from '../cli/scripted/scriptedServer.ts';
import { mainThreadTasksOf, traceToFile, type MainThreadTasks } from './mainThreadTasks.ts';
import { attributeLongTasks, sourceMapResolver, type CpuProfile, type LongTaskAttribution, type TimeShare } from './longTaskProfile.ts';

export const STREAM_SCENARIO_FILE = 'e2e/fixtures/scenarios/bench-stream.json';
const scenarioUrl = new URL(`../${STREAM_SCENARIO_FILE}`, import.meta.url);
const exampleConfigUrl = new URL('../cli/examples/local-scripted.json', import.meta.url);
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
// The status line's own words, so a change of wording cannot break the benchmark again.
const MAX_TURNS_STATUS = describeStopReason('max_turns');
const TASK = 'What is the population of the capital of Finland?';

export interface StreamingOptions {
  /** The app's origin (vite preview of the build in `distDir`). */
  appUrl: string;
  distDir: string;
  /** Orchestrator turns: the config's limits.maxTurns (the engine allows at most 500). */
  steps: number;
  /** Also record a CPU profile and say where the long tasks' time went. */
  profile: boolean;
  /** Progress lines (stderr). */
  log: (line: string) => void;
}

export interface Durations {
  count: number;
  totalMs: number;
  maxMs: number;
}

export interface StreamingResult {
  steps: number;
  /** Tokens per second the scripted orchestrator streams at (4 characters ≈ 1 token). */
  tokensPerSecond: number;
  /** Tokens of each orchestrator turn. */
  tokensPerTurn: number;
  /** The run status line at the end. */
  status: string;
  /** The step count the run status reports. */
  stepsInStatus: number | null;
  /** Step articles in the Trace region's DOM at the end (fewer than the steps when virtualised). */
  stepArticlesInDom: number;
  orchestratorRequests: number;
  /** From the click on Run to the end of the run. */
  wallMs: number;
  /** Long tasks from the click on Run to the end of the run: the target. */
  longTasks: Durations;
  /** The same split into four equal stretches of the run's time: growth shows work that scales
   * with the trace's length. */
  longTasksByQuarter: Durations[];
  /** A Chromium trace of the whole run, from the click on Run to its end: the main thread's tasks
   * by wall clock and by the thread's own CPU time (on a shared machine a task can be long by the
   * wall clock only because the thread waited for a core). */
  trace: MainThreadTasks & { seconds: number; megabytes: number };
  /** Long tasks before it (page load, config import), for reference. */
  longTasksBeforeRun: Durations;
  /** Long animation frames (> 50 ms) during the run and the scripts that ran in them. */
  longFrames: Durations & { styleAndLayoutMs: number; scripts: TimeShare[] };
  /** The page's JS heap (main thread; CDP Runtime.getHeapUsage), bytes. */
  heap: { beforeRun: number; afterRun: number; afterRunCollected: number };
  /** The run as the history stored it while it streamed (IndexedDB), JSON characters in all and per step. */
  stored: { bytes: number; batches: number; bytesPerStep: number };
  domNodes: number;
  /** Of those, elements inside SVG (the charts). */
  svgNodes: number;
  consoleErrors: string[];
  /** Load average (1 min) of this machine before and after: other work on it shows here. */
  loadAverage: [number, number];
  profile?: LongTaskAttribution;
}

interface PageRecord {
  longTasks: Array<{ startTime: number; duration: number }>;
  frames: Array<{
    startTime: number;
    duration: number;
    renderStart: number;
    styleAndLayoutStart: number;
    scripts: Array<{ invoker: string; sourceURL: string; sourceFunctionName: string; sourceCharPosition: number; duration: number }>;
  }>;
}

// eslint-disable-next-line max-lines-per-function -- one browser session, measured in order; its steps share the page and the CDP session
export async function runStreamingBenchmark(options: StreamingOptions): Promise<StreamingResult> {
  const { steps, log } = options;
  if (!Number.isInteger(steps) || steps < 1 || steps > 500) throw new Error(`--steps must be a whole number from 1 to 500 (got ${steps}).`);
  const scenario = parseScenario(JSON.parse(readFileSync(scenarioUrl, 'utf8')));
  const turn = scenario.models[ORCHESTRATOR]?.[0];
  if (!turn?.chunkSize || !turn.chunkDelayMs) throw new Error(`${STREAM_SCENARIO_FILE} must stream the orchestrator's turn (chunkSize, chunkDelayMs).`);
  const server = await startScriptedServer({ scenario });
  const loadBefore = loadavg()[0] ?? 0;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-background-networking'],
  });
  const traceDir = mkdtempSync(join(tmpdir(), 'orchestra-bench-trace-'));
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    // tsx names functions with an `__name` helper that functions sent to the page would miss.
    await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    await page.addInitScript(observeLongTasks);
    const cdp = await context.newCDPSession(page);

    await page.goto(options.appUrl);
    const taskBox = page.getByRole('textbox', { name: 'Task' });
    await taskBox.waitFor({ timeout: 30_000 });
    await importConfig(page, streamingConfig(server.url, steps));
    await taskBox.fill(TASK);

    await cdp.send('HeapProfiler.collectGarbage');
    const heapBeforeRun = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    if (options.profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }

    const traceFile = join(traceDir, 'run.json');
    const trace = await traceToFile(cdp, traceFile);
    const runStart = await page.evaluate(() => performance.now());
    const wallStart = Date.now();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const status = await waitForRunEnd(page, steps, log);
    const wallMs = Date.now() - wallStart;
    const runEnd = await page.evaluate(() => performance.now());
    await trace.stop();
    log(`  reading the run's trace (${(statSync(traceFile).size / 1e6).toFixed(0)} MB) …`);
    const traced = { ...(await mainThreadTasksOf(traceFile)), seconds: wallMs / 1000, megabytes: statSync(traceFile).size / 1e6 };
    rmSync(traceFile, { force: true });

    const cpuProfile = options.profile ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : undefined;
    const heapAfterRun = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    await cdp.send('HeapProfiler.collectGarbage');
    const heapAfterCollected = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')).metrics;
    const domNodes = metrics.find((metric) => metric.name === 'Nodes')?.value ?? 0;

    const record = await page.evaluate(() => (window as unknown as { __bench: PageRecord }).__bench);
    const during = (start: number) => start >= runStart && start <= runEnd;
    const longFrames = record.frames.filter((frame) => during(frame.startTime));
    const svgNodes = await page.evaluate(() => document.querySelectorAll('svg *').length);
    const stored = await page.evaluate(storedRunSize);
    const stepArticlesInDom = await page.getByRole('region', { name: 'Trace' }).getByRole('article').count();

    if (!status.includes(MAX_TURNS_STATUS)) {
      throw new Error(`The run did not reach its ${steps} turns; the run status says: ${status}${errorsNote(consoleErrors)}`);
    }
    const resolve = sourceMapResolver(options.appUrl, options.distDir);
    return {
      steps,
      tokensPerSecond: Math.round(((turn.chunkSize / 4) * 1000) / turn.chunkDelayMs),
      tokensPerTurn: Math.round(turn.content.length / 4),
      status,
      stepsInStatus: stepsInStatus(status),
      stepArticlesInDom,
      orchestratorRequests: server.requests.filter((request) => (request.body as { model?: unknown } | undefined)?.model === ORCHESTRATOR).length,
      wallMs,
      longTasks: durations(record.longTasks.filter((task) => during(task.startTime))),
      longTasksByQuarter: [0, 1, 2, 3].map((quarter) => {
        const from = runStart + ((runEnd - runStart) * quarter) / 4;
        const to = runStart + ((runEnd - runStart) * (quarter + 1)) / 4;
        return durations(record.longTasks.filter((task) => task.startTime >= from && task.startTime < to));
      }),
      trace: traced,
      longTasksBeforeRun: durations(record.longTasks.filter((task) => task.startTime < runStart)),
      longFrames: {
        ...durations(longFrames),
        styleAndLayoutMs: longFrames.reduce(
          (sum, frame) => sum + (frame.styleAndLayoutStart > 0 ? frame.startTime + frame.duration - frame.styleAndLayoutStart : 0),
          0,
        ),
        scripts: frameScripts(longFrames, options, resolve),
      },
      heap: { beforeRun: heapBeforeRun, afterRun: heapAfterRun, afterRunCollected: heapAfterCollected },
      stored: { ...stored, bytesPerStep: Math.round(stored.bytes / steps) },
      domNodes,
      svgNodes,
      consoleErrors,
      loadAverage: [loadBefore, loadavg()[0] ?? 0],
      ...(cpuProfile ? { profile: attributeLongTasks(cpuProfile, resolve) } : {}),
    };
  } finally {
    await browser.close();
    await server.close();
    rmSync(traceDir, { recursive: true, force: true });
  }
}

/** Runs in the page before its scripts: records long tasks and long animation frames. */
/** What the history kept of the run (workers/hosts/history/runHistoryDb.ts): its batches, as JSON characters. */
async function storedRunSize(): Promise<{ bytes: number; batches: number }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('orchestra-playground-history');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const batches = await new Promise<unknown[]>((resolve, reject) => {
    const request = db.transaction('batches').objectStore('batches').getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return { bytes: batches.reduce<number>((sum, batch) => sum + JSON.stringify((batch as { events: unknown }).events).length, 0), batches: batches.length };
}

function observeLongTasks(): void {
  const record: PageRecord = { longTasks: [], frames: [] };
  Object.defineProperty(window, '__bench', { value: record });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as PageRecord['frames']) {
        if (entry.duration <= 50) continue;
        record.frames.push({
          startTime: entry.startTime,
          duration: entry.duration,
          renderStart: entry.renderStart,
          styleAndLayoutStart: entry.styleAndLayoutStart,
          scripts: entry.scripts.map((script) => ({
            invoker: script.invoker,
            sourceURL: script.sourceURL,
            sourceFunctionName: script.sourceFunctionName,
            sourceCharPosition: script.sourceCharPosition,
            duration: script.duration,
          })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // A browser without long-animation-frame entries: long tasks alone.
  }
}


/** cli/examples/local-scripted.json pointed at the scripted server, ending after `steps` turns. */
function streamingConfig(serverUrl: string, steps: number): Record<string, unknown> {
  const example = JSON.parse(readFileSync(exampleConfigUrl, 'utf8')) as {
    providers: Record<string, Record<string, unknown>>;
    limits?: Record<string, unknown>;
  };
  return {
    ...example,
    providers: { ...example.providers, scripted: { ...example.providers.scripted, baseUrl: `${serverUrl}/v1` } },
    limits: { ...example.limits, maxTurns: steps },
  };
}

async function importConfig(page: Page, config: Record<string, unknown>): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import config' }).click();
  await (await chooser).setFiles({
    name: 'bench-config.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(config, null, 2)),
  });
}

/** Polls until Run is offered again and the status no longer says the run goes on; returns the
 * status. It reads the page with querySelector in one evaluate: Playwright's role locators walk
 * the whole DOM computing roles on the page's main thread (about 2 s of a 50-step run's CPU
 * profile), which would be measured as the page's own work. */
async function waitForRunEnd(page: Page, steps: number, log: (line: string) => void): Promise<string> {
  const read = () =>
    page.evaluate(() => {
      const button = (name: string) => [...document.querySelectorAll('button')].find((element) => element.textContent?.trim() === name);
      const enabled = (element: Element | undefined) => element !== undefined && element.getAttribute('aria-disabled') !== 'true' && !element.hasAttribute('disabled');
      return {
        status: document.querySelector('[role="status"][aria-label="Run status"]')?.textContent?.trim() ?? '',
        runEnabled: enabled(button('Run')),
        stopEnabled: enabled(button('Stop')),
      };
    });
  // Each turn streams for about 0.3 s; allow ten times that, plus a start-up minute.
  const timeoutMs = 60_000 + steps * 3_000;
  const deadline = Date.now() + timeoutMs;
  let nextLog = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { status, runEnabled, stopEnabled } = await read();
    const going = status === '' || /^(Starting|Running|Stopping)/.test(status);
    if (!going && runEnabled && !stopEnabled) return status;
    if (Date.now() >= nextLog) {
      log(`  … ${status || 'waiting for the run to start'}`);
      nextLog = Date.now() + 15_000;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const { status } = await read().catch(() => ({ status: '' }));
  throw new Error(`The run did not end within ${timeoutMs / 1000} s; the run status says: ${status}`);
}

function stepsInStatus(status: string): number | null {
  const match = /(\d+) steps?\b/.exec(status);
  return match?.[1] ? Number(match[1]) : null;
}

function durations(entries: Array<{ duration: number }>): Durations {
  return {
    count: entries.length,
    totalMs: entries.reduce((sum, entry) => sum + entry.duration, 0),
    maxMs: entries.reduce((max, entry) => Math.max(max, entry.duration), 0),
  };
}

/** Script time in long frames per entry point: "invoker → function (source:line)". */
function frameScripts(
  frames: PageRecord['frames'],
  options: StreamingOptions,
  resolve: ReturnType<typeof sourceMapResolver>,
): TimeShare[] {
  const totals = new Map<string, number>();
  const sources = new Map<string, string | null>();
  for (const script of frames.flatMap((frame) => frame.scripts)) {
    let where = '';
    if (script.sourceURL.startsWith(options.appUrl) && script.sourceCharPosition >= 0) {
      const path = new URL(script.sourceURL).pathname;
      if (!sources.has(path)) {
        const file = join(options.distDir, path);
        sources.set(path, existsSync(file) ? readFileSync(file, 'utf8') : null);
      }
      const text = sources.get(path);
      if (text) {
        const before = text.slice(0, script.sourceCharPosition);
        const line = before.split('\n').length - 1;
        const column = script.sourceCharPosition - (before.lastIndexOf('\n') + 1);
        const original = resolve(script.sourceURL, line, column);
        if (original) where = `${original.name || script.sourceFunctionName || '(anonymous)'} (${original.source}:${original.line + 1})`;
      }
    }
    const label = `${script.invoker} → ${where || script.sourceFunctionName || script.sourceURL || '(unknown)'}`;
    totals.set(label, (totals.get(label) ?? 0) + script.duration);
  }
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([label, ms]) => ({ label, ms }));
}

function errorsNote(errors: string[]): string {
  return errors.length > 0 ? `\nPage errors:\n  ${errors.slice(0, 5).join('\n  ')}` : '';
}
