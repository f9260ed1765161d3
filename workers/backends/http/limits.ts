// How much the backends read from a model provider: a hostile or broken server can stream without
// end, and everything read ends up in the worker's memory, in events the page folds and renders,
// and in the next prompt. docs/security.md explains each figure.

import { formatCount } from '../../engine/format.ts';
import { BackendError } from '../../engine/errors.ts';
import { readTextUpTo } from '../../engine/readTextUpTo.ts';

/** Characters of one model call's reply — content, reasoning and tool-call arguments together.
 * About 250,000 tokens: twice the longest output any provider offers today (128k tokens), so no
 * real reply meets it, and the page still renders what came before it without stalling. */
export const MAX_REPLY_CHARS = 1_000_000;

/** Bytes of one streamed response, SSE framing included. A reply at the character cap sent one
 * token per event is about 50 MB of SSE; past this the server is sending something else (empty
 * events, keep-alives) without end. */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;

/** Characters of one JSON document from a provider: a non-streamed answer or one SSE event. A reply
 * at the character cap is at most 6 MB of JSON even with every character escaped. */
export const MAX_JSON_CHARS = 16 * 1024 * 1024;

/** Bytes of an error (non-2xx) body read: only its message is shown, cut to 300 characters. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

export function tooLarge(provider: string, what: string): BackendError {
  return new BackendError({ code: 'too_large', provider, retryable: false, message: what });
}

/** Counts a reply's characters as they arrive and ends the call at MAX_REPLY_CHARS. */
export class ReplyBudget {
  private used = 0;

  constructor(
    private readonly provider: string,
    private readonly max = MAX_REPLY_CHARS,
  ) {}

  /** Throws a `too_large` BackendError when `chars` more would pass the cap. */
  spend(chars: number): void {
    this.used += chars;
    if (this.used <= this.max) return;
    throw tooLarge(
      this.provider,
      `The reply from ${this.provider} passed ${formatCount(this.max)} characters (content, reasoning and tool-call ` +
        `arguments together), the most the playground reads from one model call, so reading stopped there. A real reply ` +
        `is far shorter: lower the model's max tokens, or check the server.`,
    );
  }
}


/** A non-streamed answer's text, or a `too_large` error past MAX_JSON_CHARS. */
export async function readWholeAnswer(body: ReadableStream<Uint8Array> | null, provider: string): Promise<string> {
  const { text, truncated } = await readTextUpTo(body, MAX_JSON_CHARS);
  if (truncated) throw tooLarge(provider, `${provider} answered with more than ${formatCount(MAX_JSON_CHARS / (1024 * 1024))} MiB of JSON, the most the playground reads from one model call, so reading stopped there. Check the server.`);
  return text;
}

/** readSse's bounds for a provider's stream: one event is one JSON document. */
export function sseLimits(provider: string): { maxEventChars: number; oversized: () => BackendError } {
  return {
    maxEventChars: MAX_JSON_CHARS,
    oversized: () =>
      tooLarge(provider, `${provider} sent one event of more than ${formatCount(MAX_JSON_CHARS)} characters, the most the playground reads as one event, so reading stopped there. Check the server.`),
  };
}
