// What every security spec asserts besides its own point: nothing the attacker controls reaches
// a server it should not (an "exfiltration" server on its own port records every request made to
// it), and the page's main thread stays responsive (a heartbeat in the page measures the longest
// gap between its ticks).
//
//   const sink = await startExfiltrationSink();          // hostile payloads aim at sink.url
//   await installHeartbeat(page);                        // before page.goto
//   … attack …
//   expect(sink.requests).toEqual([]);
//   expect(await longestStallMs(page)).toBeLessThan(1_000);

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface ExfiltrationSink {
  /** http://127.0.0.1:PORT — a host no part of the playground has any reason to contact. */
  url: string;
  /** Every request that reached it, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A server on a free port that answers every request (CORS open, so a leak is not hidden by a
 * CORS failure on the response) and records it. */
export async function startExfiltrationSink(): Promise<ExfiltrationSink> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    response.writeHead(200, {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'content-type': 'text/javascript',
    });
    response.end('/* recorded */');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts a 50 ms heartbeat in every document the page loads from now on. Call before goto. */
export async function installHeartbeat(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { last: performance.now(), longest: 0 };
    (globalThis as unknown as { __heartbeat: typeof state }).__heartbeat = state;
    setInterval(() => {
      const now = performance.now();
      state.longest = Math.max(state.longest, now - state.last);
      state.last = now;
    }, 50);
  });
}

/** The longest gap between two heartbeat ticks so far, in milliseconds, including the current one. */
export async function longestStallMs(page: Page): Promise<number> {
  return page.evaluate(() => {
    const state = (globalThis as unknown as { __heartbeat?: { last: number; longest: number } }).__heartbeat;
    if (!state) throw new Error('installHeartbeat(page) was not called before the page loaded');
    return Math.max(state.longest, performance.now() - state.last);
  });
}
