// The battery's `test`: the playground's fixtures, plus what every security spec asserts besides
// its own point (support.ts): an exfiltration sink on its own port that must receive nothing, and
// a heartbeat in the page, whose main thread must never compute for a second without a break.
// Both are checked after each test.
//
//   import { expect, test } from './fixtures.ts';
//   test('…', async ({ playground, scripted, sink }) => { … aim payloads at sink.url … });
//
// A serial describe that shares one page across its tests (a sandbox's harness) uses guardedPage
// and calls its check() after each test.

import { expect, test as playgroundTest } from '../support/playground.ts';
import type { Browser, Page } from '@playwright/test';
import { expectNoStallOver, installHeartbeat, startExfiltrationSink, type ExfiltrationSink } from './support.ts';

/**
 * The most CPU the page's main thread may spend in one stall (support.ts, expectNoStallOver). CPU,
 * not wall time: on a loaded 2-core box (a CI run's two workers, Pyodide compiling, a sibling
 * test's runaway calculator) a render that costs 100 ms waited up to 2.4 s for a core, which the
 * wall clock counted against the page. A freeze the battery guards against (an uncapped 8 MB text)
 * is seconds of the page's own computing.
 */
export const MAX_STALL_MS = 1_000;

export const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

/**
 * A function-calling config on the scripted server that never starts Python: booting Pyodide
 * compiles megabytes of WebAssembly on the machine's cores, which on a loaded 2-core box shows in
 * the heartbeat as stalls that are not the page's. The orchestrator alone, with no tools, unless
 * `overrides` (top-level fields) add some.
 */
export function lightConfig(serverUrl: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: 'function-calling',
    providers: { scripted: { kind: 'openai-compatible', baseUrl: `${serverUrl}/v1` } },
    orchestrator: { provider: 'scripted', model: ORCHESTRATOR, toolMode: 'prompt' },
    experts: {},
    functionCalling: { system: 'Be brief.', tools: [] },
    limits: { maxTurns: 6 },
    ...overrides,
  };
}

export const test = playgroundTest.extend<{ sink: ExfiltrationSink; guards: void; maxStallMs: number }>({
  /** A spec may set another bound with test.use({ maxStallMs }). */
  maxStallMs: [MAX_STALL_MS, { option: true }],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none.
  sink: async ({}, use) => {
    const sink = await startExfiltrationSink();
    await use(sink);
    await sink.close();
  },
  guards: [
    async ({ page, sink, maxStallMs }, use, testInfo) => {
      await installHeartbeat(page);
      await use();
      expect(sink.requests, 'requests that reached the exfiltration sink').toEqual([]);
      const longest = await expectNoStallOver(page, maxStallMs);
      // The figure itself, for the record (the JSON reporter keeps it; docs/security.md quotes it).
      testInfo.annotations.push({ type: 'longest main-thread stall', description: `${longest} ms of CPU (bound ${maxStallMs} ms)` });
    },
    { auto: true },
  ],
});

export { expect };

export interface GuardedPage {
  page: Page;
  sink: ExfiltrationSink;
  /** Asserts that the sink got no request and the page never computed for a second without a break. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** A page a serial describe shares across its tests, with the heartbeat, and a sink: opened at a
 * harness page `path`, once its script has put `harness` on window. */
export async function guardedPage(browser: Browser, path: string, harness: string): Promise<GuardedPage> {
  const sink = await startExfiltrationSink();
  const page = await browser.newPage();
  await installHeartbeat(page);
  await page.goto(path);
  await page.waitForFunction((name) => name in window, harness);
  return {
    page,
    sink,
    async check() {
      expect(sink.requests).toEqual([]);
      await expectNoStallOver(page, MAX_STALL_MS);
    },
    async close() {
      await page.close();
      await sink.close();
    },
  };
}
