// τ²'s `calculate` tool: `str(round(float(eval(expression)), 2))` over the characters
// "0123456789+-*/(). ". Python's arithmetic, not JavaScript's: ints are exact (BigInt), `/` is
// true division, `//` floors, `**` binds right and tighter than a unary minus on its left, an int
// to a negative power is a float, and each failure raises Python's error with Python's words.
// Nothing is evaluated: the expression is parsed here. Pure TypeScript.
//
// One deliberate difference: Python would compute `9**9**9` for hours; an int power whose result
// would pass MAX_POWER_BITS raises an OverflowError of ours instead (docs/evaluation.md).

import { PyError, typeError, valueError } from './pyErrors.ts';
import { floatRepr, pyFloat, pyRound, type PyValue } from './pyValues.ts';
import { iterate } from './pyOps.ts';

const ALLOWED = '0123456789+-*/(). ';
export const MAX_POWER_BITS = 100_000;

/** A complex result (a negative number to a fractional power) only travels on to the error. */
type Num = { int: bigint } | { float: number } | { tuple: true } | { complex: true };

const syntax = (text: string, line = 1) => new PyError('SyntaxError', `${text} (<string>, line ${line})`);
const zeroDivision = (text: string) => new PyError('ZeroDivisionError', text);
const overflow = (text: string) => new PyError('OverflowError', text);

function toFloat(n: Num): number {
  if ('float' in n) return n.float;
  if (!('int' in n)) throw typeError(`float() argument must be a string or a real number, not '${typeName(n)}'`);
  const x = Number(n.int);
  if (!Number.isFinite(x)) throw overflow('int too large to convert to float');
  return x;
}

function typeName(n: Num): string {
  return 'int' in n ? 'int' : 'float' in n ? 'float' : 'tuple' in n ? 'tuple' : 'complex';
}

function operands(op: string, a: Num, b: Num): void {
  if ('tuple' in a || 'tuple' in b) throw typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function checkedFloat(x: number): Num {
  if (!Number.isFinite(x)) throw overflow("(34, 'Numerical result out of range')");
  return { float: x };
}

function binary(op: string, a: Num, b: Num): Num {
  operands(op, a, b);
  if ('complex' in a || 'complex' in b) {
    if (op === '//') throw typeError(`unsupported operand type(s) for //: '${typeName(a)}' and '${typeName(b)}'`);
    return { complex: true };
  }
  if ('int' in a && 'int' in b) {
    const x = a.int;
    const y = b.int;
    switch (op) {
      case '+':
        return { int: x + y };
      case '-':
        return { int: x - y };
      case '*':
        return { int: x * y };
      case '/': {
        if (y === 0n) throw zeroDivision('division by zero');
        const q = Number(x) / Number(y);
        if (!Number.isFinite(q)) throw overflow('integer division result too large for a float');
        return { float: q };
      }
      case '//': {
        if (y === 0n) throw zeroDivision('integer division or modulo by zero');
        const q = x / y;
        return { int: (x % y !== 0n && (x < 0n) !== (y < 0n)) ? q - 1n : q };
      }
      case '**': {
        if (y < 0n) {
          if (x === 0n) throw zeroDivision('0.0 cannot be raised to a negative power');
          return checkedFloat(Math.pow(toFloat(a), Number(y)));
        }
        const magnitude = x < 0n ? -x : x;
        const bits = magnitude <= 1n ? 1 : magnitude.toString(2).length * Number(y);
        if (bits > MAX_POWER_BITS) throw overflow(`the result of this power would have more than ${MAX_POWER_BITS} bits`);
        return { int: x ** y };
      }
    }
  }
  const x = toFloat(a);
  const y = toFloat(b);
  switch (op) {
    case '+':
      return checkedFloat(x + y);
    case '-':
      return checkedFloat(x - y);
    case '*':
      return checkedFloat(x * y);
    case '/':
      if (y === 0) throw zeroDivision('float division by zero');
      return checkedFloat(x / y);
    case '//': {
      if (y === 0) throw zeroDivision('float floor division by zero');
      return { float: Math.floor(x / y) };
    }
    default: {
      if (x === 0 && y < 0) throw zeroDivision('0.0 cannot be raised to a negative power');
      if (x < 0 && !Number.isInteger(y)) return { complex: true };
      return checkedFloat(Math.pow(x, y));
    }
  }
}

type Token = { kind: 'num'; value: Num } | { kind: 'op'; value: string } | { kind: 'end' };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ') {
      i++;
      continue;
    }
    const number = /^(\d+\.\d*|\.\d+|\d+)/.exec(source.slice(i));
    if (number) {
      const text = number[1]!;
      if (text.includes('.')) tokens.push({ kind: 'num', value: { float: Number(text) } });
      else {
        if (/^0+[1-9]/.test(text)) throw syntax('leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers');
        tokens.push({ kind: 'num', value: { int: BigInt(text) } });
      }
      i += text.length;
      continue;
    }
    const op = source.startsWith('**', i) ? '**' : source.startsWith('//', i) ? '//' : c;
    if (op === '(') depth++;
    if (op === ')') {
      if (depth === 0) throw syntax("unmatched ')'");
      depth--;
    }
    tokens.push({ kind: 'op', value: op });
    i += op.length;
  }
  if (depth > 0) throw syntax("'(' was never closed");
  tokens.push({ kind: 'end' });
  return tokens;
}

/** Parses and evaluates, with Python's precedence: + - < * / // < unary < ** (right). */
function evaluate(source: string): Num {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at]!;
  const isOp = (value: string) => peek().kind === 'op' && (peek() as { value: string }).value === value;
  const fail = (): never => {
    throw syntax('invalid syntax');
  };
  const atom = (): Num => {
    const token = peek();
    let value: Num;
    if (token.kind === 'num') {
      at++;
      value = token.value;
    } else if (isOp('(')) {
      at++;
      if (isOp(')')) {
        at++;
        value = { tuple: true };
      } else {
        value = sum();
        if (!isOp(')')) fail();
        at++;
      }
    } else return fail();
    // A parenthesis after an atom is a call.
    while (isOp('(')) {
      at++;
      if (!isOp(')')) sum();
      if (!isOp(')')) fail();
      at++;
      throw typeError(`'${typeName(value)}' object is not callable`);
    }
    return value;
  };
  const power = (): Num => {
    const base = atom();
    if (isOp('**')) {
      at++;
      return binary('**', base, unary());
    }
    return base;
  };
  const unary = (): Num => {
    if (isOp('-') || isOp('+')) {
      const sign = (peek() as { value: string }).value;
      at++;
      const v = unary();
      if ('tuple' in v) throw typeError(`bad operand type for unary ${sign}: 'tuple'`);
      if (sign === '+' || 'complex' in v) return v;
      return 'int' in v ? { int: -v.int } : { float: -v.float };
    }
    return power();
  };
  const product = (): Num => {
    let left = unary();
    while (isOp('*') || isOp('/') || isOp('//')) {
      const op = (peek() as { value: string }).value;
      at++;
      left = binary(op, left, unary());
    }
    return left;
  };
  const sum = (): Num => {
    let left = product();
    while (isOp('+') || isOp('-')) {
      const op = (peek() as { value: string }).value;
      at++;
      left = binary(op, left, product());
    }
    return left;
  };
  if (peek().kind === 'end') throw syntax('invalid syntax', 0);
  const result = sum();
  if (peek().kind !== 'end') fail();
  return result;
}

/** The tool: the rounded result as Python prints it, or the error Python raises. */
export function calculate(expression: PyValue): string {
  const chars = iterate(expression);
  if (!chars.every((c) => typeof c === 'string' && ALLOWED.includes(c))) throw valueError('Invalid characters in expression');
  if (typeof expression !== 'string') throw typeError('eval() arg 1 must be a string, bytes or code object');
  const result = evaluate(expression.replace(/^[ \t]+|[ \t]+$/g, ''));
  const rounded = pyRound(pyFloat(toFloat(result)), 2);
  return floatRepr(typeof rounded === 'number' ? rounded : rounded.value);
}
