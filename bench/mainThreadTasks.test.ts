import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mainThreadTasksOf } from './mainThreadTasks.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const thread = (pid: number, tid: number, name: string) => ({ args: { name }, cat: '__metadata', name: 'thread_name', ph: 'M', pid, tid, ts: 0 });
const task = (pid: number, tid: number, ts: number, durMs: number, cpuMs: number) => ({
  cat: 'toplevel',
  name: 'ThreadControllerImpl::RunTask',
  ph: 'X',
  pid,
  tid,
  ts,
  dur: durMs * 1000,
  tdur: cpuMs * 1000,
});

/** A trace file as Chromium writes it: one event per line, comma-separated. */
function writeTrace(events: object[]): string {
  dir = mkdtempSync(join(tmpdir(), 'trace-test-'));
  const file = join(dir, 'trace.json');
  writeFileSync(file, `{"traceEvents":[\n${events.map((event) => JSON.stringify(event)).join(',\n')}],\n"metadata":{}}\n`);
  return file;
}

describe('mainThreadTasksOf', () => {
  it("counts the page's main-thread tasks over 50 ms by wall clock and by CPU time", async () => {
    const file = writeTrace([
      thread(1, 1, 'CrBrowserMain'),
      thread(2, 2, 'CrRendererMain'),
      thread(3, 3, 'CrRendererMain'),
      thread(2, 9, 'DedicatedWorker thread'),
      task(1, 1, 0, 500, 500), // the browser process: not the page
      task(2, 9, 0, 400, 400), // the page's worker: not its main thread
      task(3, 3, 0, 300, 300), // a second, idle renderer with a single task
      task(2, 2, 0, 120, 30), // long only because it waited for a core
      task(2, 2, 10_000, 5, 5), // nested in the one before: not counted again
      task(2, 2, 200_000, 80, 70), // long either way
      task(2, 2, 400_000, 10, 10),
    ]);
    expect(await mainThreadTasksOf(file)).toEqual({
      tasks: 3,
      longByWall: 2,
      longByCpu: 1,
      maxWallMs: 120,
      maxCpuMs: 70,
      wallMs: 210,
      cpuMs: 110,
      longestByCpu: [{ atMs: 200, wallMs: 80, cpuMs: 70 }],
    });
  });

  it('finds no tasks in a trace without a renderer', async () => {
    const file = writeTrace([thread(1, 1, 'CrBrowserMain'), task(1, 1, 0, 500, 500)]);
    expect((await mainThreadTasksOf(file)).tasks).toBe(0);
  });
});
