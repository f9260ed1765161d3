import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor, secretForms, secretMarker, StreamRedactor } from './redact.ts';

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

  it('redacts a stream cut anywhere: the joined pieces equal the whole text redacted, and no piece holds a key', () => {
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
          expect(out.join('')).toBe(redactor.text(text));
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
