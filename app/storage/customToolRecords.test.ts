import { describe, expect, it } from 'vitest';
import type { CustomToolConfig } from '../../workers/engine/config.ts';
import { readRecords, toConfig, upsertByName, type StoredCustomTool } from './customToolRecords.ts';

const tool = (name: string, code = 'return 1;'): CustomToolConfig => ({
  name,
  description: `${name} does things.`,
  parameters: { type: 'object', properties: {} },
  code,
  enabled: true,
});
const stored = (id: string, name: string, code?: string): StoredCustomTool => ({ id, ...tool(name, code) });

describe('readRecords', () => {
  it('keeps the records that are still valid tools and counts the rest', async () => {
    const records: unknown[] = [
      stored('a', 'first'),
      { ...tool('no_id') },
      { id: 'b', ...tool('bad schema'), parameters: { type: 'array' } },
      { id: 'c', ...tool('second'), enabled: undefined },
      stored('d', 'first'),
      null,
      'text',
    ];
    const { tools, skipped } = await readRecords(records);
    expect(tools).toEqual([stored('a', 'first'), stored('c', 'second')]);
    expect(skipped).toBe(5);
  });
});

describe('upsertByName', () => {
  it('replaces a tool of the same name in place, keeping its id, and adds new ones at the end', () => {
    const base = [stored('a', 'first'), stored('b', 'second')];
    const result = upsertByName(base, [tool('second', 'return 2;'), tool('third')]);
    expect(result.map((t) => [t.id, t.name, t.code])).toEqual([
      ['a', 'first', 'return 1;'],
      ['b', 'second', 'return 2;'],
      [expect.any(String), 'third', 'return 1;'],
    ]);
    expect(base[1]?.code).toBe('return 1;');
  });

  it('lets a stored tool laid over keep its own id', () => {
    expect(upsertByName([stored('a', 'first')], [stored('z', 'first', 'return 9;')])).toEqual([stored('z', 'first', 'return 9;')]);
  });
});

describe('toConfig', () => {
  it('drops what only this browser needs', () => {
    expect(toConfig(stored('a', 'first'))).toEqual(tool('first'));
  });
});
