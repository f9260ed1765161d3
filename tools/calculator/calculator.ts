// The `calculator` tool: mathjs with 64-digit BigNumbers and units ("0.1 + 0.2" is exactly 0.3,
// "5 km to mile", "2^200" in full). mathjs is imported on first use, so it stays out of the app's
// first-load bundle. Expressions cannot change the calculator (import, createUnit, config are
// disabled, as are the parsers mathjs's security notes name) and cannot run for long: user
// functions are refused (no recursion, hence no loops) and the few built-ins whose cost grows
// with an argument (matrix sizes, factorials and the like) refuse arguments past a cap.

import type { MathJsInstance, MathNode } from 'mathjs';
import type { Tool, ToolOutput } from '../../workers/engine/types.ts';

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

export interface Calculation {
  expression: string;
  /** The result as text: numbers to 64 significant digits, units with their unit. */
  result: string;
  /** mathjs's name for the result's type: BigNumber, Unit, Complex, DenseMatrix… */
  type: string;
}

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

export function createCalculatorTool(): Tool {
  return {
    name: 'calculator',
    description:
      'Evaluate a math expression exactly, with 64 significant digits (0.1 + 0.2 is 0.3). Supports units ' +
      '("5 km to mile", "3 kg * 9.81 m/s^2"), big integers ("2^200", "30!"), functions (sqrt, log, sin, ' +
      'gcd, mean…), matrices ("det([1, 2; 3, 4])") and variables within one expression ("r = 2; pi * r^2").',
    parameters: {
      type: 'object',
      properties: { expression: { type: 'string', description: 'A mathjs expression, e.g. "sqrt(2) * 5 km to m".' } },
      required: ['expression'],
    },
    async run(args): Promise<ToolOutput> {
      const expression = args.expression;
      if (typeof expression !== 'string' || expression.trim() === '') {
        return { content: 'The `expression` argument must be a non-empty string.', isError: true, costUsd: 0 };
      }
      let calculator: Calculator;
      try {
        calculator = await loadCalculator();
      } catch (error) {
        return { content: `The calculator could not load: ${messageOf(error)}`, isError: true, costUsd: 0 };
      }
      try {
        const calculation = calculator.calculate(expression);
        return { content: calculation.result, detail: calculation, costUsd: 0, isError: false };
      } catch (error) {
        const message = messageOf(error);
        return {
          content: `Could not evaluate "${expression}": ${message}`,
          detail: { expression, error: message },
          isError: true,
          costUsd: 0,
        };
      }
    },
  };
}

/** Locks down a fresh mathjs instance and wraps it as a Calculator. */
export function buildCalculator(math: MathJsInstance): Calculator {
  // Taken before the overrides below, which would otherwise reach them through mathjs's lazy factories.
  const evaluate = math.evaluate;
  const parse = math.parse;
  const format = math.format;
  const typeOf = math.typeOf;
  const sizes = createSizeReader(math);
  const disabled = new Set<string>(DISABLED_FUNCTIONS);

  const overrides: Record<string, (...args: unknown[]) => unknown> = {};
  // `config` stays: mathjs's lazy factories read it, and replacing it silently turns the constants
  // (pi, e) into plain floats. Expressions cannot reach it anyway (see the check in calculate).
  for (const name of DISABLED_FUNCTIONS.filter((name) => name !== 'config')) {
    overrides[name] = () => {
      throw new CalculatorError(`${name} is disabled in this calculator`);
    };
  }
  // Expressions call a function's transform where it has one (range's includes its end). mathjs
  // imports a function's `transform` property as that transform, so both keep their meaning.
  const transforms = (math as unknown as { expression: { transform: FunctionTable } }).expression.transform;
  for (const [name, check] of Object.entries(argumentChecks(sizes))) {
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

  const formatValue = (value: unknown): string => {
    if (typeof value === 'function') {
      throw new CalculatorError(`the result is the function ${value.name || ''}; call it with arguments`);
    }
    return format(value, { precision: PRECISION_DIGITS, lowerExp: -9, upperExp: PRECISION_DIGITS });
  };

  return {
    calculate(expression) {
      if (expression.length > MAX_EXPRESSION_CHARS) {
        throw new CalculatorError(`the expression is ${expression.length} characters long; the limit is ${MAX_EXPRESSION_CHARS}`);
      }
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
      let value: unknown;
      try {
        value = evaluate(expression);
      } catch (error) {
        throw error instanceof CalculatorError ? error : new CalculatorError(messageOf(error));
      }
      if (math.isResultSet(value)) {
        const entries = (value as { entries: unknown[] }).entries;
        if (entries.length === 0) throw new CalculatorError('there is no result: every statement ends with a semicolon');
        return { expression, result: entries.map(formatValue).join('\n'), type: typeOf(entries[entries.length - 1]) };
      }
      if (value === undefined) throw new CalculatorError('there is no result');
      return { expression, result: formatValue(value), type: typeOf(value) };
    },
  };
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
}

function createSizeReader(math: MathJsInstance): SizeReader {
  const { number, flatten, isCollection, isMatrix, size, typeOf } = math;
  const numericTypes = new Set(['number', 'BigNumber', 'Fraction', 'bigint']);
  const numberOf = (value: unknown): number => (numericTypes.has(typeOf(value)) ? Number(number(value as number)) : NaN);
  const elementsOf = (value: unknown): unknown[] => {
    const flat = flatten(value as number[]) as unknown;
    return isMatrix(flat) ? (flat.toArray() as unknown[]) : (flat as unknown[]);
  };
  return {
    isCollection: (value) => isCollection(value),
    numberOf,
    dimensionsOf: (value) => (isCollection(value) ? elementsOf(size(value as number[])).map(numberOf) : []),
    numbersIn: (value) => (isCollection(value) ? elementsOf(value).map(numberOf) : [numberOf(value)]),
  };
}

type ArgumentCheck = (args: unknown[]) => string | null;

/** Checks for the built-ins whose time or memory grows with an argument. */
function argumentChecks({ isCollection, numberOf, dimensionsOf, numbersIn }: SizeReader): Record<string, ArgumentCheck> {
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
  const broadcast: ArgumentCheck = (args) => {
    const shapes = args.filter(isCollection).map(dimensionsOf);
    if (shapes.length < 2) return null;
    const rank = Math.max(...shapes.map((shape) => shape.length));
    const padded = shapes.map((shape) => [...Array<number>(rank - shape.length).fill(1), ...shape]);
    return grows(Array.from({ length: rank }, (_, axis) => Math.max(...padded.map((shape) => shape[axis] ?? 1))), shapes);
  };
  const multiply: ArgumentCheck = (args) => {
    const [first = [], ...rest] = args.map(dimensionsOf);
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
  const concat: ArgumentCheck = (args) => {
    const shapes = args.filter(isCollection).map(dimensionsOf);
    const total = shapes.reduce((sum, shape) => sum + product(shape), 0);
    return grows([total, ...Array<number>(Math.max(0, ...shapes.map((shape) => shape.length)) - 1).fill(1)], shapes);
  };
  const atMost = (limit: number, label = String(limit)) => (args: unknown[]) => {
    const largest = Math.max(...args.flatMap(numbersIn));
    return largest > limit ? `arguments above ${label} are too costly for this calculator` : null;
  };
  const sizedByFirst: ArgumentCheck = (args) => (isCollection(args[0]) ? sizeListCheck(args.slice(0, 1)) : null);
  const combinatoric = atMost(MAX_COMBINATORIC_ARGUMENT);
  const iterativeMatrix: ArgumentCheck = (args) => {
    const count = elementCount(args[0]);
    return count > MAX_ITERATIVE_MATRIX_ELEMENTS
      ? `a matrix of ${count} elements is too costly here; the limit is ${MAX_ITERATIVE_MATRIX_ELEMENTS} (10 × 10)`
      : null;
  };

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
    multiply,
    concat,
    // An index reaching far out grows the matrix it assigns to (`A[10000, 10000] = 1`).
    index: (args) => {
      const reach = product(args.map((range) => Math.max(0, ...numbersIn(range))));
      return reach > MAX_VECTOR_ELEMENTS ? `an index reaching ${reach} elements is past the limit of ${MAX_VECTOR_ELEMENTS}` : null;
    },
    reshape: (args) => grows(sizeList(args.slice(1, 2)), [dimensionsOf(args[0])]),
    ...Object.fromEntries(BROADCASTING_FUNCTIONS.map((name) => [name, broadcast])),
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
    format: (args) => precisionCheck(args[1], numberOf),
    print: (args) => precisionCheck(args[2], numberOf),
  };
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
