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
  const maxEventChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  const oversized = () =>
    options.oversized?.(maxEventChars) ?? new Error(`An event of the stream is longer than ${maxEventChars} characters.`);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancelOnAbort = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', cancelOnAbort, { once: true });

  // The line being received, in the pieces it arrived in (joined once, when it ends).
  let partial: string[] = [];
  let partialChars = 0;
  // A chunk that ended in CR: a LF opening the next one is the second half of that CRLF.
  let afterCr = false;
  let eventName: string | undefined;
  let dataLines: string[] = [];
  let dataChars = 0;
  const ready: SseEvent[] = [];

  /** Handles one complete line; a blank one completes an event. */
  const takeLine = (line: string): void => {
    if (line === '') {
      // As the SSE spec says, an event whose data is empty is not dispatched.
      const data = dataLines.join('\n');
      if (data !== '') ready.push({ data, ...(eventName ? { event: eventName } : {}) });
      dataLines = [];
      dataChars = 0;
      eventName = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      dataChars += value.length + 1;
      if (dataChars > maxEventChars) throw oversized();
      dataLines.push(value);
    } else if (field === 'event') {
      eventName = value;
    }
  };

  /** Splits decoded text into lines, carrying an unfinished one over to the next chunk. */
  const takeText = (text: string): void => {
    let start = afterCr && text.startsWith('\n') ? 1 : 0;
    afterCr = false;
    LINE_END.lastIndex = start;
    for (let match = LINE_END.exec(text); match !== null; match = LINE_END.exec(text)) {
      const piece = text.slice(start, match.index);
      takeLine(partialChars === 0 ? piece : partial.join('') + piece);
      partial = [];
      partialChars = 0;
      start = match.index + match[0].length;
      if (match[0] === '\r' && start === text.length) afterCr = true;
    }
    if (start < text.length) {
      partial.push(text.slice(start));
      partialChars += text.length - start;
      if (partialChars > maxEventChars) throw oversized();
    }
  };

  try {
    signal?.throwIfAborted();
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) {
        takeText(decoder.decode());
        // A final line and event without their line ends still count.
        if (partialChars > 0) takeText('\n');
        takeLine('');
      } else {
        takeText(decoder.decode(value, { stream: true }));
      }
      const events = ready.splice(0);
      for (const event of events) {
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
