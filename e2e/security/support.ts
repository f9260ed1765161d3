// What every security spec asserts besides its own point: nothing the attacker controls reaches
// a server it should not (an "exfiltration" server on its own port records every request made to
// it), and the page's main thread stays responsive (a heartbeat in the page measures the longest
// gap between its ticks). fixtures.ts checks both around each test (or a shared page).
//
// WorkerInspector reaches the page's workers, nested ones included, and records what they log;
// probeWorkerPolicy tries what a worker script's own Content-Security-Policy allows.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type CDPSession, type Page } from '@playwright/test';

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

/** The page-side record of the heartbeat: its stalls (gaps of 200 ms or more), by when they began
 * on the document's clock and how long they lasted, and the long animation frames. */
interface HeartbeatState {
  last: number;
  stalls: Array<[startMs: number, wallMs: number]>;
  frames: string[];
}

/** The CPU time of the page's main thread (CDP Performance.getMetrics, ThreadTime), sampled every
 * 100 ms from outside the page: [monotonic seconds, CPU seconds]. */
const cpuSamplers = new WeakMap<Page, { samples: Array<[number, number]>; session: CDPSession }>();

/**
 * Watches the page's main thread from now on: a 50 ms heartbeat in every document it loads (each
 * gap of 200 ms or more is a stall), the long animation frames with the scripts that ran in them
 * (to say what a stall was), and the main thread's CPU time sampled from outside. A stall is the
 * page's own when its main thread spent the stall computing; on a loaded machine a stall can also
 * be the page waiting for a core, which costs it no CPU (expectNoStallOver tells the two apart).
 * Call before goto.
 */
export async function installHeartbeat(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { last: performance.now(), stalls: [] as Array<[number, number]>, frames: [] as string[] };
    (globalThis as unknown as { __heartbeat: typeof state }).__heartbeat = state;
    setInterval(() => {
      const now = performance.now();
      if (now - state.last >= 200 && state.stalls.length < 200) state.stalls.push([state.last, now - state.last]);
      state.last = now;
    }, 50);
    // Long animation frames (Chromium): where a stall went, named by the scripts that ran in it.
    type Script = { invoker: string; sourceURL: string; sourceFunctionName: string; duration: number };
    type Frame = PerformanceEntry & { blockingDuration: number; scripts: Script[] };
    try {
      new PerformanceObserver((list) => {
        for (const frame of list.getEntries() as Frame[]) {
          if (frame.duration < 200 || state.frames.length >= 20) continue;
          const scripts = [...frame.scripts]
            .sort((a, b) => b.duration - a.duration)
            .slice(0, 3)
            .map((script) => `${script.invoker} ${script.sourceURL.split('/').pop() ?? ''} ${script.sourceFunctionName} ${Math.round(script.duration)} ms`);
          state.frames.push(`at ${Math.round(frame.startTime)} ms: ${Math.round(frame.duration)} ms (${scripts.join('; ') || 'no script: layout, style or the browser'})`);
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
    } catch {
      // A browser without the API still has the heartbeat.
    }
  });
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const sampler = { samples: [] as Array<[number, number]>, session };
  cpuSamplers.set(page, sampler);
  const sample = async () => {
    const { metrics } = await session.send('Performance.getMetrics');
    const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? Number.NaN;
    sampler.samples.push([value('Timestamp'), value('ThreadTime')]);
  };
  const timer = setInterval(() => sample().catch(() => clearInterval(timer)), 100);
  page.once('close', () => clearInterval(timer));
}

/** The CPU seconds the main thread spent between two monotonic times, from the samples around
 * them (a sample interval that straddles an end counts in proportion). */
function cpuBetween(samples: ReadonlyArray<[number, number]>, from: number, to: number): number {
  let cpu = 0;
  for (let index = 1; index < samples.length; index++) {
    const [t0, c0] = samples[index - 1]!;
    const [t1, c1] = samples[index]!;
    const overlap = Math.min(t1, to) - Math.max(t0, from);
    // A renderer swapped on navigation starts its count again: that interval says nothing.
    if (overlap <= 0 || t1 <= t0 || c1 < c0) continue;
    cpu += (c1 - c0) * (overlap / (t1 - t0));
  }
  return cpu;
}

export interface Stall {
  /** When it began, on the document's clock, in ms. */
  atMs: number;
  wallMs: number;
  /** The main thread's CPU time during it, in ms (null without samples). */
  cpuMs: number | null;
}

/** The page's main-thread stalls so far (the current one included), longest CPU first, and its long
 * animation frames, for the message when one is too long. */
export async function mainThreadStalls(page: Page): Promise<{ stalls: Stall[]; frames: string[] }> {
  const sampler = cpuSamplers.get(page);
  const { metrics } = sampler ? await sampler.session.send('Performance.getMetrics') : { metrics: [] };
  const seen = await page.evaluate(() => {
    const state = (globalThis as unknown as { __heartbeat?: HeartbeatState }).__heartbeat;
    if (!state) throw new Error('installHeartbeat(page) was not called before the page loaded');
    const now = performance.now();
    return { now, stalls: now - state.last >= 200 ? [...state.stalls, [state.last, now - state.last] as [number, number]] : state.stalls, frames: state.frames };
  });
  // The document's clock (ms) against the monotonic one CDP samples on (s), read back to back.
  const monotonicNow = metrics.find((metric) => metric.name === 'Timestamp')?.value;
  const offset = monotonicNow === undefined ? null : monotonicNow - seen.now / 1000;
  const stalls = seen.stalls.map(([atMs, wallMs]): Stall => ({
    atMs: Math.round(atMs),
    wallMs: Math.round(wallMs),
    cpuMs: offset === null || !sampler ? null : Math.round(1000 * cpuBetween(sampler.samples, offset + atMs / 1000, offset + (atMs + wallMs) / 1000)),
  }));
  stalls.sort((a, b) => (b.cpuMs ?? b.wallMs) - (a.cpuMs ?? a.wallMs));
  return { stalls, frames: seen.frames };
}

/** Forgets the stalls so far (the page's start-up), for a test that watches one stretch of it. */
export async function forgetStalls(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = (globalThis as unknown as { __heartbeat?: HeartbeatState }).__heartbeat;
    if (!state) throw new Error('installHeartbeat(page) was not called before the page loaded');
    Object.assign(state, { last: performance.now(), stalls: [], frames: [] });
  });
}

/**
 * Asserts that the page's main thread never spent `maxMs` of CPU in one stall: never computed for
 * that long without letting a timer run. Returns the longest stall's CPU time, in ms. The CPU, not the wall clock: on a loaded two-core machine
 * a 300 ms render can wait seconds for a core, and that wait is not the page's. Without CPU
 * samples (a browser with no ThreadTime), the wall clock.
 */
export async function expectNoStallOver(page: Page, maxMs: number): Promise<number> {
  const { stalls, frames } = await mainThreadStalls(page);
  const worst = stalls[0];
  const spent = worst ? (worst.cpuMs ?? worst.wallMs) : 0;
  const described = stalls.slice(0, 5).map((stall) => `at ${stall.atMs} ms: ${stall.wallMs} ms, ${stall.cpuMs ?? '?'} ms of CPU`);
  expect(spent, `the main thread's longest stall, in ms of CPU; stalls:\n${described.join('\n') || 'none'}\nlong frames:\n${frames.join('\n') || 'none recorded'}`).toBeLessThan(maxMs);
  return spent;
}

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message?: string };
}

/** A message a target logged through the DevTools protocol. */
export interface LoggedEntry {
  /** The page (its URL) or the worker script that logged it. */
  target: string;
  source: string;
  level: string;
  text: string;
}

/**
 * The page and all its workers, nested ones included (the Python sandbox inside the orchestrator
 * worker, pdf.js inside the documents worker), through the DevTools protocol: evaluates code in a
 * worker — Playwright's worker.evaluate needs the worker's `eval`, which the Python sandbox removes
 * — and records what every target logs, Content-Security-Policy violations included. Attach
 * before the workers start to see everything they log.
 */
export class WorkerInspector {
  readonly entries: LoggedEntry[] = [];
  private readonly workers: Array<{ path: string[]; url: string }> = [];
  private readonly replies = new Map<number, (message: CdpMessage) => void>();
  private nextId = 1;

  /** Log.enable replays what a target logged before: only entries from after attaching count. */
  private readonly attachedAt = Date.now();

  private constructor(private readonly session: CDPSession) {}

  private record(target: string, entry: RawEntry): void {
    if (entry.timestamp < this.attachedAt) return;
    this.entries.push({ target, source: entry.source, level: entry.level, text: entry.text });
  }

  static async attach(page: Page): Promise<WorkerInspector> {
    const session = await page.context().newCDPSession(page);
    const inspector = new WorkerInspector(session);
    session.on('Target.attachedToTarget', (params) => inspector.handle([], { method: 'Target.attachedToTarget', params }));
    session.on('Target.receivedMessageFromTarget', (params) =>
      inspector.handle([], { method: 'Target.receivedMessageFromTarget', params }),
    );
    session.on('Log.entryAdded', (params: { entry: RawEntry }) => inspector.record(page.url(), params.entry));
    await session.send('Log.enable');
    await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    return inspector;
  }

  /** The script URLs of every worker seen so far, nested ones included, in the order they started. */
  workerUrls(): string[] {
    return this.workers.map((worker) => worker.url);
  }

  /** Every Content-Security-Policy violation logged so far, page and workers. */
  violations(): LoggedEntry[] {
    return this.entries.filter((entry) => /Content Security Policy/i.test(entry.text));
  }

  /** Evaluates `expression` (awaiting a promise, returning JSON) in the last-started worker whose
   * script URL contains `urlPart`. */
  async evaluate<T>(urlPart: string, expression: string, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let target = this.workers.filter((worker) => worker.url.includes(urlPart)).at(-1);
    while (!target && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      target = this.workers.filter((worker) => worker.url.includes(urlPart)).at(-1);
    }
    if (!target) throw new Error(`no worker whose URL contains "${urlPart}" (saw ${this.workers.map((worker) => worker.url).join(', ') || 'none'})`);
    const reply = await this.send(target.path, 'Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (reply.error) throw new Error(`Runtime.evaluate failed: ${reply.error.message ?? JSON.stringify(reply.error)}`);
    const result = reply.result as { result?: { value?: unknown }; exceptionDetails?: { exception?: { description?: string }; text?: string } };
    const details = result.exceptionDetails;
    if (details) throw new Error(`the worker threw: ${details.exception?.description ?? details.text ?? 'an exception'}`);
    return result.result?.value as T;
  }

  async detach(): Promise<void> {
    await this.session.detach().catch(() => undefined);
  }

  /** A worker is reached through the sessions of its ancestors (the protocol's non-flat mode). */
  private send(path: string[], method: string, params: Record<string, unknown>): Promise<CdpMessage> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.replies.set(id, resolve);
      let message: CdpMessage = { id, method, params };
      for (const sessionId of path.slice(1).reverse()) {
        message = { id: this.nextId++, method: 'Target.sendMessageToTarget', params: { sessionId, message: JSON.stringify(message) } };
      }
      this.session
        .send('Target.sendMessageToTarget', { sessionId: path[0] ?? '', message: JSON.stringify(message) })
        .catch(() => resolve({ error: { message: 'the worker is gone' } }));
    });
  }

  private handle(path: string[], message: CdpMessage): void {
    const params = message.params ?? {};
    if (message.method === 'Target.attachedToTarget') {
      const info = params.targetInfo as { type: string; url: string };
      const childPath = [...path, params.sessionId as string];
      if (info.type !== 'worker') return;
      this.workers.push({ path: childPath, url: info.url });
      void this.send(childPath, 'Log.enable', {});
      void this.send(childPath, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    } else if (message.method === 'Target.receivedMessageFromTarget') {
      const childPath = [...path, params.sessionId as string];
      const inner = JSON.parse(params.message as string) as CdpMessage;
      if (inner.method === 'Log.entryAdded') {
        const url = this.workers.find((worker) => worker.path.join() === childPath.join())?.url ?? 'a worker';
        this.record(url, (inner.params as { entry: RawEntry }).entry);
      } else this.handle(childPath, inner);
    } else if (message.id !== undefined) {
      this.replies.get(message.id)?.(message);
    }
  }
}

interface RawEntry {
  source: string;
  level: string;
  text: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/**
 * What a worker script's own Content-Security-Policy lets code in that worker do. Starts a second
 * worker from `scriptUrl` that is never sent a message (so nothing of the app's own lockdown runs)
 * and tries each attempt there: `attempts` maps a name to an expression that may use `attempt(f)`
 * (the outcome of calling f, or "refused: <error name>"), `later(f)` (the same from a timer, as
 * the worker's own code: code run through DevTools may eval) and `settles(target)` (whether a
 * WebSocket or Worker opened or failed). A string timer is tried as `stringTimer`.
 */
export async function probeWorkerPolicy(page: Page, scriptUrl: string, attempts: Record<string, string>): Promise<Record<string, string>> {
  // A mark of its own, so an earlier probe still shutting down is never the one evaluated.
  const mark = `policy-probe-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const probeUrl = `${scriptUrl}${scriptUrl.includes('?') ? '&' : '?'}${mark}`;
  const inspector = await WorkerInspector.attach(page);
  try {
    await page.evaluate((url) => {
      (window as unknown as { policyProbe: Worker }).policyProbe = new Worker(url, { type: 'module' });
    }, probeUrl);
    // A worker is attached before its global scope is ready: wait until it has timers.
    for (let tries = 0; (await inspector.evaluate<string>(mark, 'typeof setTimeout')) !== 'function'; tries++) {
      if (tries > 50) throw new Error(`the probe worker from ${scriptUrl} never became ready`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const entries = Object.entries(attempts)
      .map(([name, expression]) => `report[${JSON.stringify(name)}] = await ${expression};`)
      .join('\n');
    return await inspector.evaluate<Record<string, string>>(
      mark,
      `(async () => {
        const attempt = async (action) => { try { return String(await action()); } catch (error) { return 'refused: ' + error.name; } };
        const later = (action) => new Promise((resolve) => setTimeout(() => attempt(action).then(resolve), 0));
        const settles = (target) => new Promise((resolve) => {
          target.onopen = () => resolve('opened');
          target.onerror = () => resolve('refused: error event');
        });
        const report = {};
        ${entries}
        setTimeout('self.stringTimerRan = true', 0);
        await new Promise((resolve) => setTimeout(resolve, 200));
        report.stringTimer = self.stringTimerRan === true ? 'ran' : 'did not run';
        return report;
      })()`,
    );
  } finally {
    await page.evaluate(() => (window as unknown as { policyProbe?: Worker }).policyProbe?.terminate());
    await inspector.detach();
  }
}

/** The attempts every sandbox worker's policy refuses, aimed at `sinkUrl`, and what each meets. */
export function refusedEverywhere(sinkUrl: string): { attempts: Record<string, string>; refused: Record<string, string> } {
  const url = (path: string) => JSON.stringify(`${sinkUrl}${path}`);
  return {
    attempts: {
      eval: "later(() => eval('1 + 1'))",
      Function: "later(() => new Function('return 1')())",
      import: `attempt(() => import(${url('/policy-import.js')}))`,
      fetch: `attempt(() => fetch(${url('/policy-fetch')}).then((response) => response.status))`,
      WebSocket: `attempt(() => settles(new WebSocket(${JSON.stringify(`${sinkUrl.replace(/^http/, 'ws')}/policy-socket`)})))`,
      Worker: "attempt(() => settles(new Worker(URL.createObjectURL(new Blob(['1'], { type: 'text/javascript' })))))",
    },
    refused: {
      eval: 'refused: EvalError',
      Function: 'refused: EvalError',
      import: 'refused: TypeError',
      fetch: 'refused: TypeError',
      WebSocket: 'refused: error event',
      Worker: 'refused: error event',
      stringTimer: 'did not run',
    },
  };
}
