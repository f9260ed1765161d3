// The stall guard every security spec runs (support.ts, expectNoStallOver) must bite: a page that
// computes for 3 s (at least half of it on a core even on a loaded machine) fails it, and a page that only waits 1.5 s (a synchronous request, the thread
// blocked but idle, as it is while waiting for a core on a loaded machine) passes it.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { expectNoStallOver, installHeartbeat } from './support.ts';

let server: Server;
let origin: string;

test.beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/slow') {
      setTimeout(() => response.end('done'), 1_500);
      return;
    }
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>stall guard</title><p>A page for the stall guard.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('fails a page whose main thread computes for 3 s', async ({ page }) => {
  await installHeartbeat(page);
  await page.goto(`${origin}/`);
  await page.evaluate(() => {
    const until = performance.now() + 3_000;
    while (performance.now() < until) {
      // The freeze an unbounded render of hostile input would cause.
    }
  });
  // Let the CPU sampler see past the stall's end.
  await page.waitForTimeout(300);
  await expect(expectNoStallOver(page, 1_000)).rejects.toThrow(/longest stall, in ms of CPU/);
});

test('passes a page whose main thread only waits for 1.5 s', async ({ page }) => {
  await installHeartbeat(page);
  await page.goto(`${origin}/`);
  const wall = await page.evaluate(() => {
    const started = performance.now();
    const request = new XMLHttpRequest();
    request.open('GET', '/slow', false);
    request.send();
    return performance.now() - started;
  });
  expect(wall).toBeGreaterThan(1_400);
  await page.waitForTimeout(300);
  await expectNoStallOver(page, 1_000);
});
