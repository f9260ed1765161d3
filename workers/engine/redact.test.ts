import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor, secretForms, secretMarker, StreamRedactor } from './redact.ts';
import { longestPieceOfKey, MAX_KEY_PIECE } from '../../e2e/fixtures/keyForms.ts';

const KEY = 'sk-test/Key+with=chars_0123456789';
const secrets = [{ provider: 'openai', value: KEY }];
const MARK = secretMarker('openai');

/** Every way the tests below write the key into text. */
function encodings(key: string): string[] {
  const base64 = Buffer.from(key).toString('base64');
  return [key, base64, base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''), encodeURIComponent(key), JSON.stringify(key).slice(1, -1)];
}

describe('redacting held keys', () => {
  it('replaces the key as is, base64 (either alphabet), URL-encoded and JSON-escaped with a marker naming the provider', () => {
    const redactor = new Redactor(secrets);
    for (const form of encodings(KEY)) {
      const redacted = redactor.text(`Authenticated as ${form}.`);
      expect(redacted).toContain(MARK);
      for (const other of encodings(KEY)) expect(redacted).not.toContain(other);
    }
    expect(redactor.text('nothing to see')).toBe('nothing to see');
  });

  it('finds the key base64-encoded inside longer base64, at any of the three alignments', () => {
    const redactor = new Redactor(secrets);
    for (const prefix of ['', 'u', 'us', 'usr', 'user:', 'x'.repeat(7)]) {
      const basic = Buffer.from(`${prefix}${KEY}:trailer`).toString('base64');
      expect(redactor.keysIn(`Authorization: Basic ${basic}`), prefix).toEqual(['openai']);
    }
    expect(redactor.keysIn(Buffer.from('someone else entirely').toString('base64'))).toEqual([]);
  });

  it('leaves short values alone (they would mangle ordinary text) and walks JSON values, keys included', () => {
    expect(new Redactor([{ provider: 'p', value: 'abc' }]).active).toBe(false);
    const redactor = new Redactor(secrets);
    const value = { a: [1, `x${KEY}`], [KEY]: { b: true }, c: null };
    const out = redactor.value(value);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(out).toEqual({ a: [1, `x${MARK}`], [MARK]: { b: true }, c: null });
    const clean = { a: ['y'] };
    expect(redactor.value(clean)).toBe(clean);
    expect(secretForms(KEY)[0]!.length).toBeGreaterThanOrEqual(KEY.length);
  });

  it('redacts a stream cut anywhere: the joined pieces equal the whole text redacted as an ended text, and no piece holds a key', () => {
    const redactor = new Redactor(secrets);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...encodings(KEY), 'Authenticated as ', 'sk-', 'sk-test', ' and ', 'c2stdGVzd', '%2F', '\n'), { maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 30 }),
        (parts, cuts) => {
          const text = parts.join('');
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const pieces = [0, ...points, text.length].slice(1).map((end, index, ends) => text.slice(index === 0 ? 0 : ends[index - 1], end));
          const stream = new StreamRedactor(redactor);
          const out = [...pieces.map((piece) => stream.push(piece)), stream.end()];
          expect(out.join('')).toBe(redactor.endedText(text));
          // Every prefix of what came out so far is clean: no key leaves, even in part-pieces joined.
          let shown = '';
          for (const piece of out) {
            shown += piece;
            expect(redactor.keysIn(shown)).toEqual([]);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

// ——— Every form a parser would turn back into the key (issue 31, items 2, 3 and 10) ———
//
// The oracle is independent of the redactor (e2e/fixtures/keyForms.ts): Node's own decoders
// (JSON.parse, decodeURIComponent, Buffer's base64) applied in every order, up to three layers, to
// what the redactor let out.

const FILLER = ' .,;:!?()<>[]{}αβγ';
const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/+=.';

const keyArb = fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 20, maxLength: 60 }).map((body) => `sk-prop-${body}`);
const fillerArb = fc.string({ unit: fc.constantFrom(...FILLER), maxLength: 12 });

const hex = (code: number, upper: boolean) => (upper ? code.toString(16).toUpperCase() : code.toString(16)).padStart(2, '0');
const jsonEscape = (char: string, upper: boolean) => `\\u${hex(char.charCodeAt(0), upper).padStart(4, '0')}`;
const percent = (char: string, upper: boolean) => `%${hex(char.charCodeAt(0), upper)}`;

/** Base64 of `bytes` in either alphabet, wrapped every `width` characters (0: not wrapped). */
function base64Of(text: string, urlSafe: boolean, width: number, newline: string): string {
  let encoded = Buffer.from(text).toString('base64');
  if (urlSafe) encoded = encoded.replaceAll('+', '-').replaceAll('/', '_');
  if (width === 0) return encoded;
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += width) lines.push(encoded.slice(at, at + width));
  return lines.join(newline);
}

/** One form of `key`, as a gateway or a model might write it. */
const formArb = (key: string) =>
  fc.oneof(
    fc.constant(key),
    // JSON's \u escapes, for some characters or all, hex in either case.
    fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: key.length, maxLength: key.length }).map((picks) =>
      [...key].map((char, i) => (picks[i]![0] ? jsonEscape(char, picks[i]![1]) : char)).join(''),
    ),
    // Percent-escapes, and JSON and percent escapes mixed character by character.
    fc.array(fc.integer({ min: 0, max: 2 }), { minLength: key.length, maxLength: key.length }).map((picks) =>
      [...key].map((char, i) => (picks[i] === 0 ? char : picks[i] === 1 ? percent(char, i % 2 === 0) : jsonEscape(char, false))).join(''),
    ),
    // Escaped twice: a JSON string inside a JSON string.
    fc.constant([...key].map((char) => `\\${jsonEscape(char, false)}`).join('')),
    // Base64 inside longer base64, at any alignment, either alphabet, wrapped MIME style or not.
    fc
      .record({
        before: fc.string({ unit: fc.constantFrom(...'user:xyz'), maxLength: 5 }),
        after: fc.string({ unit: fc.constantFrom(...':trail'), maxLength: 5 }),
        urlSafe: fc.boolean(),
        width: fc.oneof(fc.constant(0), fc.constant(76), fc.integer({ min: 4, max: 40 })),
        newline: fc.constantFrom('\n', '\r\n', '\\n', '\\r\\n'),
      })
      .map(({ before, after, urlSafe, width, newline }) => base64Of(`${before}${key}${after}`, urlSafe, width, newline)),
  );

/** `text` in pieces, cut at `cuts`. */
function piecesOf(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...points, text.length].slice(1).map((end, index, ends) => text.slice(index === 0 ? 0 : ends[index - 1], end));
}

describe('a key in every form a parser would turn back into it', () => {
  const caseArb = keyArb.chain((key) => fc.record({ key: fc.constant(key), form: formArb(key), before: fillerArb, after: fillerArb }));

  it('is found by the last scan, and none of it is left once redacted, streamed in any pieces', () => {
    fc.assert(
      fc.property(caseArb, fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 20 }), ({ key, form, before, after }, cuts) => {
        const redactor = new Redactor([{ provider: 'openai', value: key }]);
        const text = `${before}${form}${after}`;
        expect(longestPieceOfKey(text, key)).toBe(key.length);
        expect(redactor.keysIn(text)).toEqual(['openai']);
        const whole = redactor.text(text);
        expect(whole).toContain(MARK);
        expect(longestPieceOfKey(whole, key)).toBeLessThanOrEqual(MAX_KEY_PIECE);
        expect(redactor.keysIn(whole)).toEqual([]);
        const stream = new StreamRedactor(redactor);
        const out = [...piecesOf(text, cuts).map((piece) => stream.push(piece)), stream.end()];
        expect(out.join('')).toBe(redactor.endedText(text));
        expect(longestPieceOfKey(out.join(''), key)).toBeLessThanOrEqual(MAX_KEY_PIECE);
      }),
      { numRuns: 300 },
    );
  });

  it('lets no more than 7 characters of it out when the text ends inside it (a stream cut off, a reply out of tokens)', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), ({ key, form, before }, cut) => {
        const redactor = new Redactor([{ provider: 'openai', value: key }]);
        const text = `${before}${form.slice(0, 1 + (cut % form.length))}`;
        expect(longestPieceOfKey(redactor.endedText(text), key)).toBeLessThanOrEqual(MAX_KEY_PIECE);
        const stream = new StreamRedactor(redactor);
        expect(longestPieceOfKey(stream.push(text) + stream.end(), key)).toBeLessThanOrEqual(MAX_KEY_PIECE);
      }),
      { numRuns: 300 },
    );
  });

  it('is redacted in a tool call\'s arguments before and after parsing, a "__proto__" field and deep nesting included', () => {
    const redactor = new Redactor(secrets);
    const escaped = [...KEY].map((char) => jsonEscape(char, false)).join('');
    const args = `{"code": "print('${escaped}')", "__proto__": "${escaped}"}`;
    const safe = redactor.text(args);
    expect(safe).toBe(`{"code": "print('${MARK}')", "__proto__": "${MARK}"}`);
    // A parser that was handed the key anyway: its value is redacted after parsing too.
    const parsed = JSON.parse(`{"code": "${KEY}", "__proto__": "${KEY}"}`) as Record<string, unknown>;
    const after = redactor.value(parsed);
    expect(JSON.stringify(after)).not.toContain(KEY);
    expect(Object.getOwnPropertyDescriptor(after, '__proto__')?.value).toBe(MARK);
    let deep: unknown = { key: KEY };
    for (let i = 0; i < 200; i++) deep = { inner: deep };
    expect(JSON.stringify(redactor.value(deep))).not.toContain(KEY);
  });
});
