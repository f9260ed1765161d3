// A server-sent events reader (the WHATWG event-stream format) over a fetch body.
//
// Linear in the size of the stream whatever its shape — one huge line in many chunks, or many
// small lines in one chunk — and bounded: a line or an event past `maxEventChars` ends the read.

export interface SseEvent {
  /** The `event:` field, when the server named the event (Anthropic does). */
  event?: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

export interface SseOptions {
  /** The longest event (or line) accepted, in characters. Default 16 Mi. */
  maxEventChars?: number;
  /** The error thrown for a longer one; a plain Error unless given. */
  oversized?: (maxEventChars: number) => Error;
}

const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;
const LINE_END = /\r\n|\r|\n/g;

/** Yields each event of an SSE body. Stops at an OpenAI-style `data: [DONE]` (not yielded),
 * skips comments, and throws the signal's reason when aborted. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  options: SseOptions = {},
): AsyncGenerator<SseEvent> {
  const parser = new SseParser(options);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancelOnAbort = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', cancelOnAbort, { once: true });
  try {
    signal?.throwIfAborted();
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) parser.end(decoder.decode());
      else parser.take(decoder.decode(value, { stream: true }));
      for (const event of parser.ready.splice(0)) {
        if (event.data === '[DONE]') return;
        yield event;
        signal?.throwIfAborted();
      }
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', cancelOnAbort);
    reader.cancel().catch(() => undefined);
  }
}

/** Turns decoded text, in the chunks it arrives in, into events (`ready`), under the size cap. */
class SseParser {
  /** Events complete and not yet taken. */
  readonly ready: SseEvent[] = [];
  private readonly maxEventChars: number;
  // The line being received, in the pieces it arrived in (joined once, when it ends).
  private partial: string[] = [];
  private partialChars = 0;
  // A chunk that ended in CR: a LF opening the next one is the second half of that CRLF.
  private afterCr = false;
  private eventName: string | undefined;
  private dataLines: string[] = [];
  private dataChars = 0;

  constructor(private readonly options: SseOptions) {
    this.maxEventChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  }

  /** Splits decoded text into lines, carrying an unfinished one over to the next chunk. */
  take(text: string): void {
    let start = this.afterCr && text.startsWith('\n') ? 1 : 0;
    this.afterCr = false;
    LINE_END.lastIndex = start;
    for (let match = LINE_END.exec(text); match !== null; match = LINE_END.exec(text)) {
      const piece = text.slice(start, match.index);
      this.takeLine(this.partialChars === 0 ? piece : this.partial.join('') + piece);
      this.partial = [];
      this.partialChars = 0;
      start = match.index + match[0].length;
      if (match[0] === '\r' && start === text.length) this.afterCr = true;
    }
    if (start < text.length) {
      this.partial.push(text.slice(start));
      this.partialChars += text.length - start;
      if (this.partialChars > this.maxEventChars) throw this.oversized();
    }
  }

  /** The stream's last text: a final line and event without their line ends still count. */
  end(text: string): void {
    this.take(text);
    if (this.partialChars > 0) this.take('\n');
    this.takeLine('');
  }

  /** Handles one complete line; a blank one completes an event. */
  private takeLine(line: string): void {
    if (line === '') {
      // As the SSE spec says, an event whose data is empty is not dispatched.
      const data = this.dataLines.join('\n');
      if (data !== '') this.ready.push({ data, ...(this.eventName ? { event: this.eventName } : {}) });
      this.dataLines = [];
      this.dataChars = 0;
      this.eventName = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.dataChars += value.length + 1;
      if (this.dataChars > this.maxEventChars) throw this.oversized();
      this.dataLines.push(value);
    } else if (field === 'event') {
      this.eventName = value;
    }
  }

  private oversized(): Error {
    return this.options.oversized?.(this.maxEventChars) ?? new Error(`An event of the stream is longer than ${this.maxEventChars} characters.`);
  }
}
