// Python's values as τ²-Bench's tools hold them, so that what our port of its tools returns,
// prints and hashes is byte for byte what the Python prints. JavaScript has one number type;
// Python keeps ints and floats apart (`100` and `100.0` print differently, and a field typed
// `float` holds `100.0`), and its dicts keep insertion order for keys that look like numbers
// (item ids such as "1008292230"), which a JavaScript object would reorder. So:
//
//   Python            here
//   None              null
//   bool              boolean
//   int               number (an integer within the safe range)
//   float             PyFloat (always boxed, even 2.5: the type checker then sends every sum
//                     through the helpers below, which keep Python's int/float rules)
//   str, date         string (a date or datetime as Python's str() prints it)
//   list, tuple       array
//   dict              Map (insertion order, any key)
//   pydantic model    a plain object whose keys are the model's fields in declaration order
//
// Pure TypeScript.

/** A Python float. */
export class PyFloat {
  constructor(readonly value: number) {}
}

export type PyModel = { [field: string]: PyValue };
export type PyValue = null | boolean | number | string | PyFloat | PyValue[] | Map<string, PyValue> | PyModel;

export const pyFloat = (value: number): PyFloat => new PyFloat(value);

export function isModel(value: unknown): value is PyModel {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof PyFloat);
}

/** A Python number's value (int or float); undefined for anything else (bool included: a bool
 * is an int in Python, so callers that accept one say so). */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

/** The name Python gives the value's type, as error messages print it. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'int';
  if (typeof value === 'string') return 'str';
  if (value instanceof PyFloat) return 'float';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** `bool(value)`: Python's truthiness (a NaN float is true, an empty list or dict false). */
export function pyTruthy(value: PyValue | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value.length > 0;
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Floats as Python prints them.

/** The shortest digits that round-trip and the decimal exponent of the first one. */
function shortestDigits(x: number): { digits: string; exponent: number } {
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), exponent: Number(exponent) };
}

/** `repr(float)` (and `str(float)`): the shortest round-trip digits, fixed notation from 1e-4 up
 * to 1e16, always with a fractional part; scientific with a two-digit exponent beyond. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const { digits, exponent } = shortestDigits(x);
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole}.${fraction || '0'}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const abs = Math.abs(exponent);
  return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
}

/** The exact value of a finite double as a fraction of BigInts (numerator, power of two denominator). */
function exactFraction(x: number): { numerator: bigint; denominator: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exponent: number;
  if (exponentBits === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = exponentBits - 1075;
  }
  const signed = negative ? -mantissa : mantissa;
  return exponent >= 0 ? { numerator: signed << BigInt(exponent), denominator: 1n } : { numerator: signed, denominator: 1n << BigInt(-exponent) };
}

/** x rounded to `places` decimals, half to even on its exact binary value, as an integer count of
 * 10^-places (what Python's float formatting and round() start from). */
function roundedUnits(x: number, places: number): bigint {
  const { numerator, denominator } = exactFraction(x);
  const scale = 10n ** BigInt(places);
  const scaled = numerator * scale;
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  let quotient = magnitude / denominator;
  const twiceRemainder = (magnitude % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

function unitsToFixed(units: bigint, places: number, negativeZero: boolean): string {
  const negative = units < 0n || (units === 0n && negativeZero);
  const digits = (units < 0n ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${negative ? '-' : ''}${whole}${places > 0 ? `.${fraction}` : ''}`;
}

/** Python's `f"{x:.Nf}"` for a float: correctly rounded, half to even on the exact value. */
export function formatFixed(x: number, places: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return unitsToFixed(roundedUnits(x, places), places, Object.is(x, -0) || x < 0);
}

/** Python's `round(number, ndigits)`: an int stays the int; a float is rounded on its exact value,
 * half to even, and read back as the nearest float. */
export function pyRound(value: number | PyFloat, places: number): number | PyFloat {
  if (typeof value === 'number') return value;
  const x = value.value;
  if (!Number.isFinite(x) || x === 0) return value;
  const units = roundedUnits(x, places);
  const result = Number(`${units}e-${places}`);
  return pyFloat(result === 0 && x < 0 ? -0 : result);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic with Python's int/float rules (an int result only from two ints).

type Num = number | PyFloat;
const bothInts = (a: Num, b: Num): a is number => typeof a === 'number' && typeof b === 'number';
const value = (n: Num): number => (typeof n === 'number' ? n : n.value);

export const pyAdd = (a: Num, b: Num): Num => (bothInts(a, b) ? a + (b as number) : pyFloat(value(a) + value(b)));
export const pySub = (a: Num, b: Num): Num => (bothInts(a, b) ? a - (b as number) : pyFloat(value(a) - value(b)));
export const pyMul = (a: Num, b: Num): Num => (bothInts(a, b) ? a * (b as number) : pyFloat(value(a) * value(b)));
export const pyAbs = (a: Num): Num => (typeof a === 'number' ? Math.abs(a) : pyFloat(Math.abs(a.value)));

// ---------------------------------------------------------------------------------------------
// str() and repr().

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

/** `repr(str)`: single quotes unless the text holds a single quote and no double quote. */
export function strRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char !== ' ' && NON_PRINTABLE.test(char)) {
      if (code < 0x100) out += `\\x${code.toString(16).padStart(2, '0')}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
      else out += `\\U${code.toString(16).padStart(8, '0')}`;
    } else out += char;
  }
  return out + quote;
}

/** `repr(value)`. A model prints as its dump would (a dict): callers that need pydantic's own
 * model repr do not exist in the ported tools. */
export function pyRepr(value: PyValue | undefined): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return strRepr(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return `{${entries.map(([k, v]) => `${strRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
}

/** `str(value)`, as an f-string prints it. */
export function pyStr(value: PyValue | undefined): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

// ---------------------------------------------------------------------------------------------
// Equality (==) and ordering as Python has them for these values.

export function pyEquals(a: PyValue | undefined, b: PyValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const numA = typeof a === 'boolean' ? Number(a) : numberOf(a);
  const numB = typeof b === 'boolean' ? Number(b) : numberOf(b);
  if (numA !== undefined || numB !== undefined) return numA !== undefined && numB !== undefined && numA === numB;
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => pyEquals(item, b[i]));
  }
  const entriesA = a instanceof Map ? a : new Map(Object.entries(a as PyModel));
  const entriesB = b instanceof Map ? b : new Map(Object.entries(b as PyModel));
  if (entriesA.size !== entriesB.size) return false;
  for (const [key, item] of entriesA) {
    if (!entriesB.has(key) || !pyEquals(item, entriesB.get(key))) return false;
  }
  return true;
}

/** Compares two strings by code point, as Python sorts them. */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
