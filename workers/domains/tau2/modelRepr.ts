// `repr()` of a pydantic model (`CardPayment(source='card', id='c1', extra_info=CardExtraInfo(…))`),
// which some τ² tools print into their error messages. A value in dump form does not know its
// class, so the schema it was validated with says it; a union member is recognised by its fields
// and literal tags. Pure TypeScript.

import type { FieldType, ModelSchema } from './model.ts';
import { isModel, pyRepr, strRepr, type PyModel, type PyValue } from './pyValues.ts';

/** The union member a dumped value came from: the one with the same fields whose literals match. */
function memberOf(candidates: readonly ModelSchema[], value: PyModel): ModelSchema | undefined {
  const keys = Object.keys(value);
  return candidates.find(
    (schema) =>
      schema.fields.length === keys.length &&
      schema.fields.every((f) => keys.includes(f.name) && (f.type.kind !== 'choice' || f.type.values.includes(value[f.name] as string))),
  );
}

/** `repr(value)` for a value of the given type. */
export function reprAs(type: FieldType, value: PyValue): string {
  switch (type.kind) {
    case 'model':
      return isModel(value) ? modelRepr(type.model, value) : pyRepr(value);
    case 'union': {
      const schema = isModel(value) ? memberOf(type.of, value) : undefined;
      return schema ? modelRepr(schema, value as PyModel) : pyRepr(value);
    }
    case 'optional':
      return value === null ? 'None' : reprAs(type.of, value);
    case 'list':
      return Array.isArray(value) ? `[${value.map((item) => reprAs(type.of, item)).join(', ')}]` : pyRepr(value);
    case 'dict':
      return value instanceof Map ? `{${[...value].map(([k, v]) => `${strRepr(k)}: ${reprAs(type.of, v)}`).join(', ')}}` : pyRepr(value);
    default:
      return pyRepr(value);
  }
}

/** `repr(model)`: the class name and every field as `name=repr(value)`. */
export function modelRepr(schema: ModelSchema, value: PyModel): string {
  return `${schema.name}(${schema.fields.map((f) => `${f.name}=${reprAs(f.type, value[f.name] ?? null)}`).join(', ')})`;
}
