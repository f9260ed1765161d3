// The battery's `test`: the playground's fixtures, plus what every security spec asserts besides
// its own point (support.ts): an exfiltration sink on its own port that must receive nothing, and
// a heartbeat in the page that must never stall over a second. Both are checked after each test.
//
//   import { expect, test } from './fixtures.ts';
//   test('…', async ({ playground, scripted, sink }) => { … aim payloads at sink.url … });
//
// A serial describe that shares one page across its tests (a sandbox's harness) uses guardedPage
// and calls its check() after each test.

import { expect, test as playgroundTest } from '../support/playground.ts';
import type { Browser, Page } from '@playwright/test';
import { expectNoStallOver, installHeartbeat, startExfiltrationSink, type ExfiltrationSink } from './support.ts';

/** The longest the page's main thread may go without a heartbeat tick. */
export const MAX_STALL_MS = 1_000;

/**
 * The same bound for a spec whose run boots Pyodide: its WebAssembly compile takes every core of a
 * 2-core box for seconds, and the page's thread waits for a core, not for the page (a full CI
 * suite measured 1.1-3.0 s there while the spec alone stays under 1 s). Still far below what an
 * uncapped 8 MB text froze the page for.
 */
export const MAX_STALL_WITH_PYODIDE_MS = 4_000;

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
  /** Set with test.use({ maxStallMs: MAX_STALL_WITH_PYODIDE_MS }) in a spec that boots Pyodide. */
  maxStallMs: [MAX_STALL_MS, { option: true }],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none.
  sink: async ({}, use) => {
    const sink = await startExfiltrationSink();
    await use(sink);
    await sink.close();
  },
  guards: [
    async ({ page, sink, maxStallMs }, use) => {
      await installHeartbeat(page);
      await use();
      expect(sink.requests, 'requests that reached the exfiltration sink').toEqual([]);
      await expectNoStallOver(page, maxStallMs);
    },
    { auto: true },
  ],
});

export { expect };

export interface GuardedPage {
  page: Page;
  sink: ExfiltrationSink;
  /** Asserts that the sink got no request and the page never stalled over a second. */
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
