// JSON as Python's `json` module reads and writes it: `json.loads` keeps ints and floats apart
// and objects in their order (pyValues.ts explains the representation); `json.dumps` writes
// `", "` and `": "` between items, escapes everything outside printable ASCII, and prints floats
// with repr(). τ²-Bench renders every tool result and hashes every database this way.
// Pure TypeScript.

import { compareCodePoints, floatRepr, isModel, PyFloat, pyFloat, type PyValue } from './pyValues.ts';

export class PyJsonError extends Error {
  override name = 'PyJsonError';
}

/** `json.loads(text)`: objects become Maps, numbers with a fraction or exponent PyFloats. */
// eslint-disable-next-line max-lines-per-function -- one recursive-descent parser whose helpers share the cursor
export function parsePyJson(text: string): PyValue {
  let i = 0;
  const fail = (what: string): never => {
    const line = text.slice(0, i).split('\n').length;
    throw new PyJsonError(`${what} at line ${line}, character ${i + 1}`);
  };
  const skip = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const string = (): string => {
    i++; // the opening quote
    let out = '';
    let start = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail('Unterminated string');
      if (c === 34) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 32) fail('Invalid control character in a string');
      if (c === 92) {
        out += text.slice(start, i);
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Invalid \\uXXXX escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else fail('Invalid \\escape');
        start = i;
      } else i++;
    }
  };
  /** The items of an object or a list, from its opening bracket past `close`. */
  const items = (close: string, item: () => void): void => {
    i++;
    skip();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      skip();
      if (text[i] === ',') i++;
      else if (text[i] === close) {
        i++;
        return;
      } else fail("Expecting ',' delimiter");
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
  const parse = (): PyValue => {
    skip();
    const c = text[i];
    if (c === '{') {
      const map = new Map<string, PyValue>();
      items('}', () => {
        skip();
        if (text[i] !== '"') fail('Expecting property name enclosed in double quotes');
        const key = string();
        skip();
        if (text[i] !== ':') fail("Expecting ':' delimiter");
        i++;
        map.set(key, parse());
      });
      return map;
    }
    if (c === '[') {
      const list: PyValue[] = [];
      items(']', () => list.push(parse()));
      return list;
    }
    if (c === '"') return string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
      ['NaN', pyFloat(NaN)],
      ['Infinity', pyFloat(Infinity)],
      ['-Infinity', pyFloat(-Infinity)],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) return fail('Expecting value');
    i += match[0].length;
    if (match[1] === undefined && match[2] === undefined) {
      const n = Number(match[0]);
      if (!Number.isSafeInteger(n)) fail(`The integer ${match[0]} is beyond what this port keeps exactly (±2^53)`);
      return n === 0 ? 0 : n;
    }
    return pyFloat(Number(match[0]));
  };
  const result = parse();
  skip();
  if (i < text.length) fail('Extra data');
  return result;
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A JSON string as `json.dumps` writes it (ensure_ascii: every character outside " "…"~" escaped). */
export function pyJsonString(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]|["\\]/g, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function floatJson(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return floatRepr(x);
}

export interface DumpOptions {
  sortKeys?: boolean;
  /** The text of an object already dumped with the same options (a cache of unchanged rows). */
  known?: (value: object) => string | undefined;
}

/** `json.dumps(value, sort_keys=…, default=str)`. Dates are already strings here (pyValues.ts). */
export function pyJsonDumps(value: PyValue, options: DumpOptions = {}): string {
  const parts: string[] = [];
  const write = (v: PyValue): void => {
    const known = v !== null && typeof v === 'object' ? options.known?.(v) : undefined;
    if (known !== undefined) parts.push(known);
    else if (v === null) parts.push('null');
    else if (typeof v === 'boolean') parts.push(v ? 'true' : 'false');
    else if (typeof v === 'number') parts.push(String(v));
    else if (typeof v === 'string') parts.push(pyJsonString(v));
    else if (v instanceof PyFloat) parts.push(floatJson(v.value));
    else if (Array.isArray(v)) {
      parts.push('[');
      v.forEach((item, index) => {
        if (index > 0) parts.push(', ');
        write(item);
      });
      parts.push(']');
    } else {
      let entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
      if (options.sortKeys) entries = entries.sort(([a], [b]) => compareCodePoints(a, b));
      parts.push('{');
      entries.forEach(([key, item], index) => {
        if (index > 0) parts.push(', ');
        parts.push(pyJsonString(key), ': ');
        write(item);
      });
      parts.push('}');
    }
  };
  write(value);
  return parts.join('');
}

/** τ²'s `get_dict_hash`: sha256 (hex) of `json.dumps(value, sort_keys=True, default=str)`.
 * `known` may supply the text of rows dumped before (pyJsonDumps). */
export async function pyDictHash(value: PyValue, known?: DumpOptions['known']): Promise<string> {
  const bytes = new TextEncoder().encode(pyJsonDumps(value, { sortKeys: true, ...(known ? { known } : {}) }));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A plain JSON value (JSON.parse's) as a Python value: integral numbers become ints, the others
 * floats, objects Maps. For arguments that reached us already parsed, where `2.0` and `2` can no
 * longer be told apart: the text, when there is one, goes through parsePyJson instead. */
export function fromPlainJson(value: unknown): PyValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : pyFloat(value);
  if (value instanceof PyFloat || value instanceof Map) return value as PyValue;
  if (Array.isArray(value)) return value.map(fromPlainJson);
  if (isModel(value)) return new Map(Object.entries(value).map(([k, v]) => [k, fromPlainJson(v)]));
  throw new PyJsonError(`${typeof value} is not a JSON value`);
}

/** A Python value as plain JSON for our own records and screens (floats lose their ".0"). */
export function toPlainJson(value: PyValue): unknown {
  if (value instanceof PyFloat) return Number.isFinite(value.value) ? value.value : String(value.value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [k, toPlainJson(v)]));
  if (isModel(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainJson(v)]));
  return value;
}
