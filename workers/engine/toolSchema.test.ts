import { describe, expect, it } from 'vitest';
import { checkToolParameters, formatSchemaProblem } from './toolSchema.ts';

const lines = (value: unknown) => checkToolParameters(value).map(formatSchemaProblem);

describe('checkToolParameters', () => {
  it('accepts an object schema built from the keywords the engine checks', () => {
    expect(
      lines({
        type: 'object',
        properties: {
          city: { type: 'string', description: 'Where.' },
          days: { type: ['integer', 'null'] },
          unit: { enum: ['C', 'F'] },
          tags: { type: 'array', items: { type: 'string' } },
          where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'], additionalProperties: false },
        },
        required: ['city'],
      }),
    ).toEqual([]);
    expect(lines({ type: 'object', properties: {} })).toEqual([]);
  });

  it('wants a JSON object with type "object" and properties', () => {
    expect(lines([])).toEqual(['The schema must be a JSON object (a schema with "type": "object"), not an array']);
    expect(lines(null)).toEqual(['The schema must be a JSON object (a schema with "type": "object"), not null']);
    expect(lines({ type: 'string' })).toEqual([
      'type: must be "object": a tool takes its arguments by name',
      'properties: is missing: list each argument, e.g. {"city": {"type": "string"}}',
    ]);
  });

  it('names each problem with its path', () => {
    expect(
      lines({
        type: 'object',
        properties: {
          city: { type: 'strin' },
          days: 'integer',
          tags: { type: 'array', items: [] },
          unit: { enum: [] },
          note: { description: 7 },
          where: { type: 'object', properties: [], additionalProperties: 'no' },
        },
        required: ['city', 'country'],
      }),
    ).toEqual([
      'properties.city.type: "strin" is not a JSON type (use "string", "number", "integer", "boolean", "object", "array", "null")',
      'properties.days: must be a schema object such as {"type": "string"}, not a string',
      'properties.tags.items: must be a schema object such as {"type": "string"}, not an array',
      'properties.unit.enum: must be a non-empty array of the allowed values',
      'properties.note.description: must be a string',
      'properties.where.properties: must be an object of named schemas, not an array',
      'properties.where.additionalProperties: must be a schema object such as {"type": "string"}, not a string',
      'required: names "country", which is not in properties',
    ]);
    expect(lines({ type: 'object', properties: {}, required: 'city' })).toEqual(['required: must be an array of property names']);
  });

  it('refuses nesting past its depth limit instead of recursing without end', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) schema = { type: 'array', items: schema };
    expect(lines({ type: 'object', properties: { deep: schema } })).toEqual([
      `properties.deep${'.items'.repeat(16)}: nests deeper than 16 levels`,
    ]);
  });
});
