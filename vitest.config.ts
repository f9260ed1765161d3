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
  },
});
