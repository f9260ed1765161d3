// Every keyword a tool's `parameters` may hold is either enforced when the tool is called or
// refused when the tool is saved: one row per keyword of the engine's meta-schema, each row's
// schema accepted by checkToolParameters, a value that fits and one that does not (and what the
// model is told about it). A keyword added to the meta-schema without a row here fails the test.

import { describe, expect, it } from 'vitest';
import { checkToolParameters, formatSchemaProblem, REFUSED_KEYWORDS, repeatsRepetition, TOOL_PARAMETERS_META_SCHEMA } from './toolSchema.ts';
import { validateArguments } from './validateArguments.ts';

interface Enforced {
  /** The schema of the one argument `x` (`$defs` rows use the root: see `root`). */
  schema: Record<string, unknown>;
  /** Extra keys at the root of the parameters, beside `properties`. */
  root?: Record<string, unknown>;
  good: unknown;
  bad: unknown;
  told: string;
}

const ENFORCED: Record<string, Enforced> = {
  type: { schema: { type: ['integer', 'null'] }, good: null, bad: 1.5, told: 'arguments.x must be integer or null, got number' },
  enum: { schema: { enum: ['C', 'F'] }, good: 'C', bad: 'K', told: 'arguments.x must be one of "C", "F"' },
  const: { schema: { const: 'yes' }, good: 'yes', bad: 'no', told: 'arguments.x must be "yes"' },
  multipleOf: { schema: { multipleOf: 0.5 }, good: 1.5, bad: 1.2, told: 'arguments.x must be a multiple of 0.5, got 1.2' },
  minimum: { schema: { minimum: 1 }, good: 1, bad: 0, told: 'arguments.x must be at least 1, got 0' },
  maximum: { schema: { maximum: 10 }, good: 10, bad: 11, told: 'arguments.x must be at most 10, got 11' },
  exclusiveMinimum: { schema: { exclusiveMinimum: 0 }, good: 0.1, bad: 0, told: 'arguments.x must be greater than 0, got 0' },
  exclusiveMaximum: { schema: { exclusiveMaximum: 1 }, good: 0.9, bad: 1, told: 'arguments.x must be less than 1, got 1' },
  minLength: { schema: { minLength: 2 }, good: 'ab', bad: 'a', told: 'arguments.x must be at least 2 characters long' },
  maxLength: { schema: { maxLength: 2 }, good: 'ab', bad: 'abc', told: 'arguments.x must be at most 2 characters long' },
  pattern: { schema: { pattern: '^[A-Z]{3}$' }, good: 'EUR', bad: 'eur', told: 'arguments.x must match the pattern "^[A-Z]{3}$"' },
  format: { schema: { format: 'date' }, good: '2026-02-28', bad: '2026-02-30', told: 'arguments.x must be a valid "date"' },
  items: { schema: { items: { type: 'string' } }, good: ['a'], bad: ['a', 2], told: 'arguments.x[1] must be string, got integer' },
  prefixItems: {
    schema: { prefixItems: [{ type: 'number' }, { type: 'string' }], items: false },
    good: [1, 'a'],
    bad: [1, 'a', true],
    told: 'arguments.x[2] is not allowed',
  },
  unevaluatedItems: {
    schema: { prefixItems: [{ type: 'number' }], unevaluatedItems: false },
    good: [1],
    bad: [1, 2],
    told: 'arguments.x[1] is not allowed',
  },
  contains: { schema: { contains: { const: 'me' } }, good: ['a', 'me'], bad: ['a'], told: 'arguments.x must hold an item that matches the schema in "contains"' },
  minContains: {
    schema: { contains: { const: 'me' }, minContains: 2 },
    good: ['me', 'me'],
    bad: ['me'],
    told: 'arguments.x must hold at least 2 items that match the schema in "contains"',
  },
  maxContains: {
    schema: { contains: { const: 'me' }, maxContains: 1 },
    good: ['me'],
    bad: ['me', 'me'],
    told: 'arguments.x must hold at most 1 items that match the schema in "contains"',
  },
  minItems: { schema: { minItems: 1 }, good: [1], bad: [], told: 'arguments.x must have at least 1 items' },
  maxItems: { schema: { maxItems: 1 }, good: [1], bad: [1, 2], told: 'arguments.x must have at most 1 items' },
  uniqueItems: { schema: { uniqueItems: true }, good: [1, 2], bad: [1, 1], told: 'arguments.x: Duplicate items at indexes 0 and 1.' },
  properties: { schema: { properties: { n: { type: 'number' } } }, good: { n: 1 }, bad: { n: '1' }, told: 'arguments.x.n must be number, got string' },
  patternProperties: {
    schema: { patternProperties: { '^n_': { type: 'number' } } },
    good: { n_a: 1 },
    bad: { n_a: 'one' },
    told: 'arguments.x.n_a must be number, got string',
  },
  additionalProperties: {
    schema: { properties: { a: {} }, additionalProperties: false },
    good: { a: 1 },
    bad: { a: 1, b: 2 },
    told: 'arguments.x.b is not an allowed argument',
  },
  unevaluatedProperties: {
    schema: { allOf: [{ properties: { a: {} } }], unevaluatedProperties: false },
    good: { a: 1 },
    bad: { a: 1, b: 2 },
    told: 'arguments.x.b is not an allowed argument',
  },
  propertyNames: { schema: { propertyNames: { maxLength: 3 } }, good: { abc: 1 }, bad: { abcd: 1 }, told: 'arguments.x: Property name "abcd" does not match schema.' },
  required: { schema: { properties: { a: {} }, required: ['a'] }, good: { a: 1 }, bad: {}, told: 'arguments.x.a is required' },
  dependentRequired: {
    schema: { dependentRequired: { card: ['expiry'] } },
    good: { card: 1, expiry: 2 },
    bad: { card: 1 },
    told: 'arguments.x: Instance has "card" but does not have "expiry".',
  },
  dependentSchemas: {
    schema: { dependentSchemas: { card: { required: ['expiry'] } } },
    good: { card: 1, expiry: 2 },
    bad: { card: 1 },
    told: 'arguments.x.expiry is required',
  },
  minProperties: { schema: { minProperties: 1 }, good: { a: 1 }, bad: {}, told: 'arguments.x must have at least 1 properties' },
  maxProperties: { schema: { maxProperties: 1 }, good: { a: 1 }, bad: { a: 1, b: 2 }, told: 'arguments.x must have at most 1 properties' },
  allOf: { schema: { allOf: [{ type: 'number' }, { minimum: 3 }] }, good: 3, bad: 2, told: 'arguments.x must be at least 3, got 2' },
  anyOf: { schema: { anyOf: [{ type: 'string' }, { type: 'number' }] }, good: 1, bad: true, told: 'arguments.x must match at least one of the schemas in anyOf' },
  oneOf: {
    schema: { oneOf: [{ type: 'integer' }, { type: 'number' }] },
    good: 1.5,
    bad: 2,
    told: 'arguments.x must match exactly one of the schemas in oneOf, matched 2',
  },
  not: { schema: { not: { const: 0 } }, good: 1, bad: 0, told: 'arguments.x must not match the schema in "not"' },
  if: {
    schema: { if: { type: 'string' }, then: { minLength: 3 }, else: { type: 'number' } },
    good: 'abc',
    bad: 'ab',
    told: 'arguments.x must be at least 3 characters long',
  },
  then: { schema: { if: { minimum: 10 }, then: { multipleOf: 10 } }, good: 20, bad: 15, told: 'arguments.x must be a multiple of 10, got 15' },
  else: { schema: { if: { type: 'string' }, else: { type: 'number' } }, good: 1, bad: true, told: 'arguments.x must be number, got boolean' },
  $ref: {
    schema: { $ref: '#/$defs/positive' },
    root: { $defs: { positive: { type: 'number', exclusiveMinimum: 0 } } },
    good: 1,
    bad: -1,
    told: 'arguments.x must be greater than 0, got -1',
  },
  $defs: {
    schema: { $ref: '#/$defs/tag' },
    root: { $defs: { tag: { type: 'string', maxLength: 8 } } },
    good: 'short',
    bad: 'much too long',
    told: 'arguments.x must be at most 8 characters long',
  },
};

/** Read by the model (or by authors), with no constraint to enforce. */
const ANNOTATIONS: Record<string, unknown> = {
  title: 'Amount',
  description: 'How much.',
  $comment: 'for authors',
  default: 1,
  examples: [1, 2],
  deprecated: false,
  readOnly: false,
  writeOnly: false,
  $schema: 'https://json-schema.org/draft/2020-12/schema',
};

const parametersFor = (row: Enforced) => ({ type: 'object', properties: { x: row.schema }, required: ['x'], ...row.root });
const lines = (value: unknown) => checkToolParameters(value).map(formatSchemaProblem);

describe('every keyword of the meta-schema', () => {
  const keywords = Object.keys(TOOL_PARAMETERS_META_SCHEMA.$defs.schema.properties);

  it('has a row here: enforced, or an annotation', () => {
    expect(keywords.filter((k) => !(k in ENFORCED) && !(k in ANNOTATIONS))).toEqual([]);
    expect([...Object.keys(ENFORCED), ...Object.keys(ANNOTATIONS)].filter((k) => !keywords.includes(k))).toEqual([]);
  });

  it.each(Object.entries(ENFORCED))('%s is accepted when saved and enforced when called', (_keyword, row) => {
    const parameters = parametersFor(row);
    expect(lines(parameters)).toEqual([]);
    expect(validateArguments({ x: row.good }, parameters)).toEqual([]);
    expect(validateArguments({ x: row.bad }, parameters)).toEqual([row.told]);
  });

  it.each(Object.entries(ANNOTATIONS))('%s is accepted and constrains nothing', (keyword, value) => {
    const parameters = { type: 'object', properties: { x: { [keyword]: value } } };
    expect(lines(parameters)).toEqual([]);
    expect(validateArguments({ x: 'anything' }, parameters)).toEqual([]);
  });
});

describe('what the engine would not enforce is refused when the tool is saved', () => {
  const refused = [...Object.keys(REFUSED_KEYWORDS), 'maxLenght', 'x-internal', 'nullable', 'discriminator', 'optional'];

  it.each(refused)('%s', (keyword) => {
    const problems = lines({ type: 'object', properties: { x: { type: 'string', [keyword]: {} } } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^properties\\.x\\.${keyword.replace('$', '\\$')}: `));
  });

  it('an unknown format (it would be shown to the model and never checked)', () => {
    expect(lines({ type: 'object', properties: { x: { type: 'string', format: 'colour' } } })).toEqual([
      expect.stringMatching(/^properties\.x\.format: must be one of the formats the engine checks: date, time, /),
    ]);
  });

  it('a pattern that repeats a repetition (catastrophic backtracking in the orchestrator\'s worker)', () => {
    for (const pattern of ['^(a+)+$', '(\\w*\\s?)*x', '((ab)+)*', '(x(y{1,})z){2,}', '^(?:[a-z]+,?)+$']) {
      expect(repeatsRepetition(pattern), pattern).toBe(true);
    }
    for (const pattern of ['^[A-Z]{3}$', '^(\\d{3}-)*\\d{4}$', '(ab)+', '[(a+)]+', '\\(a+\\)+', '^(a|b)?c*$']) {
      expect(repeatsRepetition(pattern), pattern).toBe(false);
    }
    expect(lines({ type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } }, patternProperties: { '(b*)*': {} } })).toEqual([
      'patternProperties.(b*)*: repeats a group that itself repeats, like "(a+)+", which can take exponential time to match: write it without the nested repetition',
      'properties.x.pattern: repeats a group that itself repeats, like "(a+)+", which can take exponential time to match: write it without the nested repetition',
    ]);
  });

  it('another draft named in $schema', () => {
    expect(lines({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} })).toEqual([
      '$schema: must be "https://json-schema.org/draft/2020-12/schema" (the one draft the engine reads), or left out',
    ]);
  });
});

describe('$ref', () => {
  it('a remote $ref is refused when saved, and never fetched when called', () => {
    const remote = { type: 'object', properties: { x: { $ref: 'http://127.0.0.1:9/schema.json' } } };
    expect(lines(remote)).toEqual([
      'properties.x.$ref: must point inside this schema, like "#/$defs/name": a schema elsewhere is never fetched',
    ]);
    // A schema that skipped the save check (built by hand): the call is refused, nothing is fetched.
    expect(validateArguments({ x: 1 }, remote)).toEqual([
      expect.stringMatching(/^the tool's parameters schema cannot be checked: Unresolved \$ref "http:\/\/127\.0\.0\.1:9\/schema\.json"\./),
    ]);
  });

  it('a local $ref must point at something, and not only at itself', () => {
    expect(
      lines({ type: 'object', properties: { a: { $ref: '#/$defs/nothing' }, b: { $ref: '#/properties/b' } } }),
    ).toEqual([
      'properties.a.$ref: "#/$defs/nothing" points to nothing in this schema',
      'properties.b.$ref: "#/properties/b" only refers back to itself',
    ]);
  });

  it('a recursive schema (a tree) is fine: each step consumes the arguments', () => {
    const tree = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name'] } },
      properties: { root: { $ref: '#/$defs/node' } },
    };
    expect(lines(tree)).toEqual([]);
    expect(validateArguments({ root: { name: 'a', children: [{ name: 'b', children: [{}] }] } }, tree)).toEqual([
      'arguments.root.children[0].children[0].name is required',
    ]);
  });
});

describe('limits', () => {
  it('refuses a schema past its size limit before checking it', () => {
    const big = { type: 'object', properties: { x: { type: 'string', description: 'x'.repeat(20_000) } } };
    expect(lines(big)).toEqual(['The schema is 20,071 characters long; a tool\'s schema may be at most 20,000']);
  });

  it('refuses a value nested past its limit anywhere (a const, an enum), without recursing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(lines({ type: 'object', properties: { x: { const: deep } } })).toEqual(['The schema nests deeper than 64 levels']);
  });

  it('lists at most 8 problems, each of bounded length', () => {
    const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`a${i}`, { type: 'string' }]));
    const parameters = { type: 'object', properties, required: Object.keys(properties) };
    const problems = validateArguments({}, parameters);
    expect(problems).toHaveLength(9);
    expect(problems[8]).toBe('and 4 more problems');
    const long = validateArguments({ x: 'no' }, { type: 'object', properties: { x: { enum: Array.from({ length: 200 }, (_, i) => `option-${i}`) } } });
    expect(long).toEqual([expect.stringMatching(/^arguments\.x must be one of "option-0", .*…$/)]);
    expect(long[0]?.length).toBe(300);
  });
});
