import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../cli/scripted/scriptedServer.ts';
import { useScriptedServer } from '../../../e2e/fixtures/scriptedServerHooks.ts';
import { BackendError } from '../../engine/errors.ts';
import { parseRetryAfter, postWithRetry, sleep, type RetryInfo } from './http.ts';
import { MODEL, TEST_KEY } from '../../../e2e/fixtures/backendCalls.ts';

let server: ScriptedServer;
useScriptedServer({ models: {} }, (started) => (server = started));
afterEach(() => {
  vi.unstubAllGlobals();
});

function post(url: string, extra: Partial<Parameters<typeof postWithRetry>[0]> = {}) {
  return postWithRetry(
    { provider: 'Test', url, headers: { 'content-type': 'application/json' }, body: { model: MODEL, stream: false }, secrets: [TEST_KEY], ...extra },
    async (attempt) => attempt.response.json() as Promise<unknown>,
  );
}

async function failure(promise: Promise<unknown>): Promise<BackendError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackendError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('parseRetryAfter', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 21 Oct 2026 07:28:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 21 Oct 2026 07:27:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});

describe('postWithRetry', () => {
  it('fails at once when Retry-After is longer than the cap', async () => {
    server.reset({ models: { [MODEL]: [{ content: 'x', fault: { kind: 'status', status: 429, retryAfterSeconds: 30 } }] } });
    const retries: RetryInfo[] = [];
    const started = Date.now();
    const error = await failure(post(`${server.url}/v1/chat/completions`, { maxRetryAfterMs: 5000, onRetry: (info) => retries.push(info) }));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error.code).toBe('rate_limit');
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.message).toContain('asked to wait 30 s, longer than the 5 s limit');
    expect(retries).toEqual([]);
  });

  it('backs off exponentially with jitter when no Retry-After is given', async () => {
    server.reset({ models: { [MODEL]: [{ content: 'x', fault: { kind: 'status', status: 502, times: 3 } }] } });
    const retries: RetryInfo[] = [];
    const result = await post(`${server.url}/v1/chat/completions`, { retryBaseDelayMs: 20, onRetry: (info) => retries.push(info) });
    expect(result).toMatchObject({ choices: [{ message: { content: 'x' } }] });
    expect(retries.map((retry) => retry.attempt)).toEqual([1, 2, 3]);
    retries.forEach((retry, i) => {
      const ceiling = 20 * 2 ** i;
      expect(retry.waitMs).toBeGreaterThanOrEqual(ceiling / 2);
      expect(retry.waitMs).toBeLessThanOrEqual(ceiling);
    });
  });

  it('says nothing answers when a cross-origin fetch from a page fails and nothing listens there (not CORS)', async () => {
    const closed = await startScriptedServer({ scenario: { models: {} } });
    await closed.close();
    vi.stubGlobal('location', { origin: 'http://localhost:5173' });
    const retries: RetryInfo[] = [];
    const error = await failure(post(`${closed.url}/v1/chat/completions`, { maxRetries: 1, retryBaseDelayMs: 1, onRetry: (info) => retries.push(info) }));
    expect(error.code).toBe('network');
    expect(error.message).toContain(`Nothing answers at ${new URL(closed.url).host} — is the server running?`);
    expect(error.message).not.toMatch(/CORS|Ollama/);
    // A server that is starting up may answer a moment later: it is retried.
    expect(retries).toHaveLength(1);
  });

  it('keeps the key out of messages even when it is in the URL', async () => {
    const closed = await startScriptedServer({ scenario: { models: {} } });
    await closed.close();
    const error = await failure(post(`${closed.url}/v1/chat/completions?key=${TEST_KEY}`, { maxRetries: 0 }));
    expect(error.code).toBe('network');
    expect(error.message).toContain('?key=***');
    expect(error.message).not.toContain(TEST_KEY);
  });
});

describe('sleep', () => {
  it('rejects with aborted at once when the signal fires', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    const error = await failure(sleep(5000, controller.signal, 'Test'));
    expect(error.code).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(200);
  });
});
