import type { Page } from '@playwright/test';
import type { PythonRunResult } from '../../workers/engine/ports.ts';
import { installedPyodideVersion } from '../../server/securityHeaders.ts';
import { expect, test } from '../support/test.ts';
import { timerReceiverEscape } from './attacks.ts';
import { guardedPage, type GuardedPage } from './fixtures.ts';
import { probeWorkerPolicy, refusedEverywhere, WorkerInspector, type ExfiltrationSink } from './support.ts';

// The Python sandbox (tools/python/) attacked as issue 8 found it open: code schedules a callback
// whose receiver is the worker's global object, reads the native setTimeout off its prototype
// chain and hands it a string, which ran as script (`import()` reached the network) and planted a
// hook that read the code of later runs. Driven through the harness page in the production build.

const HARNESS = '/e2e/harness/python.html';
const PYODIDE_VERSION = installedPyodideVersion();

/** Evaluates `expression` in the Python worker booted and waiting for code (the runner's spare). */
async function inSpareWorker<T>(page: Page, expression: string): Promise<T> {
  expect(await page.evaluate(() => window.pythonHarness.warmUp())).toMatchObject({ ready: true });
  const inspector = await WorkerInspector.attach(page);
  try {
    return await inspector.evaluate<T>('python.worker', expression);
  } finally {
    await inspector.detach();
  }
}

function run(page: Page, code: string, timeoutMs = 20_000): Promise<PythonRunResult> {
  return page.evaluate(([source, limit]) => window.pythonHarness.run(source, limit), [code, timeoutMs] as const);
}

test.describe('Python sandbox under attack', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  let guard: GuardedPage;
  let page: Page;
  let sink: ExfiltrationSink;

  test.beforeAll(async ({ browser }) => {
    guard = await guardedPage(browser, HARNESS, 'pythonHarness');
    ({ page, sink } = guard);
    expect(await page.evaluate(() => window.pythonHarness.warmUp())).toMatchObject({ ready: true });
  });

  test.afterAll(() => guard.close());
  test.afterEach(() => guard.check());

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

  test('layer: the worker script’s own policy refuses code from strings and any connection but the app and the package CDN', async () => {
    // Only the policy served with the script stands between a never-locked-down worker and the network.
    const workerUrl = page.workers().find((worker) => worker.url().includes('python.worker'))?.url();
    if (!workerUrl) throw new Error('no Python worker is running');
    await page.route('https://cdn.jsdelivr.net/**', (route) =>
      route.fulfill({ status: 404, headers: { 'access-control-allow-origin': '*' }, body: 'no such package' }),
    );
    try {
      const { attempts, refused } = refusedEverywhere(sink.url);
      const status = (url: string) => `attempt(() => fetch(${JSON.stringify(url)}).then((response) => response.status))`;
      const outcome = await probeWorkerPolicy(page, workerUrl, {
        ...attempts,
        otherCdnFolder: status('https://cdn.jsdelivr.net/pyodide/v0.1.0/full/x.whl'),
        packageCdn: status(`https://cdn.jsdelivr.net/pyodide/v${PYODIDE_VERSION}/full/x.whl`),
        app: status('/pyodide/pyodide-lock.json'),
        wasm: "attempt(() => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => 'compiled'))",
      });
      expect(outcome).toEqual({ ...refused, otherCdnFolder: 'refused: TypeError', packageCdn: '404', app: '200', wasm: 'compiled' });
    } finally {
      await page.unroute('https://cdn.jsdelivr.net/**');
    }
  });

  test('Pyodide boots and runs under that policy, with no violation', async () => {
    const inspector = await WorkerInspector.attach(page);
    try {
      const result = await run(page, 'import json, math\nprint(json.dumps({"pi": round(math.pi, 5)}))');
      expect(result).toMatchObject({ stdout: '{"pi": 3.14159}\n', error: null });
      // The spare that boots after the run, under the same policy.
      expect(await page.evaluate(() => window.pythonHarness.warmUp())).toMatchObject({ ready: true });
      expect(inspector.violations()).toEqual([]);
    } finally {
      await inspector.detach();
    }
  });
});
