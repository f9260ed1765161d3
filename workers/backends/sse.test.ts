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
