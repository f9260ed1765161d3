// The one JSON Schema engine: @cfworker/json-schema, an interpreter (no eval, no new Function, so
// it runs under the page's and the workers' CSPs), at draft 2020-12. validateArguments.ts checks a
// call's arguments with it; toolSchema.ts checks a tool's `parameters` against the engine's
// meta-schema with it. Nothing here fetches: a `$ref` resolves inside its own schema or not at all.

import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';

export type { OutputUnit };

/** The draft every schema is read as (docs/configuration.md, "Custom tools"). */
export const SCHEMA_DRAFT = '2020-12';
export const SCHEMA_DRAFT_URI = 'https://json-schema.org/draft/2020-12/schema';

// The library annotates the schema it is given (non-enumerable properties on every subschema), so
// it gets a copy; one compiled validator per schema object, as a tool keeps its schema for a run.
const compiled = new WeakMap<object, Validator>();

/** Every problem with `instance` under `schema`, as the library reports them (not short-circuited). */
export function schemaErrors(schema: object, instance: unknown): OutputUnit[] {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = new Validator(structuredClone(schema) as Schema, SCHEMA_DRAFT, false);
    compiled.set(schema, validator);
  }
  return validator.validate(instance).errors;
}

/** A location ("#/where/lat", as the library writes it) as keys. */
export function pointerKeys(location: string): string[] {
  const pointer = location.startsWith('#') ? location.slice(1) : location;
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((key) => safeDecode(key).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function isFields(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `keys` under `root`; undefined when there is none. Own keys only. */
export function valueAt(root: unknown, keys: readonly string[]): unknown {
  let node = root;
  for (const key of keys) {
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isFields(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Where a local `$ref` ("#", "#/$defs/x") points inside `root`; undefined for any other reference. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  return valueAt(root, pointerKeys(ref));
}

/** The subschema a keyword location names ("#/properties/x/$ref/minimum" → the referenced schema's
 * `minimum`), following local `$ref`s the way the library did to get there. */
export function schemaValueAt(root: unknown, keywordLocation: string): unknown {
  let node = root;
  for (const key of pointerKeys(keywordLocation)) {
    if (key === '$ref' && isFields(node) && typeof node.$ref === 'string') node = resolveLocalRef(root, node.$ref);
    else node = valueAt(node, [key]);
    if (node === undefined) return undefined;
  }
  return node;
}

// Keywords whose error only says "something below failed": the errors below say what.
const PASS_THROUGH = new Set([
  '$ref',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'unevaluatedItems',
  'allOf',
  'if',
  'dependentSchemas',
]);
// Keywords whose error is the whole story: the errors below are the alternatives that failed
// (anyOf, oneOf) or the items that did not match (contains, propertyNames), which would mislead.
const SUMMARY = new Set(['anyOf', 'oneOf', 'not', 'contains', 'propertyNames']);

/** The errors that say what is wrong, without the wrappers above them or the alternatives below a summary. */
export function leafErrors(errors: readonly OutputUnit[]): OutputUnit[] {
  // A false schema's error carries no schema location (the library puts the instance's there);
  // it comes right after the error of the keyword that holds it (additionalProperties, items…).
  const located = errors.map((e, i) => {
    const holder = errors[i - 1];
    return e.keyword === 'false' && holder ? { ...e, keywordLocation: `${holder.keywordLocation}/false` } : e;
  });
  const summaries = located.filter((e) => SUMMARY.has(e.keyword)).map((e) => `${e.keywordLocation}/`);
  return located.filter(
    (e) => !PASS_THROUGH.has(e.keyword) && !summaries.some((prefix) => e.keywordLocation.startsWith(prefix)),
  );
}
