// The history benchmark (`npm run bench -- --only history`): the production build in Chromium
// with 5,000 stored runs of 30 steps in its IndexedDB. It times, on the page's own clock, opening
// the History list, filtering it, and opening a run, and counts the main thread's long tasks
// (> 50 ms) during each. Prints figures and targets; asserts nothing.

import type { Page } from '@playwright/test';
import { syntheticRun } from '../e2e/fixtures/syntheticRun.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { summarize, type RunSummary } from '../workers/history/runLog.ts';
import { recordLongTasks } from './mainThreadTasks.ts';
import { previewInChromium } from './previewServer.ts';

export const HISTORY_RUNS = Number(process.env.BENCH_HISTORY_RUNS) || 5_000;
export const STEPS_PER_RUN = 30;
export const TARGET_HISTORY_MS = 100;

export interface HistoryAction {
  ms: number;
  longTasks: number;
  maxLongTaskMs: number;
}

export interface HistoryBenchResult {
  runs: number;
  stepsPerRun: number;
  /** The seeded log of one run, as stored (JSON characters), and per step. */
  runBytes: number;
  bytesPerStep: number;
  seedMs: number;
  openList: HistoryAction;
  search: HistoryAction;
  openRun: HistoryAction;
}

export async function runHistoryBenchmark(options: { distDir?: string; log: (line: string) => void }): Promise<HistoryBenchResult> {
  const { preview, browser, close } = await previewInChromium(options);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await recordLongTasks(page);
    await page.goto(preview.url);
    await page.getByRole('textbox', { name: 'Task' }).waitFor({ timeout: 30_000 });
    // Opening the tab once creates the database at the app's own version; then it is filled.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByText('No runs yet').waitFor({ timeout: 30_000 });

    const template = syntheticRun('run-0', 0, STEPS_PER_RUN);
    const runBytes = JSON.stringify(template).length;
    options.log(`Storing ${HISTORY_RUNS} runs of ${STEPS_PER_RUN} steps (${(runBytes / 1000).toFixed(0)} kB each) …`);
    const seedStart = Date.now();
    // One run's log goes to the page; the page writes the 5,000 copies (each with its own id, task
    // and start time), so 500 MB do not cross the DevTools protocol.
    for (let from = 0; from < HISTORY_RUNS; from += 100) {
      await page.evaluate(seedCopies, { template, summary: summarize(null, template) as RunSummary, from, count: Math.min(100, HISTORY_RUNS - from) });
    }
    const seedMs = Date.now() - seedStart;

    await page.reload();
    await page.getByRole('tablist', { name: 'Side panels' }).waitFor();
    options.log('Opening the list, filtering it, opening a run …');
    const openList = await measure(page, 'open-list');
    // The rest of the list is read in pages after the newest show; filter the whole of it.
    await page.waitForFunction(() => !/reading the rest/.test(document.querySelector('.history-count')?.textContent ?? 'reading the rest'), undefined, { timeout: 60_000 });
    const search = await measure(page, 'filter');
    const openRun = await measure(page, 'open-run');
    return { runs: HISTORY_RUNS, stepsPerRun: STEPS_PER_RUN, runBytes, bytesPerStep: Math.round(runBytes / STEPS_PER_RUN), seedMs, openList, search, openRun };
  } finally {
    await close();
  }
}

/** Writes `count` copies of the template run straight into the app's history database (the
 * layout of workers/hosts/history/runHistoryDb.ts), numbered from `from`. */
async function seedCopies({ template, summary, from, count }: { template: RunEvent[]; summary: RunSummary; from: number; count: number }): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('orchestra-playground-history');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(['runs', 'batches'], 'readwrite');
    for (let index = from; index < from + count; index++) {
      const id = `run-${index}`;
      const task = `Question ${index}: what is the population of the capital of country ${index % 197}?`;
      const startedAt = new Date(Date.UTC(2026, 10, 1) + index * 60_000).toISOString();
      const events = template.map((event) => (event.type === 'run_started' ? { ...event, runId: id, task, startedAt } : { ...event, runId: id }));
      tx.objectStore('runs').put({ ...summary, id, task, startedAt });
      tx.objectStore('batches').put({ runId: id, seq: 0, events });
    }
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

type Action = 'open-list' | 'filter' | 'open-run';

/** Does `action` in the page and times it until its result is on screen (checked every frame), on
 * the page's clock; counts the long tasks that began meanwhile. (One function with every action in
 * it: the page's Content-Security-Policy refuses code built from strings.) */
async function measure(page: Page, action: Action): Promise<HistoryAction> {
  return page.evaluate(async (which) => {
    const tasks = (window as unknown as { __longTasks: Array<{ startTime: number; duration: number }> }).__longTasks;
    const start = performance.now();
    let done: () => boolean;
    if (which === 'open-list') {
      (document.querySelector('[role="tab"][id$="-history-tab"]') as HTMLElement).click();
      done = () => document.querySelectorAll('[data-run-id]').length > 0;
    } else if (which === 'filter') {
      const input = document.querySelector('input[aria-label="Filter runs"]') as HTMLInputElement;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'country 42?');
      input.dispatchEvent(new Event('input', { bubbles: true }));
      done = () => / of [0-9,]+ runs/.test(document.querySelector('.history-count')?.textContent ?? '');
    } else {
      (document.querySelector('[data-run-id] .history-actions button') as HTMLElement).click();
      done = () => document.querySelector('[data-testid="stored-run-banner"]') !== null && document.querySelectorAll('.trace-scroller article').length > 0;
    }
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (done()) resolve();
        else if (performance.now() - start > 30_000) {
          const alert = document.querySelector('[role="alert"]')?.textContent ?? 'no alert';
          reject(new Error(`${which}: not on screen after 30 s (${alert}; scroller ${document.querySelector('.trace-scroller') !== null}, articles ${document.querySelectorAll('article').length}, trace text: ${document.querySelector('section[aria-label="Trace"]')?.textContent?.slice(0, 200)})`));
        }
        else requestAnimationFrame(check);
      };
      check();
    });
    const ms = performance.now() - start;
    // Long tasks are reported after they end: wait a moment, then take those that began meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = tasks.filter((task) => task.startTime >= start && task.startTime <= start + ms);
    return { ms, longTasks: during.length, maxLongTaskMs: Math.max(0, ...during.map((task) => task.duration)) };
  }, action);
}

export function formatHistoryReport(result: HistoryBenchResult): string {
  const line = (name: string, action: HistoryAction) =>
    `  ${name.padEnd(14)} ${action.ms.toFixed(0).padStart(5)} ms  long tasks ${action.longTasks}${action.longTasks > 0 ? ` (longest ${action.maxLongTaskMs.toFixed(0)} ms)` : ''}  — ${action.ms < TARGET_HISTORY_MS && action.longTasks === 0 ? 'meets' : 'MISSES'} the < ${TARGET_HISTORY_MS} ms, no long task target`;
  return [
    `History with ${result.runs.toLocaleString('en')} stored runs of ${result.stepsPerRun} steps (stored in ${(result.seedMs / 1000).toFixed(1)} s; ${(result.runBytes / 1000).toFixed(0)} kB a run, ${result.bytesPerStep} bytes a step)`,
    line('open the list', result.openList),
    line('filter', result.search),
    line('open a run', result.openRun),
  ].join('\n');
}
