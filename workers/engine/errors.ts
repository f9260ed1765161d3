// Errors every model backend raises, and their plain form for crossing a worker boundary.
//
// Convention: a BackendError's `message` always starts with its code in brackets, e.g.
// "[rate_limit] OpenRouter is rate limiting requests…". Structured clone keeps an Error's
// message but not its class or custom fields, so `toErrorInfo` recovers the code from that
// prefix on the far side of postMessage. `describeError` gives the text without the prefix.

import { Redactor } from './redact.ts';

export type BackendErrorCode =
  | 'aborted'
  | 'timeout'
  | 'cors'
  | 'network'
  | 'auth'
  | 'rate_limit'
  | 'server'
  | 'bad_request'
  | 'not_found'
  | 'context_length'
  | 'bad_response'
  /** The endpoint answered with a redirect, which provider requests never follow (a key would go along). */
  | 'redirect'
  /** The response passed a size cap (workers/backends/http/limits.ts): reading stopped there. */
  | 'too_large'
  /** The browser's GPU cannot run a local model (no WebGPU, no adapter, a missing feature or limit). */
  | 'webgpu'
  /** A local model ran out of memory, or the GPU gave up (device lost) under it. */
  | 'out_of_memory'
  /** The browser refused to store a local model's files (its storage quota is used up). */
  | 'storage_quota'
  /** The reference's retriever (a `retrieval` search source) failed: no answer, an error, or a
   * reply that is not /retrieve's. A run without the paper's documents stops as an error. */
  | 'retrieval';

const CODES: ReadonlySet<string> = new Set<BackendErrorCode>([
  'aborted',
  'timeout',
  'cors',
  'network',
  'auth',
  'rate_limit',
  'server',
  'bad_request',
  'not_found',
  'context_length',
  'bad_response',
  'redirect',
  'too_large',
  'webgpu',
  'out_of_memory',
  'storage_quota',
  'retrieval',
]);

export interface BackendErrorInit {
  code: BackendErrorCode;
  provider: string;
  /** Plain language, saying what to do; the `[code]` prefix is added here. */
  message: string;
  status?: number;
  retryAfterMs?: number;
  /** Defaults to true for rate_limit, server, network and timeout. */
  retryable?: boolean;
  /** Strings (API keys) that must never appear in the message; each is replaced by "***". */
  secrets?: readonly string[];
  cause?: unknown;
}

export class BackendError extends Error {
  override readonly name = 'BackendError';
  readonly code: BackendErrorCode;
  readonly provider: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly retryable: boolean;

  constructor(init: BackendErrorInit) {
    super(`[${init.code}] ${redact(init.message, init.secrets ?? [])}`, { cause: init.cause });
    this.code = init.code;
    this.provider = init.provider;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.retryable ?? RETRYABLE_BY_DEFAULT.has(init.code);
  }

  /** The message without its `[code]` prefix. */
  get description(): string {
    return stripCodePrefix(this.message).text;
  }
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<BackendErrorCode> = new Set(['rate_limit', 'server', 'network', 'timeout']);

export interface ErrorInfo {
  code: string;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

/** A plain, cloneable description of any thrown value. Unknown errors get code `unknown`. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof BackendError) {
    const info: ErrorInfo = { code: error.code, message: error.description };
    if (error.status !== undefined) info.status = error.status;
    if (error.retryAfterMs !== undefined) info.retryAfterMs = error.retryAfterMs;
    return info;
  }
  if (isAbortError(error)) return { code: 'aborted', message: 'The request was cancelled.' };
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : safeString(error);
  const { code, text } = stripCodePrefix(message);
  return { code: code ?? 'unknown', message: text };
}

/** Failures that calling the same model again cannot fix (a bad key, a blocked origin, a wrong
 * model or request): a run stops on them and says what to do, rather than carrying on. */
export function needsUserAction(error: unknown): boolean {
  return USER_ACTION_CODES.has(toErrorInfo(error).code);
}

const USER_ACTION_CODES: ReadonlySet<string> = new Set<BackendErrorCode>([
  'auth',
  'cors',
  'redirect',
  'not_found',
  'bad_request',
  'webgpu',
  'out_of_memory',
  'storage_quota',
  'retrieval',
]);

/** The text to show a person: the message without its code prefix. */
export function describeError(error: unknown): string {
  return toErrorInfo(error).message;
}

export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

/** `text` with each of `secrets` replaced by `***`: in every form and reading the run's redactor
 * finds (redact.ts), a text cut off inside one included, and as is down to 4 characters. */
export function redact(text: string, secrets: readonly string[]): string {
  const redactor = new Redactor(
    secrets.map((value) => ({ provider: '', value })),
    { marker: () => '***' },
  );
  let result = redactor.endedText(text);
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join('***');
  }
  return result;
}

/** At most `max` characters of a text that may hold a key: redacted first, then cut, so a cut
 * never leaves most of a key behind. */
export function redactThenCut(text: string, secrets: readonly string[], max: number): string {
  return redact(text, secrets).slice(0, max);
}

function stripCodePrefix(message: string): { code?: string; text: string } {
  const match = /^\[([a-z_]+)\] /.exec(message);
  if (match?.[1] !== undefined && CODES.has(match[1])) {
    return { code: match[1], text: message.slice(match[0].length) };
  }
  return { text: message };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export interface HttpFailure {
  provider: string;
  status: number;
  /** The response body as text (provider error JSON or anything else). */
  bodyText: string;
  url: string;
  model?: string;
  retryAfterMs?: number;
  secrets?: readonly string[];
}

/** The error for a non-2xx answer, classified by status and (for 400s) by what the body says. */
export function errorFromStatus(failure: HttpFailure): BackendError {
  const { provider, status, url, model } = failure;
  // Redacted before serverMessage shortens it: a key echoed near the cut would lose its end, and
  // with it every form the redactor knows.
  const said = serverMessage(redact(failure.bodyText, failure.secrets ?? []));
  const saying = said ? `: ${said}${/[.!?…]$/.test(said) ? '' : '.'}` : '.';
  const base = {
    provider,
    status,
    secrets: failure.secrets ?? [],
    ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
  };
  if (status === 401 || status === 403) {
    return new BackendError({
      ...base,
      code: 'auth',
      message: `${provider} refused the request (HTTP ${status})${saying} Check the API key configured for ${provider}.`,
    });
  }
  if (status === 404) {
    return new BackendError({
      ...base,
      code: 'not_found',
      message: `${provider} answered "not found" (HTTP 404) for ${url}${saying} Check the base URL${model ? ` and the model id "${model}"` : ''}.`,
    });
  }
  if (status === 429) {
    return new BackendError({
      ...base,
      code: 'rate_limit',
      message: `${provider} is rate limiting requests (HTTP 429)${saying} Wait a little, lower concurrency, or check the account's limits.`,
    });
  }
  if (status === 408) {
    return new BackendError({ ...base, code: 'timeout', message: `${provider} timed out the request (HTTP 408)${saying}` });
  }
  if (status >= 500) {
    return new BackendError({
      ...base,
      code: 'server',
      retryable: RETRYABLE_STATUSES.has(status),
      message: `${provider} had a server error (HTTP ${status})${saying} It may be overloaded or down; try again later.`,
    });
  }
  if (mentionsContextLength(said ?? '')) {
    return new BackendError({
      ...base,
      code: 'context_length',
      message: `The conversation is too long for ${model ? `"${model}"` : 'the model'}'s context window (HTTP ${status})${saying} Shorten the task, lower max tokens, or use a model with a longer context.`,
    });
  }
  return new BackendError({
    ...base,
    code: 'bad_request',
    message: `${provider} rejected the request (HTTP ${status})${saying} Check the model id and the settings sent to it.`,
  });
}

/** Statuses worth retrying: rate limits and transient server trouble (529: Anthropic overloaded). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

function mentionsContextLength(text: string): boolean {
  return /context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long|input is too long|reduce the length/i.test(
    text,
  );
}

/** The human part of a provider's error body (OpenAI, Anthropic, vLLM and FastAPI shapes). */
export function serverMessage(bodyText: string): string | undefined {
  const trimmed = bodyText.trim();
  if (!trimmed) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const found = findMessage(parsed);
    if (found) return shorten(found);
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return shorten(trimmed);
}

function findMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['error', 'message', 'detail']) {
    const found = findMessage(record[key]);
    if (found) return found;
  }
  return undefined;
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 300 ? `${oneLine.slice(0, 300)}…` : oneLine;
}
