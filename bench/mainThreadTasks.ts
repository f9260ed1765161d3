// The page's main-thread tasks from a Chromium trace (category `toplevel`), with both their
// wall-clock duration and the thread's own CPU time in them. On a shared machine a task can last
// long only because the thread waited for a core; its CPU time says how long it would take on an
// idle machine of the same speed.

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { CDPSession, Page } from '@playwright/test';

/** Chromium's top-level task event on every thread. */
const RUN_TASK = 'ThreadControllerImpl::RunTask';
const RENDERER_MAIN = 'CrRendererMain';
const LONG_MS = 50;

export interface MainThreadTasks {
  tasks: number;
  /** Tasks whose wall-clock duration is over 50 ms. */
  longByWall: number;
  /** Tasks whose thread CPU time is over 50 ms. */
  longByCpu: number;
  maxWallMs: number;
  maxCpuMs: number;
  /** Wall-clock and CPU time of the main thread's tasks, summed. */
  wallMs: number;
  cpuMs: number;
  /** The tasks over 50 ms of CPU (the first 20): when, from the trace's first task on, and how long. */
  longestByCpu: Array<{ atMs: number; wallMs: number; cpuMs: number }>;
}

interface TaskEvent {
  ts: number;
  dur: number;
  tdur: number;
}

/** Reads a trace file written by `traceToFile` (one event per line)
 * without loading it whole. */
export async function mainThreadTasksOf(traceFile: string): Promise<MainThreadTasks> {
  const rendererMains = new Set<string>();
  // Per thread, since the threads' names may come last; a whole run holds a million tasks or more.
  const byThread = new Map<string, TaskEvent[]>();
  const lines = createInterface({ input: createReadStream(traceFile, 'utf8'), crlfDelay: Infinity });
  for await (const rawLine of lines) {
    const event = parseEventLine(rawLine);
    if (!event) continue;
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name === RENDERER_MAIN) rendererMains.add(thread);
    if (event.ph === 'X' && event.name === RUN_TASK && event.ts !== undefined && event.dur !== undefined) {
      let list = byThread.get(thread);
      if (!list) byThread.set(thread, (list = []));
      list.push({ ts: event.ts, dur: event.dur, tdur: event.tdur ?? event.dur });
    }
  }
  // The page's renderer is the busiest renderer main thread (others are blank or internal pages).
  const pageThread = [...rendererMains].sort((a, b) => (byThread.get(b)?.length ?? 0) - (byThread.get(a)?.length ?? 0))[0];
  const tasks = topLevel((pageThread && byThread.get(pageThread)) || []);
  const start = tasks[0]?.ts ?? 0;
  return {
    tasks: tasks.length,
    longByWall: tasks.filter((task) => task.dur / 1000 > LONG_MS).length,
    longByCpu: tasks.filter((task) => task.tdur / 1000 > LONG_MS).length,
    maxWallMs: tasks.reduce((max, task) => Math.max(max, task.dur / 1000), 0),
    maxCpuMs: tasks.reduce((max, task) => Math.max(max, task.tdur / 1000), 0),
    wallMs: tasks.reduce((sum, task) => sum + task.dur / 1000, 0),
    cpuMs: tasks.reduce((sum, task) => sum + task.tdur / 1000, 0),
    longestByCpu: tasks
      .filter((task) => task.tdur / 1000 > LONG_MS)
      .slice(0, 20)
      .map((task) => ({ atMs: (task.ts - start) / 1000, wallMs: task.dur / 1000, cpuMs: task.tdur / 1000 })),
  };
}

interface RawEvent {
  name?: string;
  ph?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** One line of the trace: an event followed by a comma, or the last one followed by the array's end. */
function parseEventLine(rawLine: string): RawEvent | undefined {
  const line = rawLine.trim();
  if (!line.startsWith('{"') || line.startsWith('{"traceEvents"')) return undefined;
  for (const candidate of [line.replace(/,$/, ''), line.replace(/\]\s*,?$/, ''), line.replace(/\]\s*\}$/, '')]) {
    try {
      return JSON.parse(candidate) as RawEvent;
    } catch {
      // Try the next way the line can end.
    }
  }
  return undefined;
}

/** Drops tasks nested in another (a nested run loop runs tasks inside a task). */
function topLevel(events: TaskEvent[]): TaskEvent[] {
  const sorted = events.sort((a, b) => a.ts - b.ts);
  const result: TaskEvent[] = [];
  let end = -Infinity;
  for (const event of sorted) {
    if (event.ts < end) continue;
    result.push(event);
    end = event.ts + event.dur;
  }
  return result;
}

/** Starts a Chromium trace of category `toplevel` (every task of every thread, with its CPU time)
 * through the page's CDP session. `stop` ends it and streams it to `file` chunk by chunk: a whole
 * run's trace is hundreds of megabytes, more than `browser.stopTracing` (which returns it as one
 * buffer) should hold. It throws when Chromium's trace buffer filled and events were lost: a
 * count from a partial trace would read as fewer long tasks. */
export async function traceToFile(cdp: CDPSession, file: string): Promise<{ stop(): Promise<void> }> {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: ['toplevel'], excludedCategories: ['*'], recordMode: 'recordUntilFull', traceBufferSizeInKb: TRACE_BUFFER_KB },
  });
  return {
    async stop() {
      const [complete] = await Promise.all([
        new Promise<{ stream?: string; dataLossOccurred: boolean }>((resolve) => cdp.once('Tracing.tracingComplete', resolve)),
        cdp.send('Tracing.end'),
      ]);
      if (!complete.stream) throw new Error('Chromium returned no trace stream.');
      const handle = complete.stream;
      const out = await open(file, 'w');
      try {
        for (;;) {
          const chunk = await cdp.send('IO.read', { handle, size: 1 << 20 });
          await out.write(Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8'));
          if (chunk.eof) break;
        }
      } finally {
        await out.close();
        await cdp.send('IO.close', { handle });
      }
      if (complete.dataLossOccurred) throw new Error(`The trace lost events (its ${TRACE_BUFFER_KB / 1000} MB buffer filled): its counts would be too low.`);
    },
  };
}

/** Chromium's trace buffer for `traceToFile`, kB: room for a 500-step run's tasks. */
const TRACE_BUFFER_KB = 1_000_000;

/** Keeps every long task (> 50 ms) the page's PerformanceObserver reports in `window.__longTasks`,
 * from the next document on; and lets functions that tsx compiled run in the page (it names them
 * with an `__name` helper the page lacks). */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  await page.addInitScript(() => {
    const longTasks: Array<{ startTime: number; duration: number }> = [];
    Object.defineProperty(window, '__longTasks', { value: longTasks });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push({ startTime: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}
