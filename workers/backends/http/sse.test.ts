import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSse, type SseEvent } from './sse.ts';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function bytesSplitAt(text: string, cuts: number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks;
}

async function collect(body: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(body, signal)) events.push(event);
  return events;
}

const SAMPLE =
  ': a comment\r\n' +
  'event: message_start\r\n' +
  'data: {"a":1}\r\n' +
  '\r\n' +
  'data: first line\n' +
  'data: second line — ünïcödé 🎻\n' +
  '\n' +
  'data:no-space\r' +
  '\r' +
  'data: {"b":2}\n' +
  'id: 7\n' +
  'retry: 100\n' +
  '\n' +
  'data: [DONE]\n\n' +
  'data: after done\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'message_start', data: '{"a":1}' },
  { data: 'first line\nsecond line — ünïcödé 🎻' },
  { data: 'no-space' },
  { data: '{"b":2}' },
];

describe('readSse', () => {
  it('parses CRLF, LF and CR endings, multi-line data, comments and stops at [DONE]', async () => {
    expect(await collect(streamOf([new TextEncoder().encode(SAMPLE)]))).toEqual(EXPECTED);
  });

  it('gives the same events however the bytes are split, even inside UTF-8 sequences and CRLF pairs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
        expect(await collect(streamOf(bytesSplitAt(SAMPLE, cuts)))).toEqual(EXPECTED);
      }),
      { numRuns: 200 },
    );
  });

  it('dispatches no event whose data is empty', async () => {
    expect(await collect(streamOf([new TextEncoder().encode('data:\n\nevent: ping\ndata:\n\ndata: x\n\n')]))).toEqual([{ data: 'x' }]);
  });

  it('splits one byte at a time', async () => {
    const bytes = new TextEncoder().encode(SAMPLE);
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(streamOf(chunks))).toEqual(EXPECTED);
  });

  it('yields a final event that lacks its blank line', async () => {
    expect(await collect(streamOf([new TextEncoder().encode('data: last')]))).toEqual([{ data: 'last' }]);
  });

  it('throws the abort reason while waiting for bytes', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\n'));
      },
    });
    const controller = new AbortController();
    const seen: string[] = [];
    const started = Date.now();
    const reading = (async () => {
      for await (const event of readSse(body, controller.signal)) {
        seen.push(event.data);
        setTimeout(() => controller.abort(new Error('stop now')), 20);
      }
    })();
    await expect(reading).rejects.toThrow('stop now');
    expect(seen).toEqual(['one']);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('readSse on hostile streams', () => {
  /** `total` characters of `data: xxx…` with no line end, in 64 KiB chunks. */
  function endlessLine(total: number): ReadableStream<Uint8Array> {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    return new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: '));
      },
      pull(controller) {
        if (sent >= total) controller.close();
        else controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
  }

  it('ends a line that outgrows the event limit, with the error it is given', async () => {
    const stream = endlessLine(40_000_000);
    const reading = collect2(readSse(stream, undefined, { maxEventChars: 8_000_000, oversized: (max) => new Error(`over ${max}`) }));
    await expect(reading).rejects.toThrow('over 8000000');
  });

  it('reads a long event split over many chunks whole, and many small events from one chunk', async () => {
    const long = await collect2(readSse(endlessLine(5_000_000)));
    expect(long).toHaveLength(1);
    expect(long[0]!.data.length).toBe(5_046_272);
    const many = Array.from({ length: 20_000 }, (_, i) => `data: ${i}\n\n`).join('');
    const events = await collect(streamOf([new TextEncoder().encode(many)]));
    expect(events).toHaveLength(20_000);
    expect(events.at(-1)).toEqual({ data: '19999' });
  });

  it('counts the data lines of one event together', async () => {
    const lines = `${'data: 0123456789\n'.repeat(100)}\n`;
    const reading = collect2(readSse(streamOf([new TextEncoder().encode(lines)]), undefined, { maxEventChars: 500 }));
    await expect(reading).rejects.toThrow('longer than 500 characters');
  });
});

async function collect2(events: AsyncGenerator<SseEvent>): Promise<SseEvent[]> {
  const result: SseEvent[] = [];
  for await (const event of events) result.push(event);
  return result;
}
