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

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message?: string };
}

/**
 * Evaluates `expression` (awaiting a promise, returning JSON) in the last-started worker of `page`
 * whose script URL contains `urlPart`, nested workers included (the pdf.js worker the documents
 * worker starts). Goes through the DevTools protocol rather than Playwright's worker.evaluate,
 * which needs the worker's `eval` — gone from the Python sandbox.
 */
export async function evaluateInWorker<T>(page: Page, urlPart: string, expression: string): Promise<T> {
  const session = await page.context().newCDPSession(page);
  // A worker is reached through the sessions of its ancestors (the protocol's non-flat mode).
  const workers: Array<{ path: string[]; url: string }> = [];
  const replies = new Map<number, (message: CdpMessage) => void>();
  let nextId = 1;
  const sendTo = (path: string[], method: string, params: Record<string, unknown>): Promise<CdpMessage> =>
    new Promise((resolve) => {
      const id = nextId++;
      replies.set(id, resolve);
      let message: CdpMessage = { id, method, params };
      for (const sessionId of path.slice(1).reverse()) {
        message = { id: nextId++, method: 'Target.sendMessageToTarget', params: { sessionId, message: JSON.stringify(message) } };
      }
      void session.send('Target.sendMessageToTarget', { sessionId: path[0] ?? '', message: JSON.stringify(message) });
    });
  const handle = (path: string[], message: CdpMessage) => {
    const params = message.params ?? {};
    if (message.method === 'Target.attachedToTarget') {
      const info = params.targetInfo as { type: string; url: string };
      const childPath = [...path, params.sessionId as string];
      if (info.type === 'worker') workers.push({ path: childPath, url: info.url });
      void sendTo(childPath, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    } else if (message.method === 'Target.receivedMessageFromTarget') {
      handle([...path, params.sessionId as string], JSON.parse(params.message as string) as CdpMessage);
    } else if (message.id !== undefined) {
      replies.get(message.id)?.(message);
    }
  };
  session.on('Target.attachedToTarget', (params) => handle([], { method: 'Target.attachedToTarget', params }));
  session.on('Target.receivedMessageFromTarget', (params) => handle([], { method: 'Target.receivedMessageFromTarget', params }));
  try {
    await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    const deadline = Date.now() + 10_000;
    let target = workers.filter((worker) => worker.url.includes(urlPart)).at(-1);
    while (!target && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      target = workers.filter((worker) => worker.url.includes(urlPart)).at(-1);
    }
    if (!target) throw new Error(`no worker whose URL contains "${urlPart}" (saw ${workers.map((worker) => worker.url).join(', ') || 'none'})`);
    const reply = await sendTo(target.path, 'Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (reply.error) throw new Error(`Runtime.evaluate failed: ${reply.error.message ?? JSON.stringify(reply.error)}`);
    const result = reply.result as { result?: { value?: unknown }; exceptionDetails?: { exception?: { description?: string }; text?: string } };
    const details = result.exceptionDetails;
    if (details) throw new Error(`the worker threw: ${details.exception?.description ?? details.text ?? 'an exception'}`);
    return result.result?.value as T;
  } finally {
    await session.detach();
  }
}
