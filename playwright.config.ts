import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// PLAYWRIGHT_PORT lets two checkouts run their browser tests side by side.
const port = Number(process.env.PLAYWRIGHT_PORT) || 4173;
const isCI = Boolean(process.env.CI);

// Debian's Chromium where installed (CI installs it), else CHROMIUM_PATH, else the browser
// Playwright downloaded itself (`npx playwright install chromium`).
const debianChromium = '/usr/bin/chromium';
const executablePath = existsSync(debianChromium) ? debianChromium : process.env.CHROMIUM_PATH || undefined;

const chromiumArgs = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// Specs that need a WebGPU adapter carry the tag @webgpu and run only in `chromium-webgpu`.
const webgpuTag = /@webgpu/;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  workers: 2,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // The offline service worker would answer requests before page.route sees them (and download
    // Pyodide in every test): blocked here, allowed in e2e/offline.spec.ts, which tests it.
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'chromium',
      grepInvert: webgpuTag,
      use: { browserName: 'chromium', launchOptions: { executablePath, args: chromiumArgs } },
    },
    {
      name: 'chromium-webgpu',
      grep: webgpuTag,
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath, args: [...chromiumArgs, '--enable-unsafe-webgpu'] },
      },
    },
  ],
  // The production build plus the sandboxes' harness pages (`--mode e2e`, into dist-e2e/), served
  // with the production headers. `vite build` alone: type errors are the typecheck step's job, not
  // a reason for every browser test to fail.
  webServer: {
    command: `npx vite build --mode e2e --logLevel warn && npx vite preview --mode e2e --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !isCI,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
