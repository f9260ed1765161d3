// τ²'s `calculate` tool: `str(round(float(eval(expression)), 2))` over the characters
// "0123456789+-*/(). ". Python's arithmetic, not JavaScript's: ints are exact (BigInt), `/` is
// true division, `//` floors, `**` binds right and tighter than a unary minus on its left, an int
// to a negative power is a float, and each failure raises Python's error with Python's words.
// Nothing is evaluated: the expression is parsed here. Pure TypeScript.
//
// One deliberate difference: Python computes whatever it is given, `9**9**9` for hours and a
// product of a thousand `9**24000` for minutes, in the worker that holds the keys, where nothing
// can stop it. Here every evaluation has a bounded cost: an expression of at most
// MAX_EXPRESSION_CHARS, no int past MAX_INT_BITS, and at most MAX_WORK of work in all (each
// operation on ints is charged what its operands' sizes make it cost), each past its bound
// raising an error of ours, never computing on (docs/evaluation.md). Parentheses nest 200 deep, as
// Python's parser allows; other chains (`----1`, `2**2**…`) MAX_DEPTH deep.

import { PyError, typeError, valueError } from './pyErrors.ts';
import { floatRepr, pyFloat, pyRound, type PyValue } from './pyValues.ts';
import { iterate } from './pyOps.ts';

const ALLOWED = '0123456789+-*/(). ';
/** The most bits an int may have at any point of an evaluation. */
export const MAX_INT_BITS = 100_000;
/** The longest expression evaluated: far past any sum a conversation needs. */
export const MAX_EXPRESSION_CHARS = 10_000;
/** What an evaluation may spend, in units of about a nanosecond of V8's BigInt arithmetic
 * (`COST`): ten milliseconds or so, a thousand times what a real sum takes. */
export const MAX_WORK = 10_000_000;
/** What an operation on ints costs, per 64-bit word of its operands (linear) and per pair of
 * words (quadratic), measured on V8's BigInt: reading the bits walks the number, a division by a
 * small int takes about 55 ns a word, a long product or division 1.3 to 2 ns a pair. */
const COST = { read: 25, linear: 60, add: 5, product: 2 } as const;
/** Python's parser refuses parentheses nested deeper ("too many nested parentheses"). */
const MAX_PARENTHESES = 200;
/** How deep the parser may recurse (unary signs, powers, parentheses); Python's compiler gives up
 * near 3,000. */
const MAX_DEPTH = 1_000;

/** A complex result (a negative number to a fractional power) only travels on to the error. */
type Num = { int: bigint } | { float: number } | { tuple: true } | { complex: true };

const syntax = (text: string, line = 1) => new PyError('SyntaxError', `${text} (<string>, line ${line})`);
const zeroDivision = (text: string) => new PyError('ZeroDivisionError', text);
const overflow = (text: string) => new PyError('OverflowError', text);
const tooLarge = () => overflow(`an int in this expression would have more than ${MAX_INT_BITS.toLocaleString('en-US')} bits`);

/** What an evaluation may still spend, in word operations. */
class Work {
  private left = MAX_WORK;
  spend(units: number): void {
    this.left -= units;
    if (this.left < 0) throw overflow('this expression would take too long to compute (its ints are too large for so many operations)');
  }
}

/** The bits of |x|, paid for (reading them walks the number). */
function bitLength(x: bigint, work: Work): number {
  if (x < 0n) x = -x;
  if (x === 0n) return 0;
  const hex = x.toString(16);
  work.spend(COST.read * (1 + (hex.length >> 4)));
  return (hex.length - 1) * 4 + Number.parseInt(hex[0]!, 16).toString(2).length;
}

const limbs = (bits: number) => 1 + (bits >> 6);

/** An int result, refused past MAX_INT_BITS. */
function checkedInt(x: bigint, work: Work): Num {
  if (bitLength(x, work) > MAX_INT_BITS) throw tooLarge();
  return { int: x };
}

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

/** An operation on two ints, charged for what it costs: linear in the operands' words for + and -,
 * their product for *, // and /, the result's words squared for ** (COST). */
function intBinary(op: string, a: { int: bigint }, b: { int: bigint }, work: Work): Num {
  const x = a.int;
  const y = b.int;
  const xBits = bitLength(x, work);
  const yBits = bitLength(y, work);
  switch (op) {
    case '+':
    case '-':
      work.spend(COST.add * (limbs(xBits) + limbs(yBits)));
      return checkedInt(op === '+' ? x + y : x - y, work);
    case '*':
      if (xBits + yBits - 1 > MAX_INT_BITS) throw tooLarge();
      work.spend(COST.linear * (limbs(xBits) + limbs(yBits)) + COST.product * limbs(xBits) * limbs(yBits));
      return checkedInt(x * y, work);
    case '/': {
      if (y === 0n) throw zeroDivision('division by zero');
      const q = Number(x) / Number(y);
      if (!Number.isFinite(q)) throw overflow('integer division result too large for a float');
      return { float: q };
    }
    case '//': {
      if (y === 0n) throw zeroDivision('integer division or modulo by zero');
      work.spend(COST.linear * (limbs(xBits) + limbs(yBits)) + COST.product * limbs(xBits) * limbs(yBits));
      const q = x / y;
      return { int: x % y !== 0n && x < 0n !== y < 0n ? q - 1n : q };
    }
    default: {
      if (y < 0n) {
        if (x === 0n) throw zeroDivision('0.0 cannot be raised to a negative power');
        return checkedFloat(Math.pow(toFloat(a), Number(y)));
      }
      const bits = xBits <= 1 ? 1 : xBits * Number(y);
      if (bits > MAX_INT_BITS) throw tooLarge();
      work.spend(COST.linear * limbs(bits) + COST.product * limbs(bits) * limbs(bits));
      return { int: x ** y };
    }
  }
}

function binary(op: string, a: Num, b: Num, work: Work): Num {
  operands(op, a, b);
  if ('complex' in a || 'complex' in b) {
    if (op === '//') throw typeError(`unsupported operand type(s) for //: '${typeName(a)}' and '${typeName(b)}'`);
    return { complex: true };
  }
  work.spend(1);
  if ('int' in a && 'int' in b) return intBinary(op, a, b, work);
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

const NUMBER = /\d+\.\d*|\.\d+|\d+/y;

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
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(source);
    if (number) {
      const text = number[0];
      if (text.includes('.')) tokens.push({ kind: 'num', value: { float: Number(text) } });
      else {
        if (/^0+[1-9]/.test(text)) throw syntax('leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers');
        tokens.push({ kind: 'num', value: { int: BigInt(text) } });
      }
      i += text.length;
      continue;
    }
    const op = source.startsWith('**', i) ? '**' : source.startsWith('//', i) ? '//' : c;
    if (op === '(' && ++depth > MAX_PARENTHESES) throw syntax('too many nested parentheses');
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
class Evaluation {
  private at = 0;
  private depth = 0;
  private readonly work = new Work();

  constructor(private readonly tokens: Token[]) {}

  run(): Num {
    if (this.peek().kind === 'end') throw syntax('invalid syntax', 0);
    const result = this.sum();
    if (this.peek().kind !== 'end') this.fail();
    return result;
  }

  private peek(): Token {
    return this.tokens[this.at]!;
  }

  private isOp(value: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.value === value;
  }

  private opValue(): string {
    return (this.peek() as { value: string }).value;
  }

  private fail(): never {
    throw syntax('invalid syntax');
  }

  /** One level deeper, refused past MAX_DEPTH as Python's compiler refuses what it cannot hold. */
  private deeper<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new PyError('RecursionError', 'maximum recursion depth exceeded during compilation');
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private atom(): Num {
    const token = this.peek();
    let value: Num;
    if (token.kind === 'num') {
      this.at++;
      value = token.value;
    } else if (this.isOp('(')) {
      this.at++;
      if (this.isOp(')')) {
        this.at++;
        value = { tuple: true };
      } else {
        value = this.deeper(() => this.sum());
        if (!this.isOp(')')) this.fail();
        this.at++;
      }
    } else return this.fail();
    // A parenthesis after an atom is a call.
    if (this.isOp('(')) {
      this.at++;
      if (!this.isOp(')')) this.deeper(() => this.sum());
      if (!this.isOp(')')) this.fail();
      throw typeError(`'${typeName(value)}' object is not callable`);
    }
    return value;
  }

  private power(): Num {
    const base = this.atom();
    if (!this.isOp('**')) return base;
    this.at++;
    return binary('**', base, this.deeper(() => this.unary()), this.work);
  }

  private unary(): Num {
    if (!this.isOp('-') && !this.isOp('+')) return this.power();
    const sign = this.opValue();
    this.at++;
    const v = this.deeper(() => this.unary());
    if ('tuple' in v) throw typeError(`bad operand type for unary ${sign}: 'tuple'`);
    if (sign === '+' || 'complex' in v) return v;
    return 'int' in v ? { int: -v.int } : { float: -v.float };
  }

  private product(): Num {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//')) {
      const op = this.opValue();
      this.at++;
      left = binary(op, left, this.unary(), this.work);
    }
    return left;
  }

  private sum(): Num {
    let left = this.product();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.opValue();
      this.at++;
      left = binary(op, left, this.product(), this.work);
    }
    return left;
  }
}

/** The tool: the rounded result as Python prints it, or the error Python raises. */
export function calculate(expression: PyValue): string {
  if (typeof expression === 'string' && expression.length > MAX_EXPRESSION_CHARS) {
    throw valueError(`the expression is ${expression.length.toLocaleString('en-US')} characters long; the most this tool evaluates is ${MAX_EXPRESSION_CHARS.toLocaleString('en-US')}`);
  }
  const chars = iterate(expression);
  if (!chars.every((c) => typeof c === 'string' && ALLOWED.includes(c))) throw valueError('Invalid characters in expression');
  if (typeof expression !== 'string') throw typeError('eval() arg 1 must be a string, bytes or code object');
  const result = new Evaluation(tokenize(expression.replace(/^[ \t]+|[ \t]+$/g, ''))).run();
  const rounded = pyRound(pyFloat(toFloat(result)), 2);
  return floatRepr(typeof rounded === 'number' ? rounded : rounded.value);
}
