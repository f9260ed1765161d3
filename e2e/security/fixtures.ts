// The battery's `test`: the playground's fixtures, plus what every security spec asserts besides
// its own point (support.ts): an exfiltration sink on its own port that must receive nothing, and
// a heartbeat in the page that must never stall over a second. Both are checked after each test.
//
//   import { expect, test } from './fixtures.ts';
//   test('…', async ({ playground, scripted, sink }) => { … aim payloads at sink.url … });

import { expect, test as playgroundTest } from '../support/playground.ts';
import { installHeartbeat, longestStallMs, startExfiltrationSink, type ExfiltrationSink } from './support.ts';

/** The longest the page's main thread may go without a heartbeat tick. */
export const MAX_STALL_MS = 1_000;

export const test = playgroundTest.extend<{ sink: ExfiltrationSink; guards: void }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none.
  sink: async ({}, use) => {
    const sink = await startExfiltrationSink();
    await use(sink);
    await sink.close();
  },
  guards: [
    async ({ page, sink }, use) => {
      await installHeartbeat(page);
      await use();
      expect(sink.requests, 'requests that reached the exfiltration sink').toEqual([]);
      expect(await longestStallMs(page), 'the longest main-thread stall, in ms').toBeLessThan(MAX_STALL_MS);
    },
    { auto: true },
  ],
});

export { expect };
