// Checks a call's arguments against the tool's JSON schema before the tool runs, so that a bad
// call becomes an observation the model can correct instead of an exception inside the tool.
// Every keyword a tool's schema may hold (toolSchema.ts refuses the rest when the tool is saved)
// is enforced, by the one schema engine (jsonSchema.ts); this file turns its findings into lines a
// model reads ("arguments.days must be at most 10, got 12"), a bounded number of bounded lines.

import { leafErrors, pointerKeys, schemaErrors, schemaValueAt, valueAt, type OutputUnit } from './jsonSchema.ts';
import type { JsonSchema } from './types.ts';

/** At most this many problems are listed (the rest are counted), each at most LINE_CHARS long. */
export const MAX_ARGUMENT_PROBLEMS = 8;
const LINE_CHARS = 300;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** "arguments.where.lat", "arguments.tags[1]". */
function argumentPath(args: unknown, keys: readonly string[]): string {
  let path = 'arguments';
  let node = args;
  for (const key of keys) {
    path += Array.isArray(node) ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    node = valueAt(node, [key]);
  }
  return path;
}

const json = (value: unknown) => JSON.stringify(value) ?? String(value);
const quotedIn = (message: string) => /"((?:[^"\\]|\\.)*)"/.exec(message)?.[1] ?? '?';

function describe(error: OutputUnit, args: unknown, schema: JsonSchema): string {
  const keys = pointerKeys(error.instanceLocation);
  const path = argumentPath(args, keys);
  const value = valueAt(args, keys);
  const rule = schemaValueAt(schema, error.keywordLocation);
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(rule) ? rule : [rule];
      return `${path} must be ${types.join(' or ')}, got ${typeOf(value)}`;
    }
    case 'enum':
      return `${path} must be one of ${(Array.isArray(rule) ? rule : []).map(json).join(', ')}`;
    case 'const':
      return `${path} must be ${json(rule)}`;
    case 'required':
      return `${argumentPath(args, [...keys, quotedIn(error.error)])} is required`;
    case 'false':
      return /(additional|unevaluated)Properties\/false$/.test(error.keywordLocation)
        ? `${path} is not an allowed argument`
        : `${path} is not allowed`;
    case 'minimum':
      return `${path} must be at least ${json(rule)}, got ${json(value)}`;
    case 'maximum':
      return `${path} must be at most ${json(rule)}, got ${json(value)}`;
    case 'exclusiveMinimum':
      return `${path} must be greater than ${json(rule)}, got ${json(value)}`;
    case 'exclusiveMaximum':
      return `${path} must be less than ${json(rule)}, got ${json(value)}`;
    case 'multipleOf':
      return `${path} must be a multiple of ${json(rule)}, got ${json(value)}`;
    case 'minLength':
      return `${path} must be at least ${json(rule)} characters long`;
    case 'maxLength':
      return `${path} must be at most ${json(rule)} characters long`;
    case 'pattern':
      return `${path} must match the pattern ${json(rule)}`;
    case 'format':
      return `${path} must be a valid ${json(rule)}`;
    case 'minItems':
      return `${path} must have at least ${json(rule)} items`;
    case 'maxItems':
      return `${path} must have at most ${json(rule)} items`;
    case 'minProperties':
      return `${path} must have at least ${json(rule)} properties`;
    case 'maxProperties':
      return `${path} must have at most ${json(rule)} properties`;
    case 'contains':
      return `${path} must hold an item that matches the schema in "contains"`;
    case 'minContains':
      return `${path} must hold at least ${json(rule)} items that match the schema in "contains"`;
    case 'maxContains':
      return `${path} must hold at most ${json(rule)} items that match the schema in "contains"`;
    case 'anyOf':
      return `${path} must match at least one of the schemas in anyOf`;
    case 'oneOf':
      return `${path} must match exactly one of the schemas in oneOf, ${error.error.replace(/^.*\((\d+) matches?\)\.$/, 'matched $1')}`;
    case 'not':
      return `${path} must not match the schema in "not"`;
    default:
      // uniqueItems, propertyNames, dependentRequired: the
      // library's own sentence names what is wrong.
      return `${path}: ${error.error}`;
  }
}

const cap = (line: string) => (line.length <= LINE_CHARS ? line : `${line.slice(0, LINE_CHARS - 1)}…`);

/** Returns the problems found, or an empty list when the arguments fit the schema. */
export function validateArguments(args: Record<string, unknown>, schema: JsonSchema): string[] {
  try {
    // Checked as the JSON they are: own keys only, nothing that JSON cannot carry.
    args = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  } catch {
    return ['arguments must be plain JSON'];
  }
  let errors: OutputUnit[];
  try {
    errors = leafErrors(schemaErrors(schema, args));
  } catch (error) {
    // A schema that never passed toolSchema.ts (a `$ref` to nowhere, one that refers to itself
    // without end): the call cannot be checked, so it does not run. The library's message lists
    // every schema it knows; the first line is enough.
    return [cap(`the tool's parameters schema cannot be checked: ${String((error as Error).message).split('\n')[0]}`)];
  }
  const lines = [...new Set(errors.map((error) => cap(describe(error, args, schema))))];
  if (lines.length <= MAX_ARGUMENT_PROBLEMS) return lines;
  return [...lines.slice(0, MAX_ARGUMENT_PROBLEMS), `and ${lines.length - MAX_ARGUMENT_PROBLEMS} more problems`];
}
