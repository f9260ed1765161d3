import { defineConfig } from 'vitest/config';

// Unit and integration tests run in Node and sit next to the code they test.
// Browser behaviour lives in e2e/ and runs under Playwright instead.
export default defineConfig({
  test: {
    include: ['{workers,tools,cli,bench,app,server,e2e/fixtures}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Some tests assert stop latencies (a stop within 200 ms, the engine's contract). CI shares a
    // 2-core machine and has stalled a whole fork for over a second, so a latency test gets two
    // retries there; a real regression fails all three. Locally a failure shows at once.
    retry: process.env.CI ? 2 : 0,
  },
});
