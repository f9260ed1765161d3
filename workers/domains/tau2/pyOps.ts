// What Python does with an argument of whatever type the model sent: the operations τ²'s tools
// apply to their arguments (`in`, `.lower()`, iteration, `count`, `sorted`), with the errors
// Python raises for the wrong type. Pure TypeScript.

import { attributeError, PyError, typeError } from './pyErrors.ts';
import { compareCodePoints, numberOf, pyAbs, pyAdd, pyEquals, PyFloat, pyFloat, pyMul, pyRepr, pySub, pyTypeName, type PyValue } from './pyValues.ts';

/** `key in mapping` / `mapping[key]` for a dict with str keys: another type is simply absent,
 * an unhashable one raises. */
export function lookup<T>(map: ReadonlyMap<string, T>, key: PyValue): T | undefined {
  if (Array.isArray(key) || key instanceof Map) throw typeError(`unhashable type: '${pyTypeName(key)}'`);
  return typeof key === 'string' ? map.get(key) : undefined;
}

/** `x in {…}` for a set of strings. */
export function inSet(set: readonly string[], value: PyValue): boolean {
  if (Array.isArray(value) || value instanceof Map) throw typeError(`unhashable type: '${pyTypeName(value)}'`);
  return typeof value === 'string' && set.includes(value);
}

/** `value.lower()`. */
export function lower(value: PyValue): string {
  if (typeof value !== 'string') throw attributeError(pyTypeName(value), 'lower');
  return value.toLowerCase();
}

/** `value.startswith(prefix)`. */
export function startsWith(value: PyValue, prefix: string): boolean {
  if (typeof value !== 'string') throw attributeError(pyTypeName(value), 'startswith');
  return value.startsWith(prefix);
}

/** The items a `for` loop over the value sees: a list's items, a string's characters, a dict's keys. */
export function iterate(value: PyValue): PyValue[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (value instanceof Map) return [...value.keys()];
  throw typeError(`'${pyTypeName(value)}' object is not iterable`);
}

/** `sequence.count(x)` for a list (==) or a string (non-overlapping occurrences of a substring). */
export function count(sequence: PyValue, x: PyValue): number {
  if (typeof sequence === 'string') {
    if (typeof x !== 'string') throw typeError(`must be str, not ${pyTypeName(x)}`);
    return x === '' ? [...sequence].length + 1 : sequence.split(x).length - 1;
  }
  if (Array.isArray(sequence)) return sequence.filter((item) => pyEquals(item, x)).length;
  throw attributeError(pyTypeName(sequence), 'count');
}

/** `len(value)`. */
export function len(value: PyValue): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  throw typeError(`object of type '${pyTypeName(value)}' has no len()`);
}

/** `sorted(value)` for strings or numbers (a mix raises as Python does). */
export function sorted(value: PyValue): PyValue[] {
  const items = [...iterate(value)];
  const kind = (v: PyValue) => (typeof v === 'string' ? 'str' : numberOf(v) !== undefined || typeof v === 'boolean' ? 'number' : pyTypeName(v));
  for (let i = 1; i < items.length; i++) {
    if (kind(items[i]!) !== kind(items[0]!)) throw typeError(`'<' not supported between instances of '${pyTypeName(items[i]!)}' and '${pyTypeName(items[0]!)}'`);
  }
  if (items.length > 0 && kind(items[0]!) !== 'str' && kind(items[0]!) !== 'number') {
    if (items.length > 1) throw typeError(`'<' not supported between instances of '${pyTypeName(items[1]!)}' and '${pyTypeName(items[0]!)}'`);
    return items;
  }
  return items.sort((a, b) => (typeof a === 'string' ? compareCodePoints(a, b as string) : (numberOf(a) ?? Number(a)) - (numberOf(b) ?? Number(b))));
}

/** Python's `zip(a, b)`. */
export function zip(a: PyValue, b: PyValue): [PyValue, PyValue][] {
  const x = iterate(a);
  const y = iterate(b);
  return x.slice(0, Math.min(x.length, y.length)).map((item, i) => [item, y[i]!]);
}

/** `a < b` / `a <= b` between numbers, with Python's TypeError otherwise. */
export function less(a: PyValue, b: PyValue, orEqual = false): boolean {
  const x = typeof a === 'boolean' ? Number(a) : numberOf(a);
  const y = typeof b === 'boolean' ? Number(b) : numberOf(b);
  if (x === undefined || y === undefined) throw typeError(`'${orEqual ? '<=' : '<'}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
  return orEqual ? x <= y : x < y;
}

/** `a < b` (or `<=`, `>`, `>=`) between two numbers (a bool counts as an int) or two strings
 * (by code point), with Python's TypeError for any other pair. */
export function compare(a: PyValue, b: PyValue, op: '<' | '<=' | '>' | '>='): boolean {
  const x = typeof a === 'boolean' ? Number(a) : numberOf(a);
  const y = typeof b === 'boolean' ? Number(b) : numberOf(b);
  let order: number;
  if (x !== undefined && y !== undefined) order = x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  else if (typeof a === 'string' && typeof b === 'string') order = Math.sign(compareCodePoints(a, b));
  else throw typeError(`'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
  if (op === '<') return order < 0;
  if (op === '<=') return order <= 0;
  if (op === '>') return order > 0;
  return order >= 0;
}

/** `a + b`, `a - b` or `a * b` between numbers (a bool counts as an int) with Python's int/float
 * rules, and its TypeError for anything else. */
export function arith(op: '+' | '-' | '*', a: PyValue, b: PyValue): number | PyFloat {
  const x = typeof a === 'boolean' ? Number(a) : a;
  const y = typeof b === 'boolean' ? Number(b) : b;
  if (numberOf(x) === undefined || numberOf(y) === undefined) throw typeError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
  const [p, q] = [x as number | PyFloat, y as number | PyFloat];
  return op === '+' ? pyAdd(p, q) : op === '-' ? pySub(p, q) : pyMul(p, q);
}

/** `x in sequence` for a list (by ==, so any type may be looked for) or a string (a substring). */
export function contains(sequence: PyValue, x: PyValue): boolean {
  if (typeof sequence === 'string') {
    if (typeof x !== 'string') throw typeError(`'in <string>' requires string as left operand, not ${pyTypeName(x)}`);
    return sequence.includes(x);
  }
  if (Array.isArray(sequence)) return sequence.some((item) => pyEquals(item, x));
  if (sequence instanceof Map) return lookup(sequence, x) !== undefined;
  throw typeError(`argument of type '${pyTypeName(sequence)}' is not iterable`);
}

/** `mapping[key]` for a dict with str keys: Python's KeyError (its text is the key's repr) when
 * the key is absent, TypeError when it cannot be hashed. */
export function getItem<T>(map: ReadonlyMap<string, T>, key: PyValue): T {
  const found = lookup(map, key);
  if (found === undefined) throw new PyError('KeyError', pyRepr(key));
  return found;
}

const PY_WHITESPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const STRIP = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, 'gu');

/** `value.strip()`: Python's whitespace, not JavaScript's. */
export function strip(value: PyValue): string {
  if (typeof value !== 'string') throw attributeError(pyTypeName(value), 'strip');
  return value.replace(STRIP, '');
}

/** `abs(value)` for a number (a bool counts as an int), with Python's TypeError otherwise. */
export function pyAbsolute(value: PyValue): number | PyFloat {
  const x = typeof value === 'boolean' ? Number(value) : value;
  if (numberOf(x) === undefined) throw typeError(`bad operand type for abs(): '${pyTypeName(value)}'`);
  return pyAbs(x as number | PyFloat);
}

/** `-value` for a number (a bool counts as an int), with Python's TypeError otherwise. */
export function negate(value: PyValue): number | PyFloat {
  const x = typeof value === 'boolean' ? Number(value) : value;
  if (numberOf(x) === undefined) throw typeError(`bad operand type for unary -: '${pyTypeName(value)}'`);
  return typeof x === 'number' ? -x : pyFloat(-(x as PyFloat).value);
}

/** `value[key]` with a str key, as a tool reads a field of an argument it expects to be a dict:
 * KeyError for a dict without it, Python's TypeError for anything that is no dict. */
export function subscript(value: PyValue, key: string): PyValue {
  if (value instanceof Map) return getItem(value, key);
  if (typeof value === 'string') throw typeError("string indices must be integers, not 'str'");
  if (Array.isArray(value)) throw typeError('list indices must be integers or slices, not str');
  throw typeError(`'${pyTypeName(value)}' object is not subscriptable`);
}

const INT_LITERAL = /^[+-]?\d+(_\d+)*$/;
const FLOAT_LITERAL = /^[+-]?((\d+(_\d+)*)?\.?\d+(_\d+)*([eE][+-]?\d+(_\d+)*)?|\d+(_\d+)*\.|(inf|infinity|nan))$/i;

/** `int(value)`: a float truncated, a str parsed, with Python's errors. */
export function pyInt(value: PyValue): number {
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'number') return value;
  if (value instanceof PyFloat) {
    if (Number.isNaN(value.value)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(value.value)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
    return Math.trunc(value.value);
  }
  if (typeof value === 'string') {
    const text = strip(value);
    if (!INT_LITERAL.test(text)) throw new PyError('ValueError', `invalid literal for int() with base 10: ${pyRepr(value)}`);
    return Number(text.replaceAll('_', ''));
  }
  throw typeError(`int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`);
}

/** `float(value)`, with Python's errors. */
export function pyFloatOf(value: PyValue): PyFloat {
  if (typeof value === 'boolean' || typeof value === 'number') return pyFloat(Number(value));
  if (value instanceof PyFloat) return value;
  if (typeof value === 'string') {
    const text = strip(value);
    if (!FLOAT_LITERAL.test(text)) throw new PyError('ValueError', `could not convert string to float: ${pyRepr(value)}`);
    const lowered = text.toLowerCase().replace(/^\+/, '');
    if (/^-?(inf|infinity)$/.test(lowered)) return pyFloat(lowered.startsWith('-') ? -Infinity : Infinity);
    if (/^-?nan$/.test(lowered)) return pyFloat(NaN);
    return pyFloat(Number(text.replaceAll('_', '')));
  }
  throw typeError(`float() argument must be a string or a real number, not '${pyTypeName(value)}'`);
}
