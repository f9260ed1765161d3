// Both remote clients (the OpenAI one over Chat Completions and over the Responses API) against
// every fault the scripted server can inject.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fault, ScriptedResponse } from '../../../cli/scripted/scenario.ts';
import type { ScriptedServer } from '../../../cli/scripted/scriptedServer.ts';
import { startExfiltrationSink, type ExfiltrationSink } from '../../../e2e/security/support.ts';
import type { ChatModel } from '../../engine/types.ts';
import { MAX_REPLY_CHARS } from './limits.ts';
import { createAnthropicModel } from '../anthropic/anthropic.ts';
import { createOpenAICompatibleModel } from '../openai-compatible/openaiCompatible.ts';
import { MODEL, scriptedModelServer, TEST_KEY, call, expectFailure, retriesOf, textOf } from '../../../e2e/fixtures/backendCalls.ts';

interface ClientSettings {
  timeoutMs?: number;
  idleTimeoutMs?: number;
  maxRetries?: number;
}

const clients: Array<{ name: string; make: (server: ScriptedServer, settings?: ClientSettings) => ChatModel }> = [
  {
    name: 'openai-compatible',
    make: (server, settings) =>
      createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: MODEL, apiKey: TEST_KEY, retryBaseDelayMs: 10, ...settings }),
  },
  {
    // The same client with every request sent through OpenAI's Responses API (openaiResponses.ts).
    name: 'openai responses',
    make: (server, settings) => {
      const chat = createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: MODEL, apiKey: TEST_KEY, retryBaseDelayMs: 10, ...settings });
      return { ...chat, complete: (request, onDelta) => chat.complete({ ...request, api: 'responses' }, onDelta) };
    },
  },
  {
    name: 'anthropic',
    make: (server, settings) =>
      createAnthropicModel({ baseUrl: server.url, model: MODEL, apiKey: TEST_KEY, retryBaseDelayMs: 10, ...settings }),
  },
];

const ANSWER = 'The capital of France is Paris.';

let server: ScriptedServer;
const script = scriptedModelServer((started) => (server = started));

function answerWith(fault?: Fault, extra: Partial<ScriptedResponse> = {}): ScriptedResponse {
  return { content: ANSWER, chunkSize: 4, ...(fault ? { fault } : {}), ...extra };
}

describe.each(clients)('$name client against faults', ({ make }) => {
  beforeEach(() => script());

  it('waits out a 429 as long as Retry-After says, reports the wait, then succeeds', async () => {
    script(answerWith({ kind: 'status', status: 429, retryAfterSeconds: 1 }));
    const outcome = await call(make(server));
    expect(outcome.completion?.content).toBe(ANSWER);
    expect(retriesOf(outcome.deltas)).toEqual([{ type: 'retry', attempt: 1, waitMs: 1000, reason: 'rate limited (HTTP 429)' }]);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(1000);
    expect(outcome.elapsedMs).toBeLessThan(2500);
    const [first, second] = server.requests;
    expect(second!.time - first!.time).toBeGreaterThanOrEqual(990);
  });

  it.each([500, 503])('retries HTTP %i with backoff, then succeeds', async (status) => {
    script(answerWith({ kind: 'status', status, times: 2 }));
    const outcome = await call(make(server));
    expect(outcome.completion?.content).toBe(ANSWER);
    expect(textOf(outcome.deltas, 'content')).toBe(ANSWER);
    expect(retriesOf(outcome.deltas).map((retry) => [retry.attempt, retry.reason])).toEqual([
      [1, `server error (HTTP ${status})`],
      [2, `server error (HTTP ${status})`],
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after the last retry with a clear server error', async () => {
    script(answerWith({ kind: 'status', status: 503, times: 10 }));
    const outcome = await call(make(server, { maxRetries: 2 }));
    const error = expectFailure(outcome, 'server');
    expect(error.status).toBe(503);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('HTTP 503');
    expect(error.message).toContain('Gave up after 3 attempts');
    expect(server.requests).toHaveLength(3);
  });

  it('reports a refused key as auth, without retrying and without echoing the key', async () => {
    script(answerWith({ kind: 'status', status: 401 }));
    const outcome = await call(make(server));
    const error = expectFailure(outcome, 'auth');
    expect(error.message).toContain('Incorrect API key provided: ***');
    expect(error.message).toContain('Check the API key');
    expect(server.requests).toHaveLength(1);
    expect(retriesOf(outcome.deltas)).toEqual([]);
  });

  it('reports a 400 about the context window as context_length', async () => {
    script(answerWith({ kind: 'status', status: 400, message: "This model's maximum context length is 40960 tokens." }));
    const error = expectFailure(await call(make(server)), 'context_length');
    expect(error.message).toContain('maximum context length is 40960 tokens');
    expect(server.requests).toHaveLength(1);
  });

  it('times out when the first byte comes later than the timeout', async () => {
    script(answerWith({ kind: 'slow_first_byte', delayMs: 1000 }));
    const outcome = await call(make(server, { timeoutMs: 150, maxRetries: 0 }));
    const error = expectFailure(outcome, 'timeout');
    expect(error.message).toContain('0.15 s');
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(140);
    expect(outcome.elapsedMs).toBeLessThan(700);
  });

  it('retries a timed-out attempt and succeeds', async () => {
    // The client hung up on the slow answer, so the server puts it back; its fault has fired, so
    // the retry gets the same answer at once.
    script(answerWith({ kind: 'slow_first_byte', delayMs: 1000 }));
    const outcome = await call(make(server, { timeoutMs: 150, maxRetries: 1 }));
    expect(outcome.completion?.content).toBe(ANSWER);
    expect(server.requests).toHaveLength(2);
    expect(retriesOf(outcome.deltas).map((retry) => retry.reason)).toEqual(['timed out']);
  });

  it('succeeds when the first byte is slow but within the timeout', async () => {
    script(answerWith({ kind: 'slow_first_byte', delayMs: 200 }));
    const outcome = await call(make(server, { timeoutMs: 2000 }));
    expect(outcome.completion?.content).toBe(ANSWER);
    expect(outcome.completion!.timeToFirstTokenMs).toBeGreaterThanOrEqual(190);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream dropped before any delta, delivering each delta once', async () => {
    script(answerWith({ kind: 'drop_mid_stream', afterChunks: 1 }));
    const outcome = await call(make(server));
    expect(outcome.completion?.content).toBe(ANSWER);
    expect(textOf(outcome.deltas, 'content')).toBe(ANSWER);
    expect(retriesOf(outcome.deltas).map((retry) => retry.reason)).toEqual(['connection failed']);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a stream dropped after deltas, and says why', async () => {
    script(answerWith({ kind: 'drop_mid_stream', afterChunks: 5 }), answerWith());
    const outcome = await call(make(server));
    const error = expectFailure(outcome, 'network');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('broke in the middle of a response');
    expect(error.message).toContain('not retried');
    const partial = textOf(outcome.deltas, 'content');
    expect(partial.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(partial)).toBe(true);
    expect(partial).not.toBe(ANSWER);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a malformed chunk as bad_response, naming the problem', async () => {
    script(answerWith({ kind: 'malformed_chunk', afterChunks: 1 }));
    const error = expectFailure(await call(make(server)), 'bad_response');
    expect(error.message).toContain('not valid JSON');
    expect(error.message).toContain('{not json');
    expect(server.requests).toHaveLength(1);
  });

  it('turns an error event inside the stream into a BackendError', async () => {
    script(answerWith({ kind: 'stream_error', afterChunks: 4, status: 529, errorType: 'overloaded_error', message: 'Overloaded' }));
    const error = expectFailure(await call(make(server)), 'server');
    expect(error.message).toContain('Overloaded');
  });

  it('rejects a hung call with aborted within 200 ms of the abort', async () => {
    script(answerWith({ kind: 'hang' }));
    const controller = new AbortController();
    const pending = call(make(server), { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const abortedAt = Date.now();
    controller.abort();
    const outcome = await pending;
    expectFailure(outcome, 'aborted');
    expect(Date.now() - abortedAt).toBeLessThan(200);
  });

  it('rejects with aborted within 200 ms when aborted mid-stream', async () => {
    script(answerWith(undefined, { chunkDelayMs: 100 }));
    const controller = new AbortController();
    let abortedAt = 0;
    const outcome = await call(make(server), { signal: controller.signal }, (delta) => {
      if (delta.type === 'content' && abortedAt === 0) {
        abortedAt = Date.now();
        controller.abort();
      }
    });
    expectFailure(outcome, 'aborted');
    expect(Date.now() - abortedAt).toBeLessThan(200);
    expect(textOf(outcome.deltas, 'content')).toBe(ANSWER.slice(0, 4));
  });

  it('rejects with aborted within 200 ms when aborted during a backoff wait', async () => {
    script(answerWith({ kind: 'status', status: 429, retryAfterSeconds: 5 }));
    const controller = new AbortController();
    const outcome = await call(make(server), { signal: controller.signal }, (delta) => {
      if (delta.type === 'retry') setTimeout(() => controller.abort(), 50);
    });
    expectFailure(outcome, 'aborted');
    expect(outcome.elapsedMs).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a stream that goes quiet between chunks', async () => {
    script(answerWith(undefined, { chunkDelayMs: 400 }));
    const outcome = await call(make(server, { idleTimeoutMs: 100, maxRetries: 0 }));
    const error = expectFailure(outcome, 'timeout');
    expect(error.message).toContain('stopped sending data');
    expect(outcome.elapsedMs).toBeLessThan(1000);
  });

  it('works when the server answers without CORS headers (only browsers enforce them)', async () => {
    script(answerWith({ kind: 'no_cors' }));
    const outcome = await call(make(server));
    expect(outcome.completion?.content).toBe(ANSWER);
  });
});

describe.each(clients)('$name client against a hostile server', ({ make }) => {
  let sink: ExfiltrationSink;
  beforeAll(async () => {
    sink = await startExfiltrationSink();
  });
  afterAll(async () => {
    await sink.close();
  });
  beforeEach(() => {
    script();
    sink.requests.length = 0;
  });

  it.each([307, 308, 302])('never follows a %i redirect, so the key stays here, and names where it pointed', async (status) => {
    script(answerWith({ kind: 'redirect', status: status as 307, location: `${sink.url}/steal` }));
    const error = expectFailure(await call(make(server)), 'redirect');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`redirected the request (HTTP ${status}) to ${sink.url}/steal`);
    expect(error.message).toContain('never follow a redirect');
    expect(sink.requests).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['content', 40_000_000],
    ['reasoning', 150_000_000],
    ['tool_arguments', 40_000_000],
  ] as const)('stops reading a streamed %s flood of %i characters at the reply cap', async (field, chars) => {
    script(answerWith({ kind: 'flood', field, chars }));
    const outcome = await call(make(server));
    const error = expectFailure(outcome, 'too_large');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`passed ${MAX_REPLY_CHARS.toLocaleString('en-US')} characters`);
    const delivered = textOf(outcome.deltas, 'content').length + textOf(outcome.deltas, 'reasoning').length;
    expect(delivered).toBeLessThanOrEqual(MAX_REPLY_CHARS);
    expect(server.requests).toHaveLength(1);
  });

  it('stops reading a stream of tiny events at the byte cap', async () => {
    script(answerWith({ kind: 'flood', field: 'reasoning', chars: 900_000, pieceChars: 1 }));
    const outcome = await call(make(server));
    const error = expectFailure(outcome, 'too_large');
    expect(error.message).toContain('more than 64 MiB in one response');
  });

  it('stops reading a whole (non-streamed) JSON answer of 40 MB', async () => {
    script(answerWith({ kind: 'flood', field: 'content', chars: 40_000_000 }, { ignoreStream: true }));
    const error = expectFailure(await call(make(server)), 'too_large');
    expect(error.message).toContain('more than 16 MiB of JSON');
  });

  it('reads only the start of a 150 MB error body, and shows a short message', async () => {
    script(answerWith({ kind: 'flood', field: 'error_body', chars: 150_000_000 }));
    const error = expectFailure(await call(make(server, { maxRetries: 0 })), 'server');
    expect(error.message.length).toBeLessThan(1000);
    expect(error.message).toContain('HTTP 500');
    // The client hung up after the first bytes (what the sockets buffer in between aside).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.requests[0]!.floodChars).toBeLessThan(20_000_000);
  });
});
