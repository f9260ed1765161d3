// Checks a call's arguments against the tool's JSON schema before the tool runs, so that a bad
// call becomes an observation the model can correct instead of an exception inside the tool.
// Covers what function schemas use in practice: required keys, primitive types, enums, nested
// objects and arrays. Unknown keywords are ignored.

import type { JsonSchema } from './types.ts';

type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  enum?: unknown[];
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function check(value: unknown, schema: SchemaNode, path: string, problems: string[]): void {
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => matchesType(value, t))) {
      problems.push(`${path} must be ${types.join(' or ')}, got ${typeOf(value)}`);
      return;
    }
  }
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    problems.push(`${path} must be one of ${schema.enum.map((o) => JSON.stringify(o)).join(', ')}`);
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(object, key)) problems.push(`${path}.${key} is required`);
    }
    for (const [key, child] of Object.entries(object)) {
      // Own properties only: an argument named "constructor" or "__proto__" must not match the prototype.
      const childSchema = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (childSchema) check(child, childSchema, `${path}.${key}`, problems);
      else if (schema.additionalProperties === false) problems.push(`${path}.${key} is not an allowed argument`);
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => check(item, schema.items as SchemaNode, `${path}[${i}]`, problems));
  }
}

/** Returns the problems found, or an empty list when the arguments fit the schema. */
export function validateArguments(args: Record<string, unknown>, schema: JsonSchema): string[] {
  const problems: string[] = [];
  check(args, schema as SchemaNode, 'arguments', problems);
  return problems;
}
