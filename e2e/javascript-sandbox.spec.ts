import type { Page } from '@playwright/test';
import type { HarnessRunOptions } from './harness/javascript.ts';
import type { JsRunResult } from '../workers/engine/ports.ts';
import { expect, test } from './support/test.ts';

// The browser JavaScript sandbox (tools/javascript/browserJavaScriptRunner.ts): QuickJS in a module
// worker, driven through its harness page in the production build.

const HARNESS = '/e2e/harness/javascript.html';
const DEFAULT_OUTPUT_CAP = 64 * 1024;

async function openHarness(page: Page): Promise<void> {
  await page.goto(HARNESS);
  await page.waitForFunction(() => 'javascriptHarness' in window);
  // The first run waits for the worker to compile QuickJS.
  expect((await run(page, '1 + 1')).value).toBe(2);
}

function run(page: Page, code: string, options: HarnessRunOptions = { timeoutMs: 5_000 }): Promise<JsRunResult> {
  // Passed untyped: Playwright's argument types cannot unfold the recursive JsonValue of `input`.
  const untyped: Record<string, unknown> = { ...options };
  return page.evaluate(
    ([source, runOptions]) => window.javascriptHarness.run(source, runOptions as unknown as HarnessRunOptions),
    [code, untyped] as const,
  );
}

async function expectWorksAgain(page: Page): Promise<void> {
  expect(await run(page, 'console.log("again"); [1, 2, 3].length')).toMatchObject({ value: 3, logs: 'again\n', error: null });
}

/** Milliseconds a trivial page.evaluate takes to answer. */
async function pageLatency(page: Page): Promise<number> {
  const startedAt = Date.now();
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
  return Date.now() - startedAt;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

test.describe('JavaScript sandbox in a worker', () => {
  test('runs code with its input and serves QuickJS from the app itself', async ({ page, consoleErrors }) => {
    const origin = new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1:4173').origin;
    const requests: string[] = [];
    page.context().on('request', (request) => requests.push(request.url()));
    await openHarness(page);

    const result = await run(page, 'console.log("hello", args.name);\nreturn args.numbers.map((n) => n * n);', {
      timeoutMs: 5_000,
      input: { name: 'QuickJS', numbers: [1, 2, 3] },
    });
    expect(result).toMatchObject({ value: [1, 4, 9], logs: 'hello QuickJS\n', error: null, timedOut: false, aborted: false });

    const wasm = requests.filter((url) => url.endsWith('.wasm'));
    expect(wasm).toHaveLength(1);
    expect(wasm[0]).toMatch(new RegExp(`^${origin}/assets/`));
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('contains each attack with a clear observation and works again after it', async ({ page }) => {
    await openHarness(page);
    const attacks: Array<{ name: string; code: string; timeoutMs?: number; expected: Partial<JsRunResult>; error: RegExp }> = [
      {
        name: 'endless loop',
        code: 'while (true) {}',
        timeoutMs: 500,
        expected: { timedOut: true },
        error: /^Stopped: the code ran longer than 0\.5 s\.$/,
      },
      {
        name: 'memory bomb',
        code: 'const keep = []; while (true) keep.push(new Array(10000).fill(keep.length));',
        timeoutMs: 20_000,
        expected: { timedOut: false },
        error: /^Stopped: the code ran out of memory \(the limit is 64 MiB\)/,
      },
      {
        name: 'deep recursion',
        code: 'function down(n) { return down(n + 1) + 1; }\ndown(0);',
        expected: { timedOut: false },
        error: /^Stopped: the call stack overflowed/,
      },
      {
        name: 'deeply nested data',
        code: 'JSON.parse("[".repeat(100000))',
        expected: { timedOut: false },
        error: /^(SyntaxError: stack overflow|Stopped: the code nested too deeply)/,
      },
      {
        name: 'thrown error',
        code: 'const data = {};\ndata.missing.field;',
        expected: { timedOut: false },
        error: /^TypeError: .*\n\s+at <eval> \(code\.js:2:/,
      },
      { name: 'function result', code: '() => 1', expected: {}, error: /result is a function; only JSON data/ },
      { name: 'cyclic result', code: 'const a = []; a.push(a); a', expected: {}, error: /circular reference/ },
      { name: 'BigInt result', code: '10n ** 30n', expected: {}, error: /a BigInt \(1000000000000000000000000000000n\)/ },
    ];
    for (const attack of attacks) {
      const result = await run(page, attack.code, { timeoutMs: attack.timeoutMs ?? 5_000 });
      expect(result, attack.name).toMatchObject({ ...attack.expected, aborted: false });
      expect(result.value, attack.name).toBeUndefined();
      expect(result.error, attack.name).toMatch(attack.error);
      await expectWorksAgain(page);
    }

    const flood = await run(page, 'const line = "y".repeat(1023); for (let i = 0; i < 1024; i++) console.log(line); "done"');
    expect(flood).toMatchObject({ truncated: true, value: 'done', error: null });
    // The cap falls on a line's end (64 lines of 1,024 characters), so the note follows directly.
    const kept = `${'y'.repeat(1023)}\n`.repeat(64);
    expect(flood.logs).toBe(`${kept}… [${(1024 * 1024 - DEFAULT_OUTPUT_CAP).toLocaleString('en-US')} more characters cut]\n`);
    await expectWorksAgain(page);
  });

  test('offers the guest nothing of the browser', async ({ page }) => {
    await openHarness(page);
    const names = [
      'fetch',
      'XMLHttpRequest',
      'WebSocket',
      'importScripts',
      'localStorage',
      'indexedDB',
      'postMessage',
      'self',
      'window',
      'document',
      'navigator',
      'location',
      'caches',
      'setTimeout',
      'Worker',
      'WebAssembly',
    ];
    const code = `return ${JSON.stringify(names)}.filter((name) => typeof globalThis[name] !== 'undefined')`;
    expect((await run(page, code)).value).toEqual([]);
    expect((await run(page, 'globalThis.postMessage("escape")')).error).toMatch(/^TypeError: not a function/);
  });

  test('keeps the page responsive while an endless loop runs, and aborts it at once', async ({ page }) => {
    await openHarness(page);
    await page.evaluate(() => {
      const pending = window.javascriptHarness.run('for (;;) {}', { timeoutMs: 30_000, abortAfterMs: 2_000 });
      (window as unknown as { pending: Promise<JsRunResult> }).pending = pending;
    });
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) latencies.push(await pageLatency(page));
    expect(Math.max(...latencies)).toBeLessThan(500);

    const aborted = await page.evaluate(() => (window as unknown as { pending: Promise<JsRunResult> }).pending);
    expect(aborted).toMatchObject({ aborted: true, timedOut: false });
    expect(aborted.durationMs).toBeLessThan(3_000);
    await expectWorksAgain(page);
  });

  test('terminates the worker when one native call cannot be interrupted', async ({ page }) => {
    await openHarness(page);
    // A naive substring search over megabytes: one call into QuickJS that never polls the deadline.
    const stuck = await run(page, '"a".repeat(1e6).indexOf("a".repeat(5e5) + "b")', { timeoutMs: 500 });
    expect(stuck).toMatchObject({ timedOut: true, aborted: false, value: undefined });
    expect(stuck.error).toMatch(/could not be interrupted, so the sandbox was restarted/);
    // The 0.5 s limit plus the 1 s grace before the host steps in.
    expect(stuck.durationMs).toBeGreaterThanOrEqual(1_400);
    expect(stuck.durationMs).toBeLessThan(5_000);
    await expectWorksAgain(page);
  });

  test('works from inside another worker', async ({ page }) => {
    await openHarness(page);
    const inWorker = await page.evaluate(() => window.javascriptHarness.runInWorker('[typeof fetch, 6 * 7]', 5_000));
    expect(inWorker).toMatchObject({ value: ['undefined', 42], error: null });
    const loop = await page.evaluate(() => window.javascriptHarness.runInWorker('while (true) {}', 300));
    expect(loop).toMatchObject({ timedOut: true });
  });

  test('stops a runaway loop soon after its limit (median of 5)', async ({ page }) => {
    await openHarness(page);
    const limitMs = 500;
    const totals: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const measured = await page.evaluate(async (timeoutMs) => {
        const startedAt = performance.now();
        const result = await window.javascriptHarness.run('let n = 0; while (true) { n++; }', { timeoutMs });
        return { result, totalMs: performance.now() - startedAt };
      }, limitMs);
      expect(measured.result.timedOut).toBe(true);
      totals.push(measured.totalMs);
    }
    const stopMs = median(totals);
    console.log(
      `JavaScript sandbox: a runaway loop with a ${limitMs} ms limit stopped after ${stopMs.toFixed(0)} ms ` +
        `(median of 5; ${(stopMs - limitMs).toFixed(0)} ms past the limit; all: ${totals.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
    );
    expect(stopMs).toBeLessThan(5_000);
  });
});
