// What ToolScale's ten domains share: their models written as field lists, the two generic tools
// every toolkit has, and the environment a domain's toolkit lives in. Each domain's own folder
// holds its data_model.py (model.ts) and tools.py (tools.ts). Pure TypeScript.

import { calculate } from '../calculate.ts';
import { Tau2Environment } from '../environment.ts';
import { field, model, type FieldSpec, type FieldType, type ModelSchema, t, validateModel } from '../model.ts';
import { attributeError, valueError } from '../pyErrors.ts';
import { parsePyJson } from '../pyJson.ts';
import { iterate, lower } from '../pyOps.ts';
import { isModel, pyEquals, pyTypeName, type PyFloat, type PyModel, type PyValue } from '../pyValues.ts';
import { TableSeed, type TableToolkit, type Tables } from '../tableSeed.ts';
import { fn, type ToolParam } from '../toolkit.ts';

/** A tool call's arguments, by parameter name. */
export type Args = Record<string, PyValue>;
/** A Python number: an int or a float. */
export type Num = number | PyFloat;

/** A field with a default (`Field(default=…)`, `default_factory=…`). */
export interface Defaulted {
  type: FieldType;
  default: () => PyValue;
}
/** An `Optional[X] = None` field. */
export const opt = (type: FieldType): Defaulted => ({ type: t.optional(type), default: () => null });
export const withDefault = (type: FieldType, value: () => PyValue): Defaulted => ({ type, default: value });

/** A pydantic model from its fields in declaration order: `shape('Name', { first: t.str, middle: opt(t.str) })`. */
export function shape(name: string, fields: Record<string, FieldType | Defaulted | FieldSpec>, extra: 'ignore' | 'forbid' = 'ignore'): ModelSchema {
  return model(
    name,
    Object.entries(fields).map(([key, spec]) => {
      if ('kind' in spec) return field(key, spec);
      if ('name' in spec) return spec;
      return field(key, spec.type, spec.default);
    }),
    extra,
  );
}

/** τ²'s DB: every field a table, extra keys refused. */
export const database = (name: string, tables: Record<string, ModelSchema>): ModelSchema =>
  shape(name, Object.fromEntries(Object.entries(tables).map(([key, row]) => [key, t.dict(t.model(row))])), 'forbid');

/** The two generic tools of every ToolScale toolkit, word for word the same in each tools.py. */
export const calculateTool = fn<unknown>(['expression'], (_, a) => calculate(a.expression!), 'generic');
export const transferTool = fn<unknown>(['summary'], () => 'Transfer successful', 'generic');

/** db.json validated as the domain's DB, ready to be forked per rollout. */
export function parseSeed<Db extends Tables>(schema: ModelSchema, text: string): TableSeed<Db> {
  return new TableSeed(validateModel<Db & PyModel>(schema, parsePyJson(text)));
}

/** A domain's environment (its environment.py: the toolkit and the policy, no user tools). */
export function toolScaleEnvironment<Db extends Tables>(domainName: string, policy: string, tools: TableToolkit<Db>, dbSchema: ModelSchema): Tau2Environment {
  return new Tau2Environment({ domainName, policy, tools, userTools: null, dbSchema, userDbSchema: null });
}

/** The id of the first row whose email equals `email` ignoring case (`row.email.lower() == email.lower()`),
 * or ValueError(message). */
export function findIdByEmail(table: ReadonlyMap<string, PyValue>, emailOf: (row: PyModel) => PyValue, email: PyValue, message: string): string {
  for (const [id, row] of table) if (lower(emailOf(row as PyModel)) === lower(email)) return id;
  throw valueError(message);
}

/** A tool parameter `name: Optional[X] = None`. */
export const optional = (name: string): ToolParam => ({ name, default: () => null });

/** `target.<key> = <key>` for each of the keys, as tools.py assigns a model's fields (unvalidated). */
export function assignFields(target: PyModel, args: Record<string, PyValue>, keys: readonly string[]): void {
  for (const key of keys) target[key] = args[key]!;
}

/** `Model(**value) if isinstance(value, dict) else value`, the tools' way with `Model | dict` arguments. */
export function asModel<T extends PyValue = PyModel>(schema: ModelSchema, value: PyValue): T {
  return (value instanceof Map ? validateModel(schema, value) : value) as T;
}

/** `[Model(**v) for v in values] if all(isinstance(v, dict) for v in values) else values`, as the
 * items a loop over the result sees (each tool reads an attribute of every item before it stores
 * the list, so an item that is no model raises there, as in Python). */
export function asModels<T extends PyValue = PyModel>(schema: ModelSchema, values: PyValue): T[] {
  const items = iterate(values);
  return (items.every((item) => item instanceof Map) ? items.map((item) => validateModel(schema, item)) : items) as T[];
}

/** `value.<name>` of what should be a model, with Python's AttributeError when it is not one. */
export function attr(value: PyValue, name: string): PyValue {
  if (isModel(value) && Object.hasOwn(value, name)) return value[name]!;
  throw attributeError(pyTypeName(value), name);
}

/** The id of the first row whose first and last names equal the given ones ignoring case and whose
 * postal code equals the given one (retail's find_user_id_by_name_zip, as e-commerce and restaurant
 * rename it), or ValueError(message). */
export function findIdByNameZip(
  table: ReadonlyMap<string, PyValue>,
  fieldsOf: (row: PyModel) => [PyValue, PyValue, PyValue],
  first: PyValue,
  last: PyValue,
  zip: PyValue,
  message: string,
): string {
  for (const [id, row] of table) {
    const [rowFirst, rowLast, rowZip] = fieldsOf(row as PyModel);
    if (lower(rowFirst) === lower(first) && lower(rowLast) === lower(last) && pyEquals(rowZip, zip)) return id;
  }
  throw valueError(message);
}

/** `values` after `if all(isinstance(v, dict) for v in values): values = [Model(**v) …]`: the
 * models, or the value as it came, for a tool that stores it. */
export function asModelsOrGiven(schema: ModelSchema, values: PyValue): PyValue {
  return iterate(values).every((item) => item instanceof Map) ? asModels(schema, values) : values;
}
