// Checks that a tool's `parameters` is a JSON schema the engine can offer and enforce: an object
// schema with named properties, valid against TOOL_PARAMETERS_META_SCHEMA (JSON Schema draft
// 2020-12, cut down to the keywords validateArguments enforces), checked by the one schema engine
// (jsonSchema.ts). A keyword the engine would not enforce is refused here, so the model is never
// shown a constraint nobody checks. Used by the config schema (a custom tool in a file, a domain's
// tools) and by the playground's tool editor (as you type, and when the tool is saved).

import { format } from '@cfworker/json-schema';
import { leafErrors, pointerKeys, resolveLocalRef, schemaErrors, SCHEMA_DRAFT_URI, valueAt } from './jsonSchema.ts';
import { formatCount } from './format.ts';

/** The JSON types a schema's `type` may name. */
export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/** The `format`s the engine checks (the library's list); any other would be shown and not checked. */
export const SCHEMA_FORMATS = Object.keys(format);

/** A tool name the OpenAI-style function format accepts. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
export const TOOL_NAME_RULE = 'must be 1 to 64 letters, digits, "_" or "-", starting with a letter or "_"';

/** Deeper nesting than this is refused: no real argument list needs it, and checking stays bounded. */
const MAX_DEPTH = 16;
/** No value in a schema (a `const`, an `enum`, a `default`) nests deeper than this. */
const MAX_JSON_DEPTH = 64;
/** The schema is shown to the model with every call it may make: a bigger one is refused. */
export const MAX_SCHEMA_CHARS = 20_000;

export interface SchemaProblem {
  /** Where in the schema, as keys from its root (empty: the root itself). */
  path: (string | number)[];
  message: string;
}

// Subschema positions, as draft 2020-12 has them: the keyword holds a schema, a list of schemas or
// named schemas.
const ONE_SCHEMA = ['items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'if', 'then', 'else'];
const SCHEMA_LIST = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_MAP = ['$defs', 'properties', 'patternProperties', 'dependentSchemas'];

const subschema = { $ref: '#/$defs/schema' };
const schemaMap = { type: 'object', additionalProperties: subschema };
const schemaList = { type: 'array', minItems: 1, items: subschema };
const count = { type: 'integer', minimum: 0 };
const names = { type: 'array', items: { type: 'string' }, uniqueItems: true };
const typeName = { enum: [...JSON_TYPES] };

/** What a tool's `parameters` (and each schema inside it) may be: draft 2020-12's meta-schema,
 * limited to the keywords the engine enforces plus annotations, local `$ref`s only, and no unknown
 * keyword. The Tools editor gives it to Monaco too, for squiggles as you type. */
export const TOOL_PARAMETERS_META_SCHEMA = {
  $schema: SCHEMA_DRAFT_URI,
  $ref: '#/$defs/schema',
  $defs: {
    schema: {
      type: ['object', 'boolean'],
      properties: {
        // Annotations: the model reads them; nothing to enforce.
        title: { type: 'string' },
        description: { type: 'string' },
        $comment: { type: 'string' },
        default: true,
        examples: { type: 'array' },
        deprecated: { type: 'boolean' },
        readOnly: { type: 'boolean' },
        writeOnly: { type: 'boolean' },
        $schema: { const: SCHEMA_DRAFT_URI },
        $defs: schemaMap,
        $ref: { type: 'string', pattern: '^#(/|$)' },
        // Any instance.
        type: { anyOf: [typeName, { type: 'array', items: typeName, minItems: 1, uniqueItems: true }] },
        enum: { type: 'array', minItems: 1 },
        const: true,
        allOf: schemaList,
        anyOf: schemaList,
        oneOf: schemaList,
        not: subschema,
        if: subschema,
        then: subschema,
        else: subschema,
        // Numbers.
        multipleOf: { type: 'number', exclusiveMinimum: 0 },
        minimum: { type: 'number' },
        maximum: { type: 'number' },
        exclusiveMinimum: { type: 'number' },
        exclusiveMaximum: { type: 'number' },
        // Strings.
        minLength: count,
        maxLength: count,
        pattern: { type: 'string', format: 'regex' },
        format: { enum: SCHEMA_FORMATS },
        // Arrays.
        items: subschema,
        prefixItems: schemaList,
        unevaluatedItems: subschema,
        contains: subschema,
        minContains: count,
        maxContains: count,
        minItems: count,
        maxItems: count,
        uniqueItems: { type: 'boolean' },
        // Objects.
        properties: schemaMap,
        patternProperties: { ...schemaMap, propertyNames: { format: 'regex' } },
        additionalProperties: subschema,
        unevaluatedProperties: subschema,
        propertyNames: subschema,
        required: names,
        dependentRequired: { type: 'object', additionalProperties: names },
        dependentSchemas: schemaMap,
        minProperties: count,
        maxProperties: count,
      },
      additionalProperties: false,
    },
  },
};

const META_KEYWORDS = new Set(Object.keys(TOOL_PARAMETERS_META_SCHEMA.$defs.schema.properties));

const COUNT_RULE = 'must be a whole number, 0 or more';
const KEYWORD_RULES: Record<string, string> = {
  ...Object.fromEntries(['title', 'description', '$comment'].map((k) => [k, 'must be a string'])),
  ...Object.fromEntries(['deprecated', 'readOnly', 'writeOnly', 'uniqueItems'].map((k) => [k, 'must be true or false'])),
  ...Object.fromEntries(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map((k) => [k, 'must be a number'])),
  ...Object.fromEntries(
    ['minLength', 'maxLength', 'minContains', 'maxContains', 'minItems', 'maxItems', 'minProperties', 'maxProperties'].map((k) => [k, COUNT_RULE]),
  ),
  ...Object.fromEntries(SCHEMA_LIST.map((k) => [k, 'must be a non-empty array of schemas'])),
  examples: 'must be an array of example values',
  $schema: `must be "${SCHEMA_DRAFT_URI}" (the one draft the engine reads), or left out`,
  $ref: 'must point inside this schema, like "#/$defs/name": a schema elsewhere is never fetched',
  enum: 'must be a non-empty array of the allowed values',
  multipleOf: 'must be a number greater than 0',
  pattern: 'must be a regular expression (JavaScript, with the "u" flag)',
  format: `must be one of the formats the engine checks: ${SCHEMA_FORMATS.join(', ')}`,
  patternProperties: 'must be an object of schemas named by regular expressions',
  required: 'must be an array of property names',
  dependentRequired: 'must map property names to arrays of property names',
};

// Keywords of other drafts, or of 2020-12 that the engine does not enforce, with what to use instead.
export const REFUSED_KEYWORDS: Record<string, string> = {
  $id: 'a schema here has no identity of its own: leave $id out',
  $anchor: 'refer with a JSON pointer instead ("$ref": "#/$defs/name")',
  $dynamicRef: 'not supported: use "$ref": "#/$defs/name"',
  $dynamicAnchor: 'not supported: use "$ref": "#/$defs/name"',
  $recursiveRef: 'not supported: use "$ref": "#/$defs/name"',
  $recursiveAnchor: 'not supported: use "$ref": "#/$defs/name"',
  $vocabulary: 'not supported: the engine reads draft 2020-12 as it is',
  definitions: 'is draft 7: use "$defs"',
  dependencies: 'is draft 7: use "dependentRequired" or "dependentSchemas"',
  additionalItems: 'is draft 7: use "prefixItems" with "items"',
  contentEncoding: 'is not enforced: describe the encoding in "description"',
  contentMediaType: 'is not enforced: describe the media type in "description"',
  contentSchema: 'is not enforced: describe the content in "description"',
};

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** How deep `value` nests, counted without recursion (a hostile file may nest thousands deep). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

const NOT_A_SCHEMA = 'must be a schema object such as {"type": "string"}';

/** Every subschema position (as its keys), walked to MAX_DEPTH; past it, a problem. */
function walk(node: unknown, path: string[], depth: number, visit: (node: unknown, path: string[]) => void, problems: SchemaProblem[]): void {
  visit(node, path);
  if (!isFields(node)) return;
  if (depth > MAX_DEPTH) {
    problems.push({ path, message: `nests deeper than ${MAX_DEPTH} levels` });
    return;
  }
  for (const key of ONE_SCHEMA) if (Object.hasOwn(node, key)) walk(node[key], [...path, key], depth + 1, visit, problems);
  for (const key of SCHEMA_LIST) {
    const list = node[key];
    if (Object.hasOwn(node, key) && Array.isArray(list)) list.forEach((child, i) => walk(child, [...path, key, String(i)], depth + 1, visit, problems));
  }
  for (const key of SCHEMA_MAP) {
    const map = node[key];
    if (Object.hasOwn(node, key) && isFields(map)) {
      for (const [name, child] of Object.entries(map)) walk(child, [...path, key, name], depth + 1, visit, problems);
    }
  }
}

function typeRule(value: unknown): string {
  const types = Array.isArray(value) ? value : [value];
  if (types.length === 0) return 'must name at least one type';
  const wrong = types.find((t) => !(JSON_TYPES as readonly unknown[]).includes(t));
  const use = `use ${JSON_TYPES.map((t) => `"${t}"`).join(', ')}`;
  if (wrong === undefined) return 'must not name a type twice';
  return `${JSON.stringify(wrong)} is not a JSON type (${use})`;
}

/** What the meta-schema's error at `keys` means, said about the keyword it concerns. */
function explain(parameters: unknown, keys: string[], nodes: Set<string>): SchemaProblem {
  let at = keys.length;
  while (at > 0 && !nodes.has(keys.slice(0, at).join('\0'))) at--;
  const node = keys.slice(0, at);
  if (at === keys.length) {
    return { path: node, message: `${NOT_A_SCHEMA}, not ${describe(valueAt(parameters, node))}` };
  }
  const keyword = keys[at] ?? '';
  const path = [...node, keyword];
  const value = valueAt(parameters, path);
  if (!META_KEYWORDS.has(keyword)) {
    const hint = Object.hasOwn(REFUSED_KEYWORDS, keyword) ? REFUSED_KEYWORDS[keyword] : undefined;
    return { path, message: hint ?? 'is not a JSON Schema keyword the engine enforces: remove it (docs/configuration.md lists those it does)' };
  }
  if (keyword === 'type') return { path, message: typeRule(value) };
  const rule = Object.hasOwn(KEYWORD_RULES, keyword) ? KEYWORD_RULES[keyword] : undefined;
  if (rule !== undefined) return { path, message: rule };
  // properties, $defs, dependentSchemas: named schemas (an error inside one names that schema).
  return { path, message: `must be an object of named schemas, not ${describe(value)}` };
}

/** Whether a regular expression repeats a group that itself repeats ("(a+)+", "(\\w*x?)*"): the
 * classic shape of catastrophic backtracking. Arguments are matched in the orchestrator's worker,
 * where nothing could stop a match that runs for minutes, so such a pattern is refused when saved.
 * A heuristic: overlapping alternatives under a repeat ("(a|a)*") are not caught. */
export function repeatsRepetition(pattern: string): boolean {
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') groups.push(false);
    else if (char === '+' || char === '*' || (char === '{' && /^\{\d+,\d*\}/.test(pattern.slice(i)) && !/^\{(\d+),\1\}/.test(pattern.slice(i)))) {
      if (groups.length > 0) groups[groups.length - 1] = true;
    } else if (char === ')') {
      const repeated = groups.pop() ?? false;
      const next = pattern.slice(i + 1);
      if (repeated && /^([+*]|\{\d+,\d*\})/.test(next)) return true;
      // A group that repeats inside makes its enclosing group repeat too.
      if (repeated && groups.length > 0) groups[groups.length - 1] = true;
    }
  }
  return false;
}

/** A `$ref` that follows only `$ref`s back to itself would never check anything. */
function refLoops(root: unknown, start: unknown): boolean {
  const seen = new Set<unknown>();
  let node = start;
  while (isFields(node) && typeof node.$ref === 'string') {
    if (seen.has(node)) return true;
    seen.add(node);
    node = resolveLocalRef(root, node.$ref);
  }
  return false;
}

/** What the engine's own rules add to the meta-schema: `$ref`s that resolve, `required` keys
 * that are declared. */
function checkNode(root: unknown, node: unknown, path: string[], problems: SchemaProblem[]): void {
  if (!isFields(node)) return;
  if (typeof node.$ref === 'string' && /^#(\/|$)/.test(node.$ref)) {
    if (resolveLocalRef(root, node.$ref) === undefined) {
      problems.push({ path: [...path, '$ref'], message: `${JSON.stringify(node.$ref)} points to nothing in this schema` });
    } else if (refLoops(root, node)) {
      problems.push({ path: [...path, '$ref'], message: `${JSON.stringify(node.$ref)} only refers back to itself` });
    }
  }
  const patterns: [string[], unknown][] = [[[...path, 'pattern'], node.pattern]];
  if (isFields(node.patternProperties)) {
    for (const key of Object.keys(node.patternProperties)) patterns.push([[...path, 'patternProperties', key], key]);
  }
  for (const [at, pattern] of patterns) {
    if (typeof pattern === 'string' && repeatsRepetition(pattern)) {
      problems.push({ path: at, message: 'repeats a group that itself repeats, like "(a+)+", which can take exponential time to match: write it without the nested repetition' });
    }
  }
  // `required` beside `properties` names declared ones (a typo would make every call fail); alone
  // (in an anyOf branch, say) it may name any.
  if (Array.isArray(node.required) && isFields(node.properties)) {
    const declared = node.properties;
    for (const key of node.required) {
      if (typeof key === 'string' && !Object.hasOwn(declared, key)) {
        problems.push({ path: [...path, 'required'], message: `names "${key}", which is not in properties` });
      }
    }
  }
}

/** The problems that keep `parameters` from being a tool's argument schema; empty when it is one. */
export function checkToolParameters(parameters: unknown): SchemaProblem[] {
  if (!isFields(parameters)) {
    return [{ path: [], message: `must be a JSON object (a schema with "type": "object"), not ${describe(parameters)}` }];
  }
  if (nestsDeeperThan(parameters, MAX_JSON_DEPTH)) {
    return [{ path: [], message: `nests deeper than ${MAX_JSON_DEPTH} levels` }];
  }
  const size = JSON.stringify(parameters).length;
  if (size > MAX_SCHEMA_CHARS) {
    return [{ path: [], message: `is ${formatCount(size)} characters long; a tool's schema may be at most ${formatCount(MAX_SCHEMA_CHARS)}` }];
  }
  const problems: SchemaProblem[] = [];
  if (parameters.type !== 'object') {
    problems.push({ path: ['type'], message: 'must be "object": a tool takes its arguments by name' });
  }
  if (!('properties' in parameters)) {
    problems.push({ path: ['properties'], message: 'is missing: list each argument, e.g. {"city": {"type": "string"}}' });
  }
  const nodes = new Set<string>();
  const depthProblems: SchemaProblem[] = [];
  walk(parameters, [], 0, (_node, path) => nodes.add(path.join('\0')), depthProblems);
  // Too deep: said alone, before the library (which recurses) ever sees the schema.
  if (depthProblems.length > 0) return [...problems, ...depthProblems];

  const seen = new Set<string>();
  for (const error of leafErrors(schemaErrors(TOOL_PARAMETERS_META_SCHEMA, parameters))) {
    const problem = explain(parameters, pointerKeys(error.instanceLocation), nodes);
    const key = `${problem.path.join('\0')}\n${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  walk(parameters, [], 0, (node, path) => checkNode(parameters, node, path, problems), []);
  return problems.map((problem) => ({ ...problem, path: problem.path.map((key, i) => (Array.isArray(valueAt(parameters, problem.path.slice(0, i).map(String))) ? Number(key) : key)) }));
}

/** A problem as one line: "properties.city.type: … ". */
export function formatSchemaProblem(problem: SchemaProblem): string {
  return problem.path.length === 0 ? `The schema ${problem.message}` : `${problem.path.join('.')}: ${problem.message}`;
}
