// τ²'s pydantic models, described as data: validating a value builds the model as pydantic would
// (lax conversions: an int in a float field becomes a float, a date string a date; defaults
// filled; extra fields ignored or refused), and the result is already in `model_dump()` form
// (every field, nulls included, in declaration order; pyValues.ts), so rendering a tool's result
// or hashing a database needs no second pass. A refused value throws the ValidationError pydantic
// would, worded as pydantic words it, since τ² shows that text to the agent.
// Pure TypeScript.

import { PyError } from './pyErrors.ts';
import { isModel, numberOf, PyFloat, pyFloat, pyRepr, pyTypeName, type PyModel, type PyValue } from './pyValues.ts';

export type FieldType =
  | { kind: 'str' }
  | { kind: 'int' }
  | { kind: 'float' }
  | { kind: 'bool' }
  | { kind: 'any' }
  /** A Literal or a str Enum: the value is kept as its string. */
  | { kind: 'choice'; values: readonly string[]; enumName?: string }
  | { kind: 'optional'; of: FieldType }
  | { kind: 'list'; of: FieldType }
  /** Dict[str, X]: a Map. */
  | { kind: 'dict'; of: FieldType }
  | { kind: 'model'; model: ModelSchema }
  /** A union of models, tried in order (pydantic's smart mode picks the one that validates). */
  | { kind: 'union'; of: readonly ModelSchema[] }
  /** A union of scalar types (`Union[int, str]`): the member of the input's own type if there is
   * one (pydantic's smart mode, strict pass), else the first that accepts it. */
  | { kind: 'anyOf'; of: readonly FieldType[] }
  | { kind: 'date' }
  | { kind: 'datetime' };

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** The key the input uses when it is not the field's name (`Field(alias=…)`); the dump uses the name. */
  alias?: string;
  /** Makes the default value (a fresh one each time, as default_factory does). */
  default?: () => PyValue;
}

export interface ModelSchema {
  name: string;
  fields: readonly FieldSpec[];
  extra: 'ignore' | 'forbid';
}

export const t = {
  str: { kind: 'str' } as FieldType,
  int: { kind: 'int' } as FieldType,
  float: { kind: 'float' } as FieldType,
  bool: { kind: 'bool' } as FieldType,
  any: { kind: 'any' } as FieldType,
  date: { kind: 'date' } as FieldType,
  datetime: { kind: 'datetime' } as FieldType,
  choice: (values: readonly string[], enumName?: string): FieldType => ({ kind: 'choice', values, ...(enumName ? { enumName } : {}) }),
  optional: (of: FieldType): FieldType => ({ kind: 'optional', of }),
  list: (of: FieldType): FieldType => ({ kind: 'list', of }),
  dict: (of: FieldType): FieldType => ({ kind: 'dict', of }),
  model: (model: ModelSchema): FieldType => ({ kind: 'model', model }),
  union: (...of: ModelSchema[]): FieldType => ({ kind: 'union', of }),
  anyOf: (...of: FieldType[]): FieldType => ({ kind: 'anyOf', of }),
};

/** A field with a default: `field('x', t.bool, () => false)`. */
export function field(name: string, type: FieldType, defaultValue?: () => PyValue): FieldSpec {
  return defaultValue ? { name, type, default: defaultValue } : { name, type };
}

/** A field read from another key than its name: `aliased('date_of_birth', 'date-of-birth', t.str)`. */
export function aliased(name: string, alias: string, type: FieldType): FieldSpec {
  return { name, type, alias };
}

export function model(name: string, fields: FieldSpec[], extra: 'ignore' | 'forbid' = 'ignore'): ModelSchema {
  return { name, fields, extra };
}

/** The pydantic version whose error texts τ² showed (its lock file: pydantic 2.10.6). */
export const PYDANTIC_DOCS_VERSION = '2.10';

interface Problem {
  loc: (string | number)[];
  type: string;
  message: string;
  input: PyValue | undefined;
}

function inputRepr(input: PyValue | undefined): string {
  const text = input === undefined ? '{}' : pyRepr(input);
  return text.length > 50 ? `${text.slice(0, 25)}...${text.slice(-24)}` : text;
}

/** pydantic's ValidationError, in its words. */
export function validationError(title: string, problems: Problem[]): PyError {
  const count = `${problems.length} validation error${problems.length === 1 ? '' : 's'} for ${title}`;
  const lines = problems.map(
    (p) =>
      `${p.loc.join('.')}\n  ${p.message} [type=${p.type}, input_value=${inputRepr(p.input)}, input_type=${p.input === undefined ? 'dict' : pyTypeName(p.input)}]\n    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/${p.type}`,
  );
  return new PyError('ValidationError', [count, ...lines].join('\n'));
}

const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', 'off', '0']);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(\.\d{1,6})?(Z|[+-]\d{2}:?\d{2})?$/;

function choiceMessage(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return `Input should be ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0]}`;
}

/** Validates `input` against `type`; pushes problems and returns undefined when it cannot. */
// eslint-disable-next-line max-lines-per-function -- one switch over pydantic's field kinds, as the Python validator has it
function check(type: FieldType, input: PyValue, loc: (string | number)[], problems: Problem[]): PyValue | undefined {
  const refuse = (kind: string, message: string): undefined => {
    problems.push({ loc, type: kind, message, input });
    return undefined;
  };
  switch (type.kind) {
    case 'any':
      return input;
    case 'str':
      return typeof input === 'string' ? input : refuse('string_type', 'Input should be a valid string');
    case 'int': {
      if (typeof input === 'number') return input;
      if (typeof input === 'boolean') return input ? 1 : 0;
      if (input instanceof PyFloat) {
        return Number.isInteger(input.value) ? input.value : refuse('int_from_float', 'Input should be a valid integer, got a number with a fractional part');
      }
      if (typeof input === 'string') {
        const n = Number(input.trim());
        return input.trim() !== '' && Number.isSafeInteger(n) ? n : refuse('int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
      }
      return refuse('int_type', 'Input should be a valid integer');
    }
    case 'float': {
      const n = typeof input === 'boolean' ? Number(input) : numberOf(input);
      if (n !== undefined) return pyFloat(n);
      if (typeof input === 'string') {
        const parsed = Number(input.trim());
        return input.trim() !== '' && !Number.isNaN(parsed) ? pyFloat(parsed) : refuse('float_parsing', 'Input should be a valid number, unable to parse string as a number');
      }
      return refuse('float_type', 'Input should be a valid number');
    }
    case 'bool': {
      if (typeof input === 'boolean') return input;
      const n = numberOf(input);
      if (n === 0 || n === 1) return n === 1;
      if (typeof input === 'string') {
        const word = input.toLowerCase();
        if (TRUE_WORDS.has(word)) return true;
        if (FALSE_WORDS.has(word)) return false;
        return refuse('bool_parsing', 'Input should be a valid boolean, unable to interpret input');
      }
      return refuse('bool_type', 'Input should be a valid boolean');
    }
    case 'choice':
      return typeof input === 'string' && type.values.includes(input) ? input : refuse(type.enumName ? 'enum' : 'literal_error', choiceMessage(type.values));
    case 'optional':
      return input === null ? null : check(type.of, input, loc, problems);
    case 'list': {
      if (!Array.isArray(input)) return refuse('list_type', 'Input should be a valid list');
      const out: PyValue[] = [];
      let ok = true;
      input.forEach((item, i) => {
        const v = check(type.of, item, [...loc, i], problems);
        if (v === undefined) ok = false;
        else out.push(v);
      });
      return ok ? out : undefined;
    }
    case 'dict': {
      if (!(input instanceof Map)) return refuse('dict_type', 'Input should be a valid dictionary');
      const out = new Map<string, PyValue>();
      let ok = true;
      for (const [key, item] of input) {
        const v = check(type.of, item, [...loc, key], problems);
        if (v === undefined) ok = false;
        else out.set(key, v);
      }
      return ok ? out : undefined;
    }
    case 'model':
      return validateInto(type.model, input, loc, problems);
    case 'union': {
      for (const candidate of type.of) {
        const attempt: Problem[] = [];
        const v = validateInto(candidate, input, loc, attempt);
        if (v !== undefined && attempt.length === 0) return v;
      }
      return refuse('union_tag_invalid', `Input matches none of ${type.of.map((m) => m.name).join(', ')}`);
    }
    case 'anyOf': {
      const own = type.of.find((member) => member.kind === pyTypeName(input));
      const order = own ? [own, ...type.of.filter((member) => member !== own)] : type.of;
      const attempts: Problem[] = [];
      for (const member of order) {
        const attempt: Problem[] = [];
        const v = check(member, input, loc, attempt);
        if (v !== undefined && attempt.length === 0) return v;
        attempts.push(...attempt);
      }
      problems.push(...attempts);
      return undefined;
    }
    case 'date': {
      if (typeof input === 'string' && DATE.test(input)) return input;
      return refuse('date_from_datetime_parsing', 'Input should be a valid date or datetime');
    }
    case 'datetime': {
      if (typeof input === 'string') {
        const m = DATETIME.exec(input);
        if (m) {
          const time = m[2]!.length === 5 ? `${m[2]}:00` : m[2]!;
          const micros = m[3] && Number(m[3].slice(1)) !== 0 ? m[3].padEnd(7, '0') : '';
          const zone = m[4] === undefined ? '' : m[4] === 'Z' ? '+00:00' : m[4].includes(':') ? m[4] : `${m[4].slice(0, 3)}:${m[4].slice(3)}`;
          return `${m[1]} ${time}${micros}${zone}`;
        }
        if (DATE.test(input)) return `${input} 00:00:00`;
      }
      return refuse('datetime_from_date_parsing', 'Input should be a valid datetime');
    }
  }
}

function validateInto(schema: ModelSchema, input: PyValue, loc: (string | number)[], problems: Problem[]): PyModel | undefined {
  // An already-built model is kept as it is (pydantic's revalidate_instances='never').
  if (isModel(input)) return input;
  if (!(input instanceof Map)) {
    problems.push({ loc, type: 'model_type', message: `Input should be a valid dictionary or instance of ${schema.name}`, input });
    return undefined;
  }
  const out: PyModel = {};
  let ok = true;
  for (const spec of schema.fields) {
    const key = spec.alias ?? spec.name;
    if (input.has(key)) {
      const v = check(spec.type, input.get(key)!, [...loc, key], problems);
      if (v === undefined) ok = false;
      else out[spec.name] = v;
    } else if (spec.default) {
      out[spec.name] = spec.default();
    } else {
      problems.push({ loc: [...loc, key], type: 'missing', message: 'Field required', input });
      ok = false;
    }
  }
  if (schema.extra === 'forbid') {
    const known = new Set(schema.fields.map((f) => f.alias ?? f.name));
    for (const [key, item] of input) {
      if (!known.has(key)) {
        problems.push({ loc: [...loc, key], type: 'extra_forbidden', message: 'Extra inputs are not permitted', input: item });
        ok = false;
      }
    }
  }
  return ok ? out : undefined;
}

/** Builds a model from a dict (a Map) as pydantic's constructor does; throws its ValidationError. */
export function validateModel<T extends PyModel = PyModel>(schema: ModelSchema, input: PyValue): T {
  const problems: Problem[] = [];
  const out = validateInto(schema, input, [], problems);
  if (out === undefined || problems.length > 0) throw validationError(schema.name, problems);
  return out as T;
}

/** `Model(field=value, …)` from named values. */
export function construct<T extends PyModel = PyModel>(schema: ModelSchema, values: Record<string, PyValue>): T {
  return validateModel<T>(schema, new Map(Object.entries(values)));
}

/** A deep copy of a model's dump form (floats are immutable and shared). */
export function deepCopy<T extends PyValue>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof PyFloat) return value;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (value instanceof Map) {
    const copy = new Map<string, PyValue>();
    for (const [k, v] of value as Map<string, PyValue>) copy.set(k, deepCopy(v));
    return copy as T;
  }
  const out: PyModel = {};
  for (const key of Object.keys(value)) out[key] = deepCopy((value as PyModel)[key]!);
  return out as T;
}
