// The calculator: mathjs with 64-digit BigNumbers and units ("0.1 + 0.2" is exactly 0.3,
// "5 km to mile", "2^200" in full). Expressions cannot change the calculator (import, createUnit,
// config are disabled, as are the parsers mathjs's security notes name) and cannot run for long:
// user functions are refused (no recursion, hence no loops), the built-ins whose cost grows with an
// argument (matrix sizes, sets, factorials, formatting and the like) refuse arguments past a cap,
// and a result longer than MAX_RESULT_CHARS is refused. mathjs runs synchronously, so the
// calculator runs in a worker of its own with a deadline (calculatorHost.ts): whatever the caps
// miss ends with that worker, never with the caller's.

import type { MathJsInstance, MathNode } from 'mathjs';
import type { Calculation } from '../../workers/engine/ports.ts';

export const PRECISION_DIGITS = 64;
export const MAX_EXPRESSION_CHARS = 2_000;
/** Longest vector a function may create (sum(1:10000) is fine). */
export const MAX_VECTOR_ELEMENTS = 10_000;
/** Largest 2-D matrix a function may create (20 × 20): BigNumber linear algebra is cubic and
 * slow (measured: inverting 50 × 50 took 6.5 s, multiplying two 1.5 s). */
export const MAX_MATRIX_ELEMENTS = 400;
const MAX_ITERATIVE_MATRIX_ELEMENTS = 100;
/** Multiply-adds one matrix product may take: a 20 × 20 product (8,000), a 10,000-element dot product. */
export const MAX_MULTIPLY_STEPS = 10_000;
/** Element-wise functions, which broadcast operands of different shapes against each other. */
const BROADCASTING_FUNCTIONS = [
  'add', 'subtract', 'dotMultiply', 'dotDivide', 'dotPow', 'mod', 'gcd', 'lcm', 'atan2', 'nthRoot', 'log',
  'bitAnd', 'bitOr', 'bitXor', 'leftShift', 'rightArithShift', 'rightLogShift', 'and', 'or', 'xor',
  'compare', 'compareNatural', 'compareText', 'equal', 'unequal', 'larger', 'largerEq', 'smaller', 'smallerEq',
] as const;
/** isPrime's Miller-Rabin on BigNumbers took a minute for 2^89 - 1; up to 2^64 it takes under a second. */
const MAX_PRIME_CANDIDATE = 2 ** 64;
/** Largest n for n!, gamma(n) and the loop counts of the other combinatorics functions. */
export const MAX_COMBINATORIC_ARGUMENT = 10_000;
/** stirlingS2, bellNumbers and bernoulli grow quadratically or worse. */
const MAX_TABLE_ARGUMENT = 200;
const MAX_FORMAT_PRECISION = 1_000;
/** Longest result text, in characters: what the model reads (as the JavaScript sandbox's cap). */
export const MAX_RESULT_CHARS = 64 * 1024;
/** setPowerset makes 2^n subsets: at most 2^12. */
export const MAX_POWERSET_SUBSETS = 4_096;
/** setIntersect and its kin compare every element with every other, as BigNumbers: measured on a
 * loaded machine, 2,000 × 2,000 elements (4,000,000 pairs) took 26 s and setUnion(1:300, 1:300)
 * 2.3 s; 200 × 200 is the limit. */
export const MAX_SET_PAIRS = 40_000;
/** Digits an exact result (bigint, fraction) of a power may have: its cost grows with them. */
export const MAX_EXACT_DIGITS = 100_000;

/** Refused outright: each either changes the calculator or parses a string into a new expression. */
const DISABLED_FUNCTIONS = [
  'import',
  'createUnit',
  'config',
  'help',
  'evaluate',
  'parse',
  'compile',
  'parser',
  'resolve',
  'reviver',
  'simplify',
  'simplifyConstant',
  'simplifyCore',
  'derivative',
  'rationalize',
  'leafCount',
  'symbolicEqual',
] as const;

type FunctionTable = Record<string, ((...args: unknown[]) => unknown) | undefined>;

/** Thrown for input the calculator refuses or cannot evaluate; the message is for the model. */
export class CalculatorError extends Error {
  override name = 'CalculatorError';
}

export interface Calculator {
  calculate(expression: string): Calculation;
}

let loading: Promise<Calculator> | null = null;

/** The calculator, built on first use (mathjs is a large download). */
export function loadCalculator(): Promise<Calculator> {
  loading ??= import('mathjs').then(({ create, all }) => {
    if (!all) throw new Error('mathjs loaded without its functions');
    return buildCalculator(create(all, { number: 'BigNumber', precision: PRECISION_DIGITS }));
  });
  // A failed download may succeed later: do not keep the failure.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Locks down a fresh mathjs instance and wraps it as a Calculator. */
export function buildCalculator(math: MathJsInstance): Calculator {
  // Taken before the overrides below, which would otherwise reach them through mathjs's lazy factories.
  const evaluate = math.evaluate;
  const parse = math.parse;
  const format = math.format;
  const typeOf = math.typeOf;
  const disabled = new Set<string>(DISABLED_FUNCTIONS);
  guardFunctions(math);

  const formatValue = (value: unknown): string => {
    if (typeof value === 'function') {
      throw new CalculatorError(`the result is the function ${value.name || ''}; call it with arguments`);
    }
    return format(value, { precision: PRECISION_DIGITS, lowerExp: -9, upperExp: PRECISION_DIGITS });
  };
  const withinCap = (calculation: Calculation): Calculation => {
    const length = calculation.result.length;
    if (length <= MAX_RESULT_CHARS) return calculation;
    throw new CalculatorError(
      `the result is ${length} characters long; the limit is ${MAX_RESULT_CHARS}. Ask for less: a sum, a size, a few elements`,
    );
  };

  return {
    calculate(expression) {
      if (expression.length > MAX_EXPRESSION_CHARS) {
        throw new CalculatorError(`the expression is ${expression.length} characters long; the limit is ${MAX_EXPRESSION_CHARS}`);
      }
      refuseDisabled(parse, disabled, expression);
      let value: unknown;
      try {
        value = evaluate(expression);
      } catch (error) {
        throw error instanceof CalculatorError ? error : new CalculatorError(messageOf(error));
      }
      if (math.isResultSet(value)) {
        const entries = (value as { entries: unknown[] }).entries;
        if (entries.length === 0) throw new CalculatorError('there is no result: every statement ends with a semicolon');
        return withinCap({ expression, result: entries.map(formatValue).join('\n'), type: typeOf(entries[entries.length - 1]) });
      }
      if (value === undefined) throw new CalculatorError('there is no result');
      return withinCap({ expression, result: formatValue(value), type: typeOf(value) });
    },
  };
}

/** Replaces the disabled functions with ones that refuse, and guards each costly one with its
 * argument check (argumentChecks), its expression transform too. */
function guardFunctions(math: MathJsInstance): void {
  const overrides: Record<string, (...args: unknown[]) => unknown> = {};
  // `config` stays: mathjs's lazy factories read it, and replacing it silently turns the constants
  // (pi, e) into plain floats. Expressions cannot reach it anyway (see refuseDisabled).
  for (const name of DISABLED_FUNCTIONS.filter((name) => name !== 'config')) {
    overrides[name] = () => {
      throw new CalculatorError(`${name} is disabled in this calculator`);
    };
  }
  // Expressions call a function's transform where it has one (range's includes its end). mathjs
  // imports a function's `transform` property as that transform, so both keep their meaning.
  const transforms = (math as unknown as { expression: { transform: FunctionTable } }).expression.transform;
  for (const [name, check] of Object.entries(argumentChecks(createSizeReader(math)))) {
    const guard = (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => {
      const problem = check(args);
      if (problem) throw new CalculatorError(`${name}: ${problem}`);
      return original(...args);
    };
    const plain = (math as unknown as FunctionTable)[name];
    if (typeof plain !== 'function') continue;
    const transform = transforms[name];
    overrides[name] = Object.assign(guard(plain), transform ? { transform: guard(transform) } : {});
  }
  math.import(overrides, { override: true });
}

/** Parses the expression and refuses a function definition or any mention of a disabled function. */
function refuseDisabled(parse: MathJsInstance['parse'], disabled: ReadonlySet<string>, expression: string): void {
  let tree: MathNode;
  try {
    tree = parse(expression);
  } catch (error) {
    throw new CalculatorError(messageOf(error));
  }
  tree.traverse((node) => {
    if (node.type === 'FunctionAssignmentNode') {
      throw new CalculatorError('defining functions is not supported; write the expression out instead');
    }
    // Any mention, called or not: `f = config; f(...)` is refused as well.
    const name = (node as { name?: unknown }).name;
    if (node.type === 'SymbolNode' && typeof name === 'string' && disabled.has(name)) {
      throw new CalculatorError(`${name} is disabled in this calculator`);
    }
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface SizeReader {
  isCollection(value: unknown): boolean;
  /** A plain number from a number, BigNumber, fraction or bigint; NaN for anything else. */
  numberOf(value: unknown): number;
  /** The dimensions of an array or matrix; [] for a scalar. */
  dimensionsOf(value: unknown): number[];
  /** Every element of an array or matrix (or the scalar itself) as a number. */
  numbersIn(value: unknown): number[];
  /** The power of ten of every floating-point number in a value (matrix elements, a unit's value,
   * a complex number's parts): 5 for 123456, -3 for 0.001, 0 for zero and for what is not a number. */
  exponentsIn(value: unknown): number[];
  /** log10 of an exact value's size (a bigint; a fraction's numerator and denominator, added):
   * about its decimal digits; 0 for anything else. */
  exactDigitsOf(value: unknown): number;
  /** The exact digits of every element of a value, summed. */
  exactDigitsIn(value: unknown): number;
}

function createSizeReader(math: MathJsInstance): SizeReader {
  const { number, flatten, isCollection, isMatrix, size, typeOf } = math;
  const numericTypes = new Set(['number', 'BigNumber', 'Fraction', 'bigint']);
  const numberOf = (value: unknown): number => (numericTypes.has(typeOf(value)) ? Number(number(value as number)) : NaN);
  const elementsOf = (value: unknown): unknown[] => {
    const flat = flatten(value as number[]) as unknown;
    return isMatrix(flat) ? (flat.toArray() as unknown[]) : (flat as unknown[]);
  };
  /** log10 of a bigint's size: exact while it fits a double, from its hexadecimal length past that. */
  const bigintDigits = (value: bigint): number => {
    const size = value < 0n ? -value : value;
    if (size <= BigInt(Number.MAX_SAFE_INTEGER)) return size === 0n ? 0 : Math.log10(Number(size));
    return size.toString(16).length * Math.log10(16);
  };
  const exactDigitsOf = (value: unknown): number => {
    if (typeof value === 'bigint') return bigintDigits(value);
    if (typeOf(value) === 'Fraction') {
      const fraction = value as { n: bigint; d: bigint };
      return bigintDigits(fraction.n) + bigintDigits(fraction.d);
    }
    return 0;
  };
  const exponentOf = (value: unknown): number[] => {
    switch (typeOf(value)) {
      case 'BigNumber': {
        const big = value as { e: number; isZero(): boolean; isFinite(): boolean };
        return [big.isZero() || !big.isFinite() ? 0 : big.e];
      }
      case 'number': {
        const plain = value as number;
        return [plain === 0 || !Number.isFinite(plain) ? 0 : Math.floor(Math.log10(Math.abs(plain)))];
      }
      case 'bigint':
      case 'Fraction':
        return [];
      case 'Complex': {
        const complex = value as { re: number; im: number };
        return [...exponentOf(complex.re), ...exponentOf(complex.im)];
      }
      case 'Unit':
        return exponentOf((value as { value: unknown }).value);
      case 'Object':
        // print()'s values: `{a: 10^(10^8)}`.
        return Object.values(value as Record<string, unknown>).flatMap((item) => (isCollection(item) ? elementsOf(item).flatMap(exponentOf) : exponentOf(item)));
      default:
        return [0];
    }
  };
  return {
    isCollection: (value) => isCollection(value),
    numberOf,
    dimensionsOf: (value) => (isCollection(value) ? elementsOf(size(value as number[])).map(numberOf) : []),
    numbersIn: (value) => (isCollection(value) ? elementsOf(value).map(numberOf) : [numberOf(value)]),
    exponentsIn: (value) => (isCollection(value) ? elementsOf(value).flatMap(exponentOf) : exponentOf(value)),
    exactDigitsOf,
    exactDigitsIn: (value) => {
      const items = isCollection(value) ? elementsOf(value) : typeOf(value) === 'Object' ? Object.values(value as object) : [value];
      return items.reduce<number>((sum, item) => sum + Math.ceil(exactDigitsOf(item)) + 1, 0);
    },
  };
}

type ArgumentCheck = (args: unknown[]) => string | null;

/** The size arithmetic the checks share: element counts, the caps on them, and growth. */
function shapeRules(sizes: SizeReader) {
  const { numbersIn, dimensionsOf } = sizes;
  /** Refuses `count` elements in `dimensions` dimensions past the caps. */
  const tooMany = (count: number, dimensions: number) => {
    if (Number.isNaN(count)) return 'sizes must be plain numbers';
    const limit = dimensions <= 1 ? MAX_VECTOR_ELEMENTS : MAX_MATRIX_ELEMENTS;
    const shape = dimensions <= 1 ? 'a vector' : 'a matrix';
    return count <= limit ? null : `that would make ${shape} of ${count} elements; the limit is ${limit}`;
  };
  const product = (numbers: number[]) => numbers.reduce((total, n) => total * n, 1);
  // A size list: numbers, or one array/matrix of numbers; format names ("dense", "sparse") are skipped.
  const sizeList = (args: unknown[]) => args.filter((arg) => typeof arg !== 'string').flatMap(numbersIn);
  const sizeListCheck = (args: unknown[]) => {
    const dimensions = sizeList(args);
    return tooMany(product(dimensions), dimensions.length);
  };
  const elementCount = (value: unknown) => product(dimensionsOf(value));
  /** Refuses a result of `shape` past the caps, unless no operand is smaller (nothing grows). */
  const grows = (shape: number[], operands: number[][]) => {
    const count = product(shape);
    return count <= Math.max(0, ...operands.map(product)) ? null : tooMany(count, shape.length);
  };
  /** Elements in a set (an array or matrix), 1 for a scalar. */
  const setSize = (value: unknown) => (sizes.isCollection(value) ? elementCount(value) : 1);
  return { tooMany, product, sizeList, sizeListCheck, elementCount, grows, setSize };
}

type ShapeRules = ReturnType<typeof shapeRules>;

/** Matrix products: each step's cost, and the product's size. */
function multiplyCheck(sizes: SizeReader, { grows }: ShapeRules): ArgumentCheck {
  return (args) => {
    const [first = [], ...rest] = args.map(sizes.dimensionsOf);
    let shape = first;
    for (const next of rest) {
      if (shape.length === 0 || next.length === 0) {
        shape = shape.length === 0 ? next : shape;
        continue;
      }
      const [rows = 1, inner = 1] = shape.length === 1 ? [1, shape[0]] : shape;
      const columns = next.length === 1 ? 1 : (next[1] ?? 1);
      const steps = rows * inner * columns;
      if (steps > MAX_MULTIPLY_STEPS) {
        return `multiplying a ${shape.join(' × ')} by a ${next.join(' × ')} matrix takes ${steps} steps; the limit is ${MAX_MULTIPLY_STEPS}`;
      }
      const product: number[] = shape.length === 1 ? (next.length === 1 ? [] : [columns]) : next.length === 1 ? [rows] : [rows, columns];
      const problem = grows(product, [shape, next]);
      if (problem) return problem;
      shape = product;
    }
    return null;
  };
}

/** The functions that make arrays and matrices: no result past the element caps. */
function shapeChecks(sizes: SizeReader, rules: ShapeRules): Record<string, ArgumentCheck> {
  const { isCollection, numberOf, dimensionsOf, numbersIn } = sizes;
  const { tooMany, product, sizeList, sizeListCheck, elementCount, grows } = rules;
  const broadcast: ArgumentCheck = (args) => {
    const shapes = args.filter(isCollection).map(dimensionsOf);
    if (shapes.length < 2) return null;
    const rank = Math.max(...shapes.map((shape) => shape.length));
    const padded = shapes.map((shape) => [...Array<number>(rank - shape.length).fill(1), ...shape]);
    return grows(Array.from({ length: rank }, (_, axis) => Math.max(...padded.map((shape) => shape[axis] ?? 1))), shapes);
  };
  const concat: ArgumentCheck = (args) => {
    const shapes = args.filter(isCollection).map(dimensionsOf);
    const total = shapes.reduce((sum, shape) => sum + product(shape), 0);
    return grows([total, ...Array<number>(Math.max(0, ...shapes.map((shape) => shape.length)) - 1).fill(1)], shapes);
  };
  const sizedByFirst: ArgumentCheck = (args) => (isCollection(args[0]) ? sizeListCheck(args.slice(0, 1)) : null);
  return {
    zeros: sizeListCheck,
    ones: sizeListCheck,
    identity: (args) => {
      const [rows = 1, columns = rows] = sizeList(args);
      return tooMany(rows * columns, 2);
    },
    resize: (args) => sizeListCheck(args.slice(1, 2)),
    random: sizedByFirst,
    randomInt: sizedByFirst,
    pickRandom: (args) => {
      const count = numberOrField(args[1], 'number', numberOf);
      return count === undefined ? null : tooMany(numberOf(count), 1);
    },
    range: (args) => {
      if (typeof args[0] === 'string') return 'write the range as start:end or start:step:end instead of a string';
      const [start = NaN, end = NaN, step = 1] = args.filter((arg) => typeof arg !== 'boolean').map(numberOf);
      return tooMany(Math.floor(Math.abs((end - start) / step)) + 1, 1);
    },
    // A vector becomes a square matrix; a matrix gives up its diagonal (no larger than itself).
    diag: (args) => {
      const dimensions = dimensionsOf(args[0]);
      return dimensions.length === 1 ? tooMany((dimensions[0] ?? 0) ** 2, 2) : null;
    },
    kron: (args) => tooMany(elementCount(args[0]) * elementCount(args[1]), 2),
    multiply: multiplyCheck(sizes, rules),
    concat,
    // An index reaching far out grows the matrix it assigns to (`A[10000, 10000] = 1`).
    index: (args) => {
      const reach = product(args.map((range) => Math.max(0, ...numbersIn(range))));
      return reach > MAX_VECTOR_ELEMENTS ? `an index reaching ${reach} elements is past the limit of ${MAX_VECTOR_ELEMENTS}` : null;
    },
    reshape: (args) => grows(sizeList(args.slice(1, 2)), [dimensionsOf(args[0])]),
    ...Object.fromEntries(BROADCASTING_FUNCTIONS.map((name) => [name, broadcast])),
  };
}

/** The functions whose cost grows with their arguments' values: combinatorics, iterative matrix
 * methods, exact powers. */
function costChecks(sizes: SizeReader, { elementCount }: ShapeRules): Record<string, ArgumentCheck> {
  const { numberOf, numbersIn, exactDigitsOf } = sizes;
  const atMost = (limit: number, label = String(limit)) => (args: unknown[]) => {
    const largest = Math.max(...args.flatMap(numbersIn));
    return largest > limit ? `arguments above ${label} are too costly for this calculator` : null;
  };
  const combinatoric = atMost(MAX_COMBINATORIC_ARGUMENT);
  const iterativeMatrix: ArgumentCheck = (args) => {
    const count = elementCount(args[0]);
    return count > MAX_ITERATIVE_MATRIX_ELEMENTS
      ? `a matrix of ${count} elements is too costly here; the limit is ${MAX_ITERATIVE_MATRIX_ELEMENTS} (10 × 10)`
      : null;
  };
  return {
    factorial: combinatoric,
    gamma: combinatoric,
    combinations: combinatoric,
    combinationsWithRep: combinatoric,
    permutations: combinatoric,
    composition: combinatoric,
    catalan: atMost(MAX_COMBINATORIC_ARGUMENT / 2),
    multinomial: (args) => combinatoric([numbersIn(args[0]).reduce((sum, n) => sum + n, 0)]),
    stirlingS2: atMost(MAX_TABLE_ARGUMENT),
    bellNumbers: atMost(MAX_TABLE_ARGUMENT),
    bernoulli: atMost(MAX_TABLE_ARGUMENT),
    isPrime: atMost(MAX_PRIME_CANDIDATE, '2^64'),
    // Iterative, each step inverting a matrix: measured 3.5 s for sqrtm of 20 × 20.
    sqrtm: iterativeMatrix,
    expm: iterativeMatrix,
    eigs: iterativeMatrix,
    schur: iterativeMatrix,
    sylvester: iterativeMatrix,
    lyap: iterativeMatrix,
    pinv: iterativeMatrix,
    // Exact powers (bigints, fractions) keep every digit: 3^(10^8) would have 48 million.
    pow: (args) => {
      const digits = exactDigitsOf(args[0]) * Math.abs(numberOf(args[1]));
      return digits > MAX_EXACT_DIGITS ? `an exact result of about ${Math.round(digits)} digits is past the limit of ${MAX_EXACT_DIGITS}` : null;
    },
  };
}

/** The functions that write a value as text: no text past the result cap, refused before it is made. */
function formatChecks(sizes: SizeReader): Record<string, ArgumentCheck> {
  const { numberOf, exponentsIn, exactDigitsIn } = sizes;
  const formatted = (value: unknown, option: unknown): string | null => {
    // Exact values (bigints, fractions) are written out in full, whatever the notation.
    const chars = formattedLength(exponentsIn(value), formatOptions(option, numberOf)) + exactDigitsIn(value);
    return chars > MAX_RESULT_CHARS
      ? `that would write about ${chars} characters; the limit is ${MAX_RESULT_CHARS}`
      : null;
  };
  const inNotation = (notation: string) => (args: unknown[]) => formatted(args[0], { notation, wordSize: args[1] });
  return {
    format: (args) => precisionCheck(args[1], numberOf) ?? formatted(args[0], args[1]),
    print: (args) => precisionCheck(args[2], numberOf) ?? formatted(args[1], args[2]),
    bin: inNotation('bin'),
    oct: inNotation('oct'),
    hex: inNotation('hex'),
  };
}

/** The set functions: no more pairs, subsets or comparisons than the caps. */
function setChecks({ setSize }: ShapeRules): Record<string, ArgumentCheck> {
  const pairwise: ArgumentCheck = (args) => {
    const pairs = setSize(args[0]) * setSize(args[1]);
    return pairs > MAX_SET_PAIRS
      ? `comparing a set of ${setSize(args[0])} with one of ${setSize(args[1])} elements takes ${pairs} comparisons; the limit is ${MAX_SET_PAIRS}`
      : null;
  };
  return {
    setCartesian: (args) => {
      const pairs = setSize(args[0]) * setSize(args[1]);
      return pairs > MAX_VECTOR_ELEMENTS ? `that would make ${pairs} pairs; the limit is ${MAX_VECTOR_ELEMENTS}` : null;
    },
    setPowerset: (args) => {
      const subsets = 2 ** setSize(args[0]);
      return subsets > MAX_POWERSET_SUBSETS ? `that would make ${subsets} subsets; the limit is ${MAX_POWERSET_SUBSETS}` : null;
    },
    setIntersect: pairwise,
    setUnion: pairwise,
    setDifference: pairwise,
    setSymDifference: pairwise,
    setIsSubset: pairwise,
  };
}

/** Checks for the built-ins whose time or memory grows with an argument, by the function's name. */
function argumentChecks(sizes: SizeReader): Record<string, ArgumentCheck> {
  const rules = shapeRules(sizes);
  return { ...shapeChecks(sizes, rules), ...costChecks(sizes, rules), ...formatChecks(sizes), ...setChecks(rules) };
}

interface FormatOptions {
  notation: string;
  precision: number | undefined;
  lowerExp: number;
  upperExp: number;
}

/** mathjs's format options from its second argument: a precision, an object, or nothing. */
function formatOptions(option: unknown, numberOf: (value: unknown) => number): FormatOptions {
  const field = (key: string) =>
    typeof option === 'object' && option !== null && Number.isNaN(numberOf(option)) ? (option as Record<string, unknown>)[key] : undefined;
  const numeric = (value: unknown, fallback: number | undefined) => {
    const number = numberOf(value);
    return Number.isNaN(number) ? fallback : number;
  };
  const notation = field('notation');
  return {
    notation: typeof notation === 'string' ? notation : 'auto',
    precision: numeric(Number.isNaN(numberOf(option)) ? field('precision') : option, undefined),
    lowerExp: numeric(field('lowerExp'), -3) ?? -3,
    upperExp: numeric(field('upperExp'), 5) ?? 5,
  };
}

/** An upper bound on the characters mathjs writes for numbers of these powers of ten: fixed
 * notation (or auto within lowerExp..upperExp) writes every digit before and after the point,
 * bin/oct/hex about 3.3, 1.1 and 0.8 per decimal digit; the others stay near the precision. */
function formattedLength(exponents: readonly number[], options: FormatOptions): number {
  const digits = (options.precision ?? PRECISION_DIGITS) + 8;
  const perNumber = (exponent: number): number => {
    const magnitude = Math.abs(exponent);
    switch (options.notation) {
      case 'fixed':
        return magnitude + digits;
      case 'bin':
        return Math.ceil(magnitude * Math.log2(10)) + digits;
      case 'oct':
        return Math.ceil((magnitude * Math.log2(10)) / 3) + digits;
      case 'hex':
        return Math.ceil((magnitude * Math.log2(10)) / 4) + digits;
      case 'auto':
        return exponent >= options.lowerExp && exponent < options.upperExp ? magnitude + digits : digits;
      default:
        return digits;
    }
  };
  return exponents.reduce((total, exponent) => total + perNumber(exponent) + 2, 0);
}

function precisionCheck(option: unknown, numberOf: (value: unknown) => number): string | null {
  const precision = numberOf(numberOrField(option, 'precision', numberOf));
  return precision > MAX_FORMAT_PRECISION ? `a precision above ${MAX_FORMAT_PRECISION} digits is not supported` : null;
}

/** The option itself when it is a number (BigNumbers are objects too), else its field `key`. */
function numberOrField(option: unknown, key: string, numberOf: (value: unknown) => number): unknown {
  if (!Number.isNaN(numberOf(option))) return option;
  return typeof option === 'object' && option !== null ? (option as Record<string, unknown>)[key] : undefined;
}
