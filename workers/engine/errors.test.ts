import { describe, expect, it } from 'vitest';
import { BackendError, describeError, errorFromStatus, toErrorInfo } from './errors.ts';

const failure = { provider: 'OpenRouter', url: 'https://openrouter.ai/api/v1/chat/completions', model: 'openai/gpt-5' };

describe('BackendError', () => {
  it('prefixes the message with its code and hides secrets', () => {
    const error = new BackendError({ code: 'auth', provider: 'X', message: 'bad key placeholder-secret-two', secrets: ['placeholder-secret-two'] });
    expect(error.name).toBe('BackendError');
    expect(error.message).toBe('[auth] bad key ***');
    expect(error.description).toBe('bad key ***');
    expect(error.retryable).toBe(false);
    expect(new BackendError({ code: 'server', provider: 'X', message: 'm' }).retryable).toBe(true);
  });

  it('keeps its code across structured clone (a worker boundary) through the message prefix', () => {
    const original = new BackendError({ code: 'rate_limit', provider: 'X', message: 'Slow down.', status: 429, retryAfterMs: 1000 });
    const cloned: unknown = structuredClone(original);
    expect(cloned).not.toBeInstanceOf(BackendError);
    expect(toErrorInfo(cloned)).toEqual({ code: 'rate_limit', message: 'Slow down.' });
    expect(toErrorInfo(original)).toEqual({ code: 'rate_limit', message: 'Slow down.', status: 429, retryAfterMs: 1000 });
    expect(describeError(cloned)).toBe('Slow down.');
  });

  it('describes other thrown values', () => {
    expect(toErrorInfo(new Error('boom'))).toEqual({ code: 'unknown', message: 'boom' });
    expect(toErrorInfo(new DOMException('stopped', 'AbortError'))).toEqual({ code: 'aborted', message: 'The request was cancelled.' });
    expect(toErrorInfo('plain')).toEqual({ code: 'unknown', message: 'plain' });
    expect(toErrorInfo({ odd: 1 })).toEqual({ code: 'unknown', message: '{"odd":1}' });
    expect(toErrorInfo(new Error('[not_a_code] x')).code).toBe('unknown');
  });
});

describe('errorFromStatus', () => {
  it.each([
    [401, '{"error":{"message":"No auth credentials found"}}', 'auth', false],
    [403, 'forbidden', 'auth', false],
    [404, '{"detail":"Not Found"}', 'not_found', false],
    [408, '', 'timeout', true],
    [422, '{"detail":[{"msg":"field required"}]}', 'bad_request', false],
    [400, '{"error":{"message":"This model\'s maximum context length is 40960 tokens"}}', 'context_length', false],
    [400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}', 'context_length', false],
    [400, '{"error":{"message":"temperature must be <= 2"}}', 'bad_request', false],
    [429, '{"error":{"message":"Rate limit exceeded"}}', 'rate_limit', true],
    [500, '<html>oops</html>', 'server', true],
    [501, 'not implemented', 'server', false],
    [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'server', true],
  ] as const)('HTTP %i %s → %s', (status, bodyText, code, retryable) => {
    const error = errorFromStatus({ ...failure, status, bodyText });
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.message).toContain(`HTTP ${status}`);
  });

  it('quotes the server message and says what to do', () => {
    const error = errorFromStatus({ ...failure, status: 401, bodyText: '{"error":{"message":"No auth credentials found"}}' });
    expect(error.message).toBe(
      '[auth] OpenRouter refused the request (HTTP 401): No auth credentials found. Check the API key configured for OpenRouter.',
    );
    const notFound = errorFromStatus({ ...failure, status: 404, bodyText: '' });
    expect(notFound.message).toContain('Check the base URL and the model id "openai/gpt-5"');
  });

  it('redacts the key the server echoed and shortens long bodies', () => {
    const error = errorFromStatus({ ...failure, status: 401, bodyText: `Invalid key placeholder-secret-one ${'x'.repeat(1000)}`, secrets: ['placeholder-secret-one'] });
    expect(error.message).not.toContain('placeholder-secret-one');
    expect(error.message.length).toBeLessThan(450);
  });

  // Issue 31, item 3: the body was shortened to 300 characters before it was redacted, so a key
  // echoed across the cut lost its end, the redactor no longer knew it, and all but a few of its
  // characters were shown, stored and exported.
  it('redacts before it shortens: a key echoed near or across the 300th character shows as ***, none of it left', () => {
    const key = 'sk-proj-Qm3vT8pX2rLk9wZc4nHs7yB1';
    for (const at of [270, 285, 292, 299, 300]) {
      const message = `Incorrect API key provided: ${'x'.repeat(at - 28)}${key}. See https://platform.openai.com/account/api-keys.`;
      for (const body of [message, JSON.stringify({ error: { message, type: 'invalid_request_error' } })]) {
        const error = errorFromStatus({ ...failure, status: 401, bodyText: body, secrets: [key] });
        // Past the 297th character the cut takes part of the marker itself.
        if (at <= 297) expect(error.message, `at ${at}`).toContain('***');
        for (let i = 0; i + 8 <= key.length; i++) expect(error.message, `at ${at}`).not.toContain(key.slice(i, i + 8));
      }
    }
  });

  it('shows *** for a key echoed JSON-escaped, percent-encoded or in base64 in an error too', () => {
    const key = 'sk-proj-Qm3vT8pX2rLk9wZc4nHs7yB1';
    const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    for (const form of [escaped, encodeURIComponent(key).replaceAll('-', '%2D'), Buffer.from(key).toString('base64')]) {
      const error = errorFromStatus({ ...failure, status: 401, bodyText: `{"error": {"message": "bad key ${form}"}}`, secrets: [key] });
      expect(error.message).toContain('bad key ***');
    }
  });
});
