// A server-sent events reader (the WHATWG event-stream format) over a fetch body.

export interface SseEvent {
  /** The `event:` field, when the server named the event (Anthropic does). */
  event?: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

/** Yields each event of an SSE body. Stops at an OpenAI-style `data: [DONE]` (not yielded),
 * skips comments, and throws the signal's reason when aborted. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancelOnAbort = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', cancelOnAbort, { once: true });

  let buffer = '';
  let eventName: string | undefined;
  let dataLines: string[] = [];
  let finished = false;

  /** Handles one line; returns an event when a blank line completes one. */
  const takeLine = (line: string): SseEvent | undefined => {
    if (line === '') {
      // As the SSE spec says, an event whose data is empty is not dispatched.
      const data = dataLines.join('\n');
      const complete = data !== '' ? { data, ...(eventName ? { event: eventName } : {}) } : undefined;
      dataLines = [];
      eventName = undefined;
      return complete;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') dataLines.push(value);
    else if (field === 'event') eventName = value;
    return undefined;
  };

  try {
    signal?.throwIfAborted();
    while (!finished) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) {
        buffer += decoder.decode();
        // A final event without its blank line still counts.
        buffer += '\n\n';
        finished = true;
      } else {
        buffer += decoder.decode(value, { stream: true });
      }
      for (;;) {
        const end = findLineEnd(buffer, finished);
        if (end === undefined) break;
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end.length);
        const event = takeLine(line);
        if (event === undefined) continue;
        if (event.data === '[DONE]') return;
        yield event;
        signal?.throwIfAborted();
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancelOnAbort);
    reader.cancel().catch(() => undefined);
  }
}

/** The first line ending (CRLF, LF or CR). A CR at the very end may be half of a CRLF split
 * across chunks, so it only counts once the stream has ended. */
function findLineEnd(buffer: string, streamEnded: boolean): { index: number; length: number } | undefined {
  for (let i = 0; i < buffer.length; i++) {
    const char = buffer[i];
    if (char === '\n') return { index: i, length: 1 };
    if (char === '\r') {
      if (i + 1 < buffer.length) return { index: i, length: buffer[i + 1] === '\n' ? 2 : 1 };
      return streamEnded ? { index: i, length: 1 } : undefined;
    }
  }
  return undefined;
}
