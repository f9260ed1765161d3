import { describe, expect, it } from 'vitest';
import { CalculatorError, loadCalculator, MAX_RESULT_CHARS } from './calculator.ts';

// The calculator itself, in this process; calculatorTool.test.ts drives it as the tool does, in
// its worker thread with a deadline.
const calculator = await loadCalculator();

async function expectResult(expression: string, result: string) {
  expect(calculator.calculate(expression).result, expression).toBe(result);
}

async function expectRefusal(expression: string, message: RegExp) {
  const startedAt = performance.now();
  let thrown: unknown = null;
  try {
    calculator.calculate(expression);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, expression).toBeInstanceOf(CalculatorError);
  expect((thrown as Error).message, expression).toMatch(message);
  // Refused before doing the costly work.
  expect(performance.now() - startedAt, expression).toBeLessThan(1_000);
}

/** What the calculator must answer, by what the answers show. */
const results: [why: string, cases: [expression: string, result: string][]][] = [
  [
    'computes decimals exactly',
    [
      ['0.1 + 0.2', '0.3'],
      ['0.1 * 3 == 0.3', 'true'],
      ['1 / 3', '0.' + '3'.repeat(64)],
    ],
  ],
  [
    'keeps big integers whole up to 64 digits',
    [
      ['2^200', '1606938044258990275541962092341162602522202993782792835301376'],
      ['30!', '265252859812191058636308480000000'],
      ['2^300', '2.037035976334486086268445688409378161051468393665936250636140449e+90'],
    ],
  ],
  [
    'evaluates functions and constants with 64 significant digits',
    [
      ['sqrt(2)', '1.414213562373095048801688724209698078569671875376948073176679738'],
      ['pi', '3.141592653589793238462643383279502884197169399375105820974944592'],
      ['sin(pi / 6)', '0.5'],
      ['gcd(2^100, 6^50)', '1125899906842624'],
    ],
  ],
  [
    'converts units',
    [
      ['5 km to mile', '3.106855961186669848087170921816591107929690606855961186669848087 mile'],
      ['1 inch to cm', '2.54 cm'],
      ['3 kg * 9.81 m/s^2', '29.43 N'],
    ],
  ],
  [
    'handles matrices, variables and several statements',
    [
      ['det([1, 2; 3, 4])', '-2'],
      ['r = 2; pi * r^2', '12.56637061435917295385057353311801153678867759750042328389977837'],
      ['a = 2\nb = a * 3', '2\n6'],
      // Expressions keep their own (inclusive, 1-based) meaning of ranges and indices.
      ['sum(1:100)', '5050'],
      ['range(1, 5)', '[1, 2, 3, 4, 5]'],
      ['[10, 20, 30][2]', '20'],
    ],
  ],
  [
    'still computes within the caps',
    [
      ['combinations(100, 50)', '100891344545564193334812497256'],
      ['size(zeros(20, 20))', '[20, 20]'],
      ['format(pi, 10)', '"3.141592654"'],
    ],
  ],
  [
    'still multiplies, broadcasts and indexes within the caps',
    [
      ['A = [1:10000]; A * transpose(A)', '[[333383335000]]'],
      ['size(ones(20, 20) * ones(20, 20))', '[20, 20]'],
      ['[1, 2; 3, 4] * [5; 6]', '[[17], [39]]'],
      ['[1:3] + transpose([1:3])', '[[2, 3, 4], [3, 4, 5], [4, 5, 6]]'],
      ['sum([1:10000] * 2 + 1)', '100020000'],
      ['A = [1:10000]; A[1, 10000]', '10000'],
      ['size(reshape([1:6], [2, 3]))', '[2, 3]'],
    ],
  ],
  [
    'still does set work, formatting and exact powers within the caps',
    [
      ['setIntersect([1, 2, 3, 4], [3, 4, 5])', '[3, 4]'],
      ['setSize(setPowerset(1:10))', '5120'],
      ['size(setCartesian(1:100, 1:50))', '[5000, 2]'],
      ['setSize(setUnion(1:200, 101:300))', '300'],
      ['format(1/3, {notation: "fixed", precision: 5})', '"0.33333"'],
      ['hex(255)', '"0xff"'],
      ['string(10^(10^8))', '"1e+100000000"'],
      ['bigint(2)^bigint(100)', '1267650600228229401496703205376'],
    ],
  ],
];

/** What it must refuse, and the message that says why. */
const refusals: [why: string, cases: [expression: string, message: RegExp][]][] = [
  [
    'answers bad input with a clear error observation',
    [
      ['2 + ', /Unexpected end of expression \(char 5\)/],
      ['5 km + 3 kg', /Units do not match/],
      ['foo(3)', /Undefined function foo/],
      ['x = 1;', /no result: every statement ends with a semicolon/],
      ['sqrt', /the result is the function sqrt; call it with arguments/],
      ['1'.repeat(2_001), /2001 characters long; the limit is 2000/],
    ],
  ],
  [
    'refuses matrix products, broadcasts, concatenations and index assignments that would outgrow the caps',
    [
      ['A = [1:10000]; transpose(A) * A', /multiply: multiplying a 10000 × 1 by a 1 × 10000 matrix takes 100000000 steps; the limit is 10000/],
      ['[1:10000] + transpose([1:10000])', /add: that would make a matrix of 100000000 elements; the limit is 400/],
      ['[1:10000] .* transpose([1:10000])', /dotMultiply: that would make a matrix/],
      ['[1:10000] == transpose([1:10000])', /equal: that would make a matrix/],
      ['A = [1:3000]; concat(A, A, A, A)', /concat: that would make a matrix of 12000 elements/],
      ['A = [1]; A[10000, 10000] = 1', /index: an index reaching 100000000 elements is past the limit of 10000/],
      ['reshape([1:6], [100, 200])', /reshape: that would make a matrix of 20000 elements/],
    ],
  ],
  [
    'refuses a result longer than the cap and says how long it was',
    [
      ['setCartesian(1:100, 1:100)', new RegExp(`the result is 98400 characters long; the limit is ${MAX_RESULT_CHARS}\\. Ask for less`)],
      ['setPowerset(1:12)', /the result is 88066 characters long/],
    ],
  ],
];

describe('calculator', () => {
  it('keeps nothing between calls', async () => {
    await expectResult('x = 5', '5');
    await expectRefusal('x + 1', /Undefined symbol x/);
  });

  it.each([
    'import({ pi: 3 }, { override: true })',
    'createUnit("smoot", "1.7018 m")',
    'evaluate("1 + 1")',
    'parse("1 + 1")',
    'compile("1 + 1")',
    'simplify("x + x")',
    'derivative("x^2", "x")',
    'resolve(parse("x"))',
    'config({ number: "number" })',
    'f = config',
    'parser()',
    'help(sqrt)',
  ])('disables %s', async (expression) => {
    await expectRefusal(expression, /is disabled in this calculator/);
  });

  it('cannot be reconfigured by an expression', async () => {
    await expectRefusal('config({ number: "number", precision: 4 })', /config is disabled/);
    await expectResult('0.1 + 0.2', '0.3');
    await expectResult('pi', '3.141592653589793238462643383279502884197169399375105820974944592');
  });

  it('refuses function definitions, the only way to write a loop', async () => {
    await expectRefusal('f(n) = n < 1 ? 0 : f(n - 1) + f(n - 1); f(40)', /defining functions is not supported/);
  });

  it.each([
    ['zeros(1e5, 1e5)', /zeros: that would make a matrix of 10000000000 elements; the limit is 400/],
    ['ones([1000, 1000])', /ones: that would make a matrix of 1000000 elements/],
    ['identity(1e4)', /identity: that would make a matrix of 100000000 elements/],
    ['1:1e9', /range: that would make a vector of 1000000000 elements; the limit is 10000/],
    ['range("1:1e9")', /write the range as start:end/],
    ['random([1e6])', /random: that would make a vector of 1000000 elements/],
    ['resize([1], [1e4, 1e4])', /resize: that would make a matrix/],
    ['diag(1:1000)', /diag: that would make a matrix of 1000000 elements/],
    ['kron(ones(20, 20), ones(20, 20))', /kron: that would make a matrix of 160000 elements/],
    ['factorial(1e6)', /factorial: arguments above 10000 are too costly/],
    ['100000!', /factorial: arguments above 10000 are too costly/],
    ['combinations(1e5, 5)', /combinations: arguments above 10000/],
    ['stirlingS2(1000, 500)', /stirlingS2: arguments above 200/],
    ['isPrime(2^89 - 1)', /isPrime: arguments above 2\^64/],
    ['sqrtm(ones(20, 20) + identity(20))', /sqrtm: a matrix of 400 elements is too costly here/],
    ['format(pi, 1e9)', /format: a precision above 1000 digits/],
    ['format(pi, { precision: 1e9 })', /format: a precision above 1000 digits/],
  ])('refuses %s before doing the work', async (expression, message) => {
    await expectRefusal(expression, message);
  });

  it('loads mathjs once and shares the locked-down instance', async () => {
    expect(await loadCalculator()).toBe(await loadCalculator());
  });

  // Issue 8: these ran past the tool's deadline, crashed the tab or wrote without end.
  it.each([
    ['setPowerset(1:19)', /setPowerset: that would make 524288 subsets; the limit is 4096/],
    ['setCartesian(1:10000, 1:10000)', /setCartesian: that would make 100000000 pairs; the limit is 10000/],
    ['format(10^(10^8), {notation: "fixed"})', /format: that would write about 10000007\d characters; the limit is 65536/],
    ['format(10^(-10^8), {lowerExp: -1e9})', /format: that would write about 1000000\d\d characters/],
    ['format(10^(10^8), {upperExp: 1e9})', /format: that would write about/],
    ['format(1:100, {notation: "fixed", precision: 1000})', /format: that would write about 101\d{3} characters/],
    ['print("$a", {a: 10^(10^8)}, {notation: "fixed"})', /print: that would write about/],
    ['hex(10^(10^8))', /hex: that would write about 83048\d{3} characters/],
    ['bin(10^(10^5))', /bin: that would write about/],
    ['setIntersect(1:2000, 1:2000)', /setIntersect: comparing a set of 2000 with one of 2000 elements takes 4000000 comparisons; the limit is 40000/],
    ['setUnion(1:1000, 1:1000)', /setUnion: comparing/],
    ['setDifference(1:1000, 1:1000)', /setDifference: comparing/],
    ['setSymDifference(1:1000, 1:1000)', /setSymDifference: comparing/],
    ['setIsSubset(1:1000, 1:1000)', /setIsSubset: comparing/],
    ['bigint(3)^bigint(10^7)', /pow: an exact result of about 4771213 digits is past the limit of 100000/],
    ['fraction(3)^fraction(2*10^6)', /pow: an exact result of about 954243 digits/],
  ])('refuses %s before doing the work', async (expression, message) => {
    await expectRefusal(expression, message);
  });

});

describe.each(results)('calculator %s', (_why, cases) => {
  it.each(cases)('%s = %s', expectResult);
});

describe.each(refusals)('calculator %s', (_why, cases) => {
  it.each(cases)('refuses %s', expectRefusal);
});
