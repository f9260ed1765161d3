// POST with retries, timeouts and cancellation, shared by the model backends.
//
// One call = up to 1 + maxRetries attempts. Each attempt has its own AbortController, fired by
// the caller's signal, by the time-to-headers timeout or by the idle timeout between body
// chunks; the error that comes out is translated to a BackendError by what fired it.

import { BackendError, errorFromStatus, isAbortError, redactThenCut } from '../../engine/errors.ts';
import { formatCount, formatSeconds } from '../../engine/format.ts';
import { MAX_ERROR_BODY_BYTES, MAX_STREAM_BYTES, tooLarge } from './limits.ts';
import { readTextUpTo } from '../../engine/readTextUpTo.ts';
import type { ChatDelta, ChatRequest } from '../../engine/types.ts';

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  waitMs: number;
  reason: string;
}

export interface PostRequest {
  /** Named in error messages, e.g. "OpenRouter". */
  provider: string;
  url: string;
  /** Sent as is: only what the provider needs (content type, auth). */
  headers: Record<string, string>;
  body: unknown;
  /** Named in "not found" and "context length" messages. */
  model?: string;
  signal?: AbortSignal;
  /** Longest wait for response headers (default 60 s). */
  timeoutMs?: number;
  /** Longest silence between body chunks (default 60 s). */
  idleTimeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** The first backoff wait before jitter; doubles each retry (default 500 ms). */
  retryBaseDelayMs?: number;
  /** A longer Retry-After than this is not waited for: the call fails (default 60 s). */
  maxRetryAfterMs?: number;
  onRetry?: (info: RetryInfo) => void;
  fetch?: typeof fetch;
  /** Values that must never appear in an error message (the API key). */
  secrets?: readonly string[];
}

/** What a model backend's options say about its calls' time limits, retries and fetch. */
export interface CallSettings {
  timeoutMs?: number;
  idleTimeoutMs?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  fetch?: typeof fetch;
}

/** One model call's POST: where and what the backend sends, under its settings, stopped by the
 * request's signal, each retry reported to the caller as a delta. */
export function modelCallPost(
  settings: CallSettings,
  request: ChatRequest,
  onDelta: ((delta: ChatDelta) => void) | undefined,
  post: Pick<PostRequest, 'provider' | 'url' | 'headers' | 'body' | 'model' | 'secrets'>,
): PostRequest {
  return {
    ...post,
    signal: request.signal,
    timeoutMs: settings.timeoutMs,
    idleTimeoutMs: settings.idleTimeoutMs,
    maxRetries: settings.maxRetries,
    retryBaseDelayMs: settings.retryBaseDelayMs,
    fetch: settings.fetch,
    onRetry: (info) => onDelta?.({ type: 'retry', ...info }),
  };
}

export interface Attempt {
  /** A 2xx response whose body is watched by the idle timeout. */
  response: Response & { body: ReadableStream<Uint8Array> };
  /** Aborted when this attempt is cancelled or times out. */
  signal: AbortSignal;
  /** Call once output has reached the caller: a broken stream is then no longer retried,
   * since a retry would deliver the same text twice. */
  markDelivered(): void;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 20_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** POSTs JSON and hands a successful (2xx) response to `consume`; retries rate limits, transient
 * server errors, network errors and timeouts (while nothing was delivered). */
export async function postWithRetry<T>(request: PostRequest, consume: (attempt: Attempt) => Promise<T>): Promise<T> {
  const maxRetries = request.maxRetries ?? DEFAULT_MAX_RETRIES;
  for (let retry = 0; ; retry++) {
    let error: BackendError;
    try {
      return await runAttempt(request, consume);
    } catch (thrown) {
      if (!(thrown instanceof BackendError)) throw thrown;
      error = thrown;
    }
    if (!error.retryable) throw error;
    if (retry >= maxRetries) throw exhausted(error, retry + 1, request.secrets);
    const maxRetryAfterMs = request.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterMs) {
      throw new BackendError({
        code: error.code,
        provider: error.provider,
        ...(error.status !== undefined ? { status: error.status } : {}),
        retryAfterMs: error.retryAfterMs,
        retryable: false,
        message: `${error.description} The server asked to wait ${formatSeconds(error.retryAfterMs)}, longer than the ${formatSeconds(maxRetryAfterMs)} limit, so the call was not retried.`,
        secrets: request.secrets ?? [],
      });
    }
    const waitMs = error.retryAfterMs ?? backoffMs(retry, request.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS);
    request.onRetry?.({ attempt: retry + 1, waitMs, reason: retryReason(error) });
    await sleep(waitMs, request.signal, request.provider);
  }
}

/** An attempt's two time limits (for the response's headers, and between chunks of its body)
 * and the errors that say which one ran out. */
function attemptTimeouts(request: PostRequest) {
  const { provider } = request;
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const idleTimeoutMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return {
    timeoutMs,
    idleTimeoutMs,
    headersTimeout: () =>
      new BackendError({
        code: 'timeout',
        provider,
        message: `${provider} sent no response within ${formatSeconds(timeoutMs)}. The server may be overloaded or the model still loading; raise the timeout or try again.`,
      }),
    idleTimeout: () =>
      new BackendError({
        code: 'timeout',
        provider,
        message: `${provider} stopped sending data for ${formatSeconds(idleTimeoutMs)} in the middle of a response. Raise the idle timeout or try again.`,
      }),
  };
}

/** The error a non-2xx response stands for, read from its (capped) body. */
async function statusError(request: PostRequest, response: Response): Promise<BackendError> {
  const { text: bodyText } = await readTextUpTo(response.body, MAX_ERROR_BODY_BYTES);
  return errorFromStatus({
    provider: request.provider,
    status: response.status,
    bodyText,
    url: request.url,
    ...(request.model !== undefined ? { model: request.model } : {}),
    ...retryAfterOf(response),
    secrets: request.secrets ?? [],
  });
}

/** A retryable failure after output reached the caller: retrying would repeat text. */
function notRetriedAfterOutput(error: BackendError, request: PostRequest): BackendError {
  return new BackendError({
    code: error.code,
    provider: request.provider,
    ...(error.status !== undefined ? { status: error.status } : {}),
    retryable: false,
    message: `${error.description} Output had already started, so the call was not retried (that would repeat text).`,
    secrets: request.secrets ?? [],
    cause: error,
  });
}

async function runAttempt<T>(request: PostRequest, consume: (attempt: Attempt) => Promise<T>): Promise<T> {
  const { provider, signal } = request;
  if (signal?.aborted) throw abortedError(provider);
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });

  let timedOut: BackendError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const armTimer = (ms: number, error: () => BackendError) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = error();
      controller.abort(timedOut);
    }, ms);
  };
  const { timeoutMs, idleTimeoutMs, headersTimeout, idleTimeout } = attemptTimeouts(request);

  let gotResponse = false;
  let delivered = false;
  let readError: unknown;
  try {
    armTimer(timeoutMs, headersTimeout);
    const response = await (request.fetch ?? fetch)(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
      // A followed redirect would carry the key (x-api-key, Authorization) to wherever it points.
      redirect: 'manual',
      signal: controller.signal,
    });
    gotResponse = true;
    armTimer(idleTimeoutMs, idleTimeout);
    if (isRedirect(response)) throw redirectError(request, response);
    if (!response.ok) throw await statusError(request, response);
    if (!response.body) {
      throw new BackendError({ code: 'bad_response', provider, message: `${provider} answered with an empty body.` });
    }
    const body = watchIdle(
      response.body,
      () => armTimer(idleTimeoutMs, idleTimeout),
      (error) => (readError = error),
      () =>
        tooLarge(
          provider,
          `${provider} sent more than ${formatCount(MAX_STREAM_BYTES / (1024 * 1024))} MiB in one response, the most the playground reads from one model call, so reading stopped there. Check the server.`,
        ),
    );
    const watched = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    return await consume({
      response: watched as Attempt['response'],
      signal: controller.signal,
      markDelivered: () => (delivered = true),
    });
  } catch (thrown) {
    // Once the response is open, only a failed read is the connection's fault. Anything else the
    // consumer threw (a parsing bug, the caller's onDelta) is ours: never retried, never renamed.
    const ours = gotResponse && thrown !== readError && !(thrown instanceof BackendError) && !isAbortError(thrown);
    if (ours && !timedOut && !signal?.aborted) throw thrown;
    const answers = !gotResponse && !browserOffline() && isBlockedFromPage(thrown, request) ? await serverAnswers(request) : undefined;
    const error = translate(thrown, { request, timedOut, gotResponse, answers });
    throw delivered && error.retryable ? notRetriedAfterOutput(error, request) : error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
    controller.abort();
  }
}

/** A browser's fetch to another origin that failed with no response: the server is down, or it
 * answered without allowing this page (CORS). The browser says the same "Failed to fetch" to both. */
function isBlockedFromPage(thrown: unknown, request: PostRequest): boolean {
  const pageOrigin = currentPageOrigin();
  return pageOrigin !== undefined && thrown instanceof TypeError && new URL(request.url, pageOrigin).origin !== pageOrigin;
}

/** How long the probe after a failed cross-origin call may take before it says nothing. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * Tells "nothing answers there" from "it answers, but not to this page" after a cross-origin call
 * failed: a `no-cors` GET of the server's origin goes through whatever CORS headers the server
 * sends (its response stays opaque) and fails only when nothing answers. It carries no key, body
 * or custom header. Undefined when it could not tell in time.
 */
async function serverAnswers(request: PostRequest): Promise<boolean | undefined> {
  const probeTimeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  const signal = request.signal ? AbortSignal.any([request.signal, probeTimeout]) : probeTimeout;
  try {
    await (request.fetch ?? fetch)(`${new URL(request.url).origin}/`, {
      method: 'GET',
      mode: 'no-cors',
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      signal,
    });
    return true;
  } catch {
    return signal.aborted ? undefined : false;
  }
}

function translate(
  thrown: unknown,
  context: { request: PostRequest; timedOut: BackendError | undefined; gotResponse: boolean; answers: boolean | undefined },
): BackendError {
  const { request, timedOut, gotResponse, answers } = context;
  const { provider } = request;
  if (request.signal?.aborted) return abortedError(provider);
  if (timedOut) return timedOut;
  if (thrown instanceof BackendError) return thrown;
  if (isAbortError(thrown)) return abortedError(provider);
  const cause = describeCause(thrown);
  if (gotResponse) {
    return new BackendError({
      code: 'network',
      provider,
      message: `The connection to ${provider} broke in the middle of a response (${cause}).`,
      secrets: request.secrets ?? [],
      cause: thrown,
    });
  }
  const pageOrigin = currentPageOrigin();
  if (pageOrigin !== undefined && thrown instanceof TypeError && browserOffline()) {
    return new BackendError({
      code: 'network',
      provider,
      message: `This browser is offline, so ${new URL(request.url, pageOrigin).host} cannot be reached. Connect to the network and run again.`,
      secrets: request.secrets ?? [],
      cause: thrown,
    });
  }
  if (pageOrigin !== undefined && isBlockedFromPage(thrown, request)) {
    const host = new URL(request.url, pageOrigin).host;
    if (answers === false) {
      // Under cross-origin isolation (COEP require-corp, docs/security-sandboxes.md) the probe's
      // opaque answer is blocked too, so a server that answers without allowing this page fails it
      // the same way: the likelier cause leads, the other is named.
      const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
      return new BackendError({
        code: 'network',
        provider,
        message:
          `Nothing answers at ${host} — is the server running? If it is, check the base URL (${request.url})` +
          (isolated
            ? `, and that the server allows requests from this page (${pageOrigin}; CORS): a server that answers without allowing it looks the same from this cross-origin isolated page.`
            : '.'),
        secrets: request.secrets ?? [],
        cause: thrown,
      });
    }
    const allowOrigin =
      `The server must allow ${pageOrigin}: for Ollama set OLLAMA_ORIGINS=${pageOrigin}; for vLLM start it with ` +
      `--allowed-origins; otherwise go through a proxy.`;
    return new BackendError({
      code: 'cors',
      provider,
      retryable: false,
      message:
        answers === true
          ? `${host} answers, but not to this page (${pageOrigin}): the browser blocked the response. ${allowOrigin}`
          : `The browser could not reach ${request.url} from this page (${pageOrigin}). Either the server is down, or ` +
            `it does not allow requests from this origin (CORS). ${allowOrigin}`,
      secrets: request.secrets ?? [],
      cause: thrown,
    });
  }
  return new BackendError({
    code: 'network',
    provider,
    message: `Could not connect to ${provider} at ${request.url} (${cause}). Check that the server is running and the base URL is right.`,
    secrets: request.secrets ?? [],
    cause: thrown,
  });
}

/** True where a browser says it has no network at all (a page or worker; never under Node). */
function browserOffline(): boolean {
  const navigatorLike = (globalThis as { navigator?: { onLine?: unknown } }).navigator;
  return currentPageOrigin() !== undefined && navigatorLike?.onLine === false;
}

/** The page's origin in a browser or worker; undefined in Node. */
function currentPageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: unknown } }).location;
  return typeof location?.origin === 'string' && location.origin !== 'null' ? location.origin : undefined;
}

function describeCause(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const cause = thrown.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  return detail ? `${thrown.message}: ${detail}` : thrown.message;
}

/** A 3xx, or the opaque stand-in a browser gives for one under `redirect: 'manual'`. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

function redirectError(request: PostRequest, response: Response): BackendError {
  const { provider } = request;
  // Node shows where a redirect points; a browser hides it (an opaque redirect).
  const location = response.headers.get('location');
  let target = 'another address, which the browser does not reveal';
  if (location) {
    try {
      target = new URL(location, request.url).href;
    } catch {
      target = JSON.stringify(redactThenCut(location, request.secrets ?? [], 200));
    }
  }
  const status = response.status === 0 ? '' : ` (HTTP ${response.status})`;
  return new BackendError({
    code: 'redirect',
    provider,
    ...(response.status === 0 ? {} : { status: response.status }),
    retryable: false,
    message:
      `${provider} at ${request.url} redirected the request${status} to ${target}. Requests to model providers never ` +
      `follow a redirect, so nothing was sent there and the key stayed here. If the endpoint has moved, put its new ` +
      `address in the base URL.`,
    secrets: request.secrets ?? [],
  });
}

/** Re-arms the idle timer on every chunk, reports read failures (the connection) apart from
 * anything else the consumer may throw, and ends the body past MAX_STREAM_BYTES. */
function watchIdle(
  body: ReadableStream<Uint8Array>,
  onChunk: () => void,
  onReadError: (error: unknown) => void,
  tooMuch: () => BackendError,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        onReadError(error);
        throw error;
      }
      const { done, value } = chunk;
      onChunk();
      if (done) {
        controller.close();
        return;
      }
      bytes += value.byteLength;
      if (bytes > MAX_STREAM_BYTES) {
        reader.cancel().catch(() => undefined);
        throw tooMuch();
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Retry-After as milliseconds: `retry-after-ms` (OpenAI), or `Retry-After` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Math.ceil(Number(milliseconds));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function retryAfterOf(response: Response): { retryAfterMs?: number } {
  const retryAfterMs = parseRetryAfter(response.headers);
  return retryAfterMs === undefined ? {} : { retryAfterMs };
}

/** Exponential backoff with jitter: base·2^retry, scaled by a random factor in [0.5, 1]. */
function backoffMs(retry: number, baseMs: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry);
  return Math.round(ceiling * (0.5 + Math.random() * 0.5));
}

function retryReason(error: BackendError): string {
  if (error.status !== undefined) {
    return error.code === 'rate_limit' ? `rate limited (HTTP ${error.status})` : `server error (HTTP ${error.status})`;
  }
  return error.code === 'timeout' ? 'timed out' : 'connection failed';
}

function exhausted(error: BackendError, attempts: number, secrets: readonly string[] | undefined): BackendError {
  if (attempts === 1) return error;
  return new BackendError({
    code: error.code,
    provider: error.provider,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    retryable: false,
    message: `${error.description} (Gave up after ${attempts} attempts.)`,
    secrets: secrets ?? [],
    cause: error,
  });
}

function abortedError(provider: string): BackendError {
  return new BackendError({ code: 'aborted', provider, retryable: false, message: `The call to ${provider} was cancelled.` });
}

/** Waits, rejecting with an `aborted` BackendError the moment the signal fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, provider: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(provider));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(provider));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

