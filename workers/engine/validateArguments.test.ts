import { describe, expect, it } from 'vitest';
import { validateArguments } from './validateArguments.ts';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer' },
    unit: { type: 'string', enum: ['C', 'F'] },
    tags: { type: 'array', items: { type: 'string' } },
    where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
  },
  required: ['city'],
  additionalProperties: false,
};

describe('validateArguments', () => {
  it('accepts arguments that fit', () => {
    expect(validateArguments({ city: 'Paris', days: 3, unit: 'C', tags: ['a'], where: { lat: 48.8 } }, schema)).toEqual([]);
  });

  it('names each problem with its path', () => {
    expect(
      validateArguments({ days: 1.5, unit: 'K', tags: ['a', 2], where: {}, extra: true }, schema),
    ).toEqual([
      'arguments.city is required',
      'arguments.days must be integer, got number',
      'arguments.unit must be one of "C", "F"',
      'arguments.tags[1] must be string, got integer',
      'arguments.where.lat is required',
      'arguments.extra is not an allowed argument',
    ]);
  });

  it('does not count inherited keys as present', () => {
    expect(validateArguments(Object.create({ city: 'Paris' }) as Record<string, unknown>, schema)).toEqual([
      'arguments.city is required',
    ]);
  });

  it('checks an argument named like an Object.prototype member as any other', () => {
    expect(validateArguments({ city: 'Paris', constructor: 1, toString: 'x' }, schema)).toEqual([
      'arguments.constructor is not an allowed argument',
      'arguments.toString is not an allowed argument',
    ]);
  });
});
