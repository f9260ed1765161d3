import { defineConfig } from 'vitest/config';

// Unit and integration tests run in Node and sit next to the code they test.
// Browser behaviour lives in e2e/ and runs under Playwright instead.
export default defineConfig({
  test: {
    include: ['{workers,tools,cli,app,e2e/fixtures}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Some tests assert stop latencies (a stop within 200 ms); on a loaded 2-core CI machine one
    // retry keeps a scheduling hiccup from failing the build. Locally a failure shows at once.
    retry: process.env.CI ? 1 : 0,
  },
});
